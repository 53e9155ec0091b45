"""A database connection lost mid-request (PostgreSQL restarted, backend terminated) answers 503 with
Retry-After, not 500; the pool's pre-ping replaces the dead connection for the next request."""

import psycopg
from fastapi import APIRouter
from pinbid_kit.http import create_app
from pinbid_testing import client
from sqlalchemy import text


def app_whose_connection_is_cut_mid_request(db, dsn: str):
    router = APIRouter()

    @router.get("/count")
    async def count(cut: bool = False) -> dict:
        async with db.transaction() as session:
            pid = await session.scalar(text("SELECT pg_backend_pid()"))
            if cut:
                with psycopg.connect(dsn, autocommit=True) as admin:
                    admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            return {"widgets": await session.scalar(text("SELECT count(*) FROM widgets"))}

    return create_app("test", routers=[router])


async def test_a_connection_lost_mid_request_is_a_503_with_retry_after_then_the_next_request_works(db):
    dsn = db.url.replace("postgresql+psycopg://", "postgresql://", 1)
    async with client(app_whose_connection_is_cut_mid_request(db, dsn)) as http:
        lost = await http.get("/count", params={"cut": "true"})
        again = await http.get("/count")
    assert lost.status_code == 503
    assert lost.headers["Retry-After"] == "2"
    assert lost.json() == {"detail": "The service lost its database connection. Please try again in a moment.",
                           "code": "database_unavailable"}
    assert again.status_code == 200 and again.json() == {"widgets": 0}
