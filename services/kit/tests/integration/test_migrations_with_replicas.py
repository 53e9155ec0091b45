"""Replicas starting together migrate one at a time: the second waits for the first's commit, then finds
the schema at head (before, the lock was released before the commit and the second replica failed with
"relation already exists"). Each also creates the database if it is missing. Separate processes, as
replicas are (Alembic's context is process-wide)."""

import subprocess
import sys
import uuid

import psycopg
import pytest

pytestmark = pytest.mark.slow  # run first (pinbid_testing.plugin)

MIGRATE = "import sys; from pinbid_kit.migrations import upgrade; upgrade(sys.argv[1], 'pinbid_marketplace')"


def test_replicas_starting_together_both_migrate_a_new_database(postgres_url):
    name = f"test_replicas_{uuid.uuid4().hex[:10]}"
    url = f"{postgres_url}/{name}"
    try:
        replicas = [subprocess.Popen([sys.executable, "-c", MIGRATE, url], stderr=subprocess.PIPE, text=True)
                    for _ in range(3)]
        for replica in replicas:
            _, errors = replica.communicate(timeout=120)
            assert replica.returncode == 0, errors[-3000:]
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT count(*) FROM alembic_version").fetchone() == (1,)
            assert conn.execute("SELECT to_regclass('slots') IS NOT NULL").fetchone() == (True,)
    finally:
        with psycopg.connect(f"{postgres_url}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
