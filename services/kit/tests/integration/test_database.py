"""The database pool is bounded (an exhausted pool answers 503 with Retry-After, not a hang) and SQL parameters
never appear in error messages."""

import asyncio
import time

import pytest
from fastapi import APIRouter
from pinbid_kit.db import Busy, Database
from pinbid_kit.http import create_app
from pinbid_testing import client
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError


@pytest.fixture
async def small(new_database):
    database = Database(new_database(), pool_size=1, max_overflow=0, pool_timeout=0.3)
    yield database
    await database.dispose()


async def test_an_exhausted_pool_answers_503_with_retry_after(small):
    router = APIRouter()

    @router.get("/count")
    async def count() -> dict:
        async with small.transaction() as session:
            return {"n": await session.scalar(text("SELECT 1"))}

    held = asyncio.Event()
    release = asyncio.Event()

    async def hold_the_only_connection() -> None:
        async with small.transaction() as session:
            await session.execute(text("SELECT 1"))
            held.set()
            await release.wait()

    holder = asyncio.create_task(hold_the_only_connection())
    await held.wait()
    async with client(create_app("test", routers=[router])) as http:
        started = time.perf_counter()
        busy = await http.get("/count")
        waited = time.perf_counter() - started
        release.set()
        await holder
        after = await http.get("/count")
    assert busy.status_code == 503 and busy.headers["retry-after"] == "1"
    assert busy.json() == {"detail": "The service is busy. Please try again in a moment.", "code": "busy"}
    assert waited < 2  # the pool timeout, not a hang
    assert after.status_code == 200 and after.json() == {"n": 1}


async def test_busy_is_raised_by_the_transaction_itself(small):
    async with small.transaction() as session:
        await session.execute(text("SELECT 1"))
        with pytest.raises(Busy):
            async with small.transaction() as other:
                await other.execute(text("SELECT 1"))


async def test_a_connection_in_transaction_commits_its_statements_together_or_none_and_says_busy(small):
    async with small.transaction() as session:
        await session.execute(text("CREATE TABLE kept (n int)"))
    async with small.connection_in_transaction() as conn:
        await conn.execute(text("INSERT INTO kept VALUES (1)"))
        await conn.execute(text("INSERT INTO kept VALUES (2)"))
    with pytest.raises(ZeroDivisionError):
        async with small.connection_in_transaction() as conn:
            await conn.execute(text("INSERT INTO kept VALUES (3)"))
            raise ZeroDivisionError
    async with small.autocommit() as conn:
        assert (await conn.execute(text("SELECT n FROM kept ORDER BY n"))).scalars().all() == [1, 2]
        with pytest.raises(Busy):  # the pool's only connection is this one
            async with small.connection_in_transaction():
                pass


async def test_sql_parameters_never_appear_in_errors(small):
    with pytest.raises(DBAPIError) as failed:
        async with small.transaction() as session:
            await session.execute(text("SELECT length(:email) / 0"), {"email": "maya.private@example.com"})
    assert "maya.private@example.com" not in str(failed.value)
    assert "hidden due to hide_parameters" in str(failed.value)


async def test_a_connection_in_use_is_not_pinged_and_one_idle_and_dead_is_replaced_before_use(new_database,
                                                                                               monkeypatch):
    """ping_when_idle: no round trip before a transaction on a connection used a moment ago; a connection idle
    past the threshold (0 s here: every one checked in before) is pinged, and one whose backend died meanwhile is
    replaced, not handed to the caller."""
    import psycopg

    url = new_database()
    busy, idle = Database(url, pool_size=1, max_overflow=0), Database(url, pool_size=1, max_overflow=0,
                                                                      idle_before_ping=0.0)
    pings = []
    for database in (busy, idle):
        real_ping = database.engine.dialect.do_ping
        monkeypatch.setattr(database.engine.dialect, "do_ping",
                            lambda conn, real_ping=real_ping: pings.append(1) or real_ping(conn))
    try:
        for _ in range(5):
            async with busy.transaction() as session:
                await session.scalar(text("SELECT 1"))
        assert pings == []  # each checkout came a moment after the connection's last use
        async with idle.transaction() as session:
            backend = await session.scalar(text("SELECT pg_backend_pid()"))
        dsn = idle.url.replace("postgresql+psycopg://", "postgresql://", 1)
        with psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (backend,))
        async with idle.transaction() as session:
            assert await session.scalar(text("SELECT pg_backend_pid()")) != backend
        assert len(pings) == 1
    finally:
        await busy.dispose()
        await idle.dispose()
