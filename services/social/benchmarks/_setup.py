"""Shared set-up for the benchmarks: a fresh database, the service on an in-process bus, a clock."""

import tempfile
import uuid
from contextlib import asynccontextmanager
from pathlib import Path

import psycopg
from cryptography.fernet import Fernet
from pinbid_kit.migrations import upgrade
from pinbid_kit.tokens import TokenSigner, generate_keypair
from pinbid_social.app import build
from pinbid_social.settings import SocialSettings
from pinbid_testing import POSTGRES_URL, MovableClock, running


@asynccontextmanager
async def service(**overrides):
    name = f"bench_social_{uuid.uuid4().hex[:8]}"
    url = f"{POSTGRES_URL}/{name}"
    upgrade(url, "pinbid_social")
    keys = Path(tempfile.mkdtemp())
    generate_keypair(keys / "jwt.pem", keys / "jwt.pub")
    settings = SocialSettings(database_url=url, jwt_public_key_file=keys / "jwt.pub", log_json=False,
                              encryption_keys=Fernet.generate_key().decode(), public_url="http://pinbid.test",
                              **overrides)
    clock = MovableClock()
    built = build(settings, clock=clock)
    built.jobs = []
    try:
        async with running(built):
            yield built, TokenSigner((keys / "jwt.pem").read_bytes(), ttl_seconds=3600), clock
    finally:
        with psycopg.connect(f"{POSTGRES_URL}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]
