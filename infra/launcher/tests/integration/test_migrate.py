"""`python -m pinbid_launcher migrate NAME`, as the Kubernetes Job runs it: applies one service's migrations
on a real database and exits 0; on failure, exits non-zero with one line and no stack trace."""

import os
import subprocess
import sys

import psycopg
import pytest

pytestmark = pytest.mark.slow  # run first (pinbid_testing.plugin)


def migrate(name: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pinbid_launcher", "migrate", name], env={**os.environ, **env},
                          capture_output=True, text=True, timeout=120)


def test_migrate_applies_the_services_migrations_and_exits(new_database, tmp_path):
    url = new_database()
    done = migrate("payments", {"PAYMENTS_DATABASE_URL": url, "PINBID_VAR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM alembic_version").fetchone() == (1,)
        assert conn.execute("SELECT to_regclass('outbox') IS NOT NULL").fetchone() == (True,)
    again = migrate("payments", {"PAYMENTS_DATABASE_URL": url, "PINBID_VAR": str(tmp_path)})
    assert again.returncode == 0, again.stderr  # a second run (the next release's Job) changes nothing


def test_an_unreachable_database_fails_with_one_line_naming_it_without_the_password(tmp_path):
    url = "postgresql://migrator:s3cret@127.0.0.1:1/pinbid_payments"
    failed = migrate("payments", {"PAYMENTS_DATABASE_URL": url, "PINBID_VAR": str(tmp_path)})
    assert failed.returncode == 1
    [line] = failed.stderr.strip().splitlines()
    assert line.startswith("Migrating payments on postgresql://migrator:***@127.0.0.1:1/pinbid_payments failed: "
                           "OperationalError: ")
    assert "s3cret" not in line


def test_an_unknown_service_fails_with_one_line(tmp_path):
    failed = migrate("billing", {"PINBID_VAR": str(tmp_path)})
    assert failed.returncode == 1
    assert "unknown or not installed service: billing" in failed.stderr and "Traceback" not in failed.stderr
