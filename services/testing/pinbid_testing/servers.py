"""Where the test servers are, and what a suite does when one is not there: it fails when CI is set and
skips with the reason otherwise."""

import os
import socket
from urllib.parse import urlparse

import psycopg
import pytest

POSTGRES_URL = os.environ.get("PINBID_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432")
AMQP_URL = os.environ.get("PINBID_TEST_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/")


def unavailable(what: str, error: Exception) -> None:
    message = f"{what} is not reachable ({error!r}); start it (see README) to run this suite"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def reachable_postgres() -> str:
    try:
        with psycopg.connect(f"{POSTGRES_URL}/postgres", connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:
        unavailable("PostgreSQL", exc)
    return POSTGRES_URL


def reachable_rabbitmq() -> str:
    parsed = urlparse(AMQP_URL)
    try:
        socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 5672), timeout=3).close()
    except Exception as exc:
        unavailable("RabbitMQ", exc)
    return AMQP_URL


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now (for a server a test starts)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
