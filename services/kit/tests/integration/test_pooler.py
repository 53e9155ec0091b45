"""Behind a pooler in transaction mode (<SERVICE>_DATABASE_POOLED) a service prepares no statement on the server:
the next transaction may run on a server connection that never saw it. Without a pooler psycopg keeps preparing
a statement run five times, as before."""

import asyncio

import psycopg
import pytest
from pinbid_kit.db import Database
from pinbid_kit.outbox import NOTIFY_CHANNEL, OutboxRelay
from pinbid_kit.pooler import fit_for_pooler
from pinbid_kit.settings import KitSettings
from pinbid_testing import eventually
from sqlalchemy import text


def settings(url: str, *, pooled: bool) -> KitSettings:
    if not pooled:
        return KitSettings(database_url=url)
    return KitSettings(database_url=url, database_pooled=True, migrate_on_start=False, database_listen_url=url)


async def statements_prepared_after_repeating_one(url: str, *, pooled: bool) -> int:
    db = Database.from_settings(settings(url, pooled=pooled))
    fit_for_pooler(db, settings(url, pooled=pooled))
    try:
        async with db.engine.connect() as conn:
            for attempt in range(8):
                await conn.execute(text("SELECT :n + 1"), {"n": attempt})
            return (await conn.execute(text("SELECT count(*) FROM pg_prepared_statements"))).scalar_one()
    finally:
        await db.dispose()


@pytest.mark.parametrize(("pooled", "prepared"), [(True, 0), (False, 1)])
async def test_a_pooled_database_prepares_nothing_on_the_server(new_database, pooled, prepared):
    assert await statements_prepared_after_repeating_one(new_database(), pooled=pooled) == prepared


async def test_the_relay_listens_on_the_direct_url_not_through_the_pooler(new_database):
    direct = new_database()
    # the pooled URL leads nowhere: a wake-up can only come through the direct one
    pooled = settings("postgresql://app@127.0.0.1:1/pinbid", pooled=True).model_copy(
        update={"database_listen_url": direct})
    db = Database.from_settings(pooled)
    relay = OutboxRelay(db, bus=None, listen_url=pooled.listen_url())
    listener = asyncio.create_task(relay._listen())
    try:
        async def woken() -> bool:
            async with await psycopg.AsyncConnection.connect(direct, autocommit=True) as conn:
                await conn.execute("SELECT pg_notify(%s, '')", (NOTIFY_CHANNEL,))
            return relay._wake.is_set()

        await eventually(woken, within=10, every=0.2)
    finally:
        listener.cancel()
        await db.dispose()
