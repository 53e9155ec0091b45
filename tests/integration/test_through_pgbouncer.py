"""Through a real PgBouncer in transaction mode (as k8s/components/connection-pooler runs it): a pooled service's
connections work across transactions that share one server connection, where psycopg's own prepared statements
collide, and a whole service (identity: sign-ups, its outbox relay LISTENing straight to PostgreSQL, its jobs)
runs behind it as the launcher starts it. Needs the `pgbouncer` binary (CI installs it); locally the suite
skips without it."""

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from pinbid_identity.app import build
from pinbid_identity.settings import IdentitySettings
from pinbid_kit.bus.inprocess import InProcessBus
from pinbid_kit.db import Database
from pinbid_kit.pooler import fit_for_pooler
from pinbid_kit.settings import KitSettings
from pinbid_testing import client, eventually, eventually_sync
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def pgbouncer(postgres_url) -> Iterator[str]:
    """A PgBouncer with ONE server connection per database, so consecutive transactions of different clients
    always share it. Returns its base URL (append /<database>)."""
    binary = shutil.which("pgbouncer") or ("/usr/sbin/pgbouncer" if Path("/usr/sbin/pgbouncer").exists() else None)
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("pgbouncer is not installed (the CI script installs it)")
        pytest.skip("pgbouncer is not installed")
    server = urlsplit(postgres_url)
    folder = Path(tempfile.mkdtemp(prefix="pinbid-pgbouncer-"))
    folder.chmod(0o755)  # pgbouncer refuses to run as root: it drops to `nobody`, who must read its files
    port = _free_port()
    (folder / "userlist.txt").write_text(f'"{server.username or "postgres"}" ""\n')
    (folder / "pgbouncer.ini").write_text(f"""[databases]
* = host={server.hostname or "127.0.0.1"} port={server.port or 5432}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = trust
auth_file = {folder / "userlist.txt"}
pool_mode = transaction
default_pool_size = 1
max_client_conn = 20
; the test run's PGOPTIONS (synchronous_commit off, pinbid_testing.plugin) reaches no server through the pooler
ignore_startup_parameters = options
""" + _no_prepared_statement_support(binary))
    for path in folder.iterdir():
        path.chmod(0o644)
    command = [binary, *(["-u", "nobody"] if os.geteuid() == 0 else []), str(folder / "pgbouncer.ini")]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"postgresql://{server.username or 'postgres'}@127.0.0.1:{port}"
    try:
        _wait_until_it_answers(url, process)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def _no_prepared_statement_support(binary: str) -> str:
    """PgBouncer 1.21 and later can carry protocol-level prepared statements; turn that off, so the control case
    shows what a pooler without it (older versions, or max_prepared_statements = 0) does to psycopg's."""
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.split()[1]
    major, minor = (int(part) for part in version.split(".")[:2])
    return "max_prepared_statements = 0\n" if (major, minor) >= (1, 21) else ""


def _wait_until_it_answers(url: str, process: subprocess.Popen) -> None:
    def answers() -> bool:
        if process.poll() is not None:
            raise RuntimeError(f"pgbouncer stopped: {process.stderr.read().decode()}")
        try:
            with psycopg.connect(f"{url}/postgres", connect_timeout=2) as conn:
                conn.execute("SELECT 1")
            return True
        except psycopg.OperationalError:
            return False

    eventually_sync(answers, within=15, every=0.2)


async def run_the_same_statement_from_two_clients(url: str, *, pooled: bool) -> None:
    """Two client connections, one after the other, each running one statement often enough for psycopg to
    prepare it; PgBouncer gives both the same server connection."""
    settings = KitSettings(database_url=url, db_pool_size=2, db_max_overflow=0, **(
        {"database_pooled": True, "migrate_on_start": False, "database_listen_url": url} if pooled else {}))
    db = Database.from_settings(settings)
    fit_for_pooler(db, settings)
    try:
        async with db.engine.connect() as first, db.engine.connect() as second:
            for client in (first, second):
                for n in range(8):
                    await client.execute(text("SELECT :n + 1"), {"n": n})
                await client.commit()
    finally:
        await db.dispose()


async def test_a_pooled_service_runs_its_statements_through_pgbouncer(pgbouncer, new_database):
    database = urlsplit(new_database()).path
    await run_the_same_statement_from_two_clients(pgbouncer + database, pooled=True)


async def test_without_it_psycopgs_prepared_statements_collide_on_the_shared_server_connection(
        pgbouncer, new_database):
    database = urlsplit(new_database()).path
    with pytest.raises(DBAPIError, match="prepared statement"):
        await run_the_same_statement_from_two_clients(pgbouncer + database, pooled=False)


async def test_identity_signs_people_up_and_relays_their_events_behind_pgbouncer(pgbouncer, new_database, tmp_path):
    direct = new_database("pinbid_identity")
    settings = IdentitySettings(database_url=pgbouncer + urlsplit(direct).path, database_pooled=True,
                                database_listen_url=direct, migrate_on_start=False, db_pool_size=2,
                                db_max_overflow=1, jwt_private_key_file=tmp_path / "jwt.pem",
                                jwt_public_key_file=tmp_path / "jwt.pub", mail_folder=tmp_path / "mail",
                                argon2_time_cost=1, argon2_memory_kib=1024)
    service = build(settings)
    fit_for_pooler(service.db, settings)  # as pinbid_launcher's serve_service does
    bus = InProcessBus(retry_base_seconds=0.01)
    service.attach(bus, relay_idle_seconds=30, listen_url=settings.listen_url())  # woken by NOTIFY, not polling
    await bus.start()
    await service.start_background()
    try:
        async with client(service.app) as http:
            for n in range(8):  # the same statements, again and again, on connections that share one server
                answer = await http.post("/auth/register", json={"name": "Pooled Person", "password": "correct horse",
                                                                 "email": f"pooled-{n}@example.com", "role": "BUYER"})
                assert answer.status_code == 201, answer.text

        async def all_relayed() -> bool:
            with psycopg.connect(direct) as conn:
                return conn.execute("SELECT count(*) FILTER (WHERE sent_at IS NOT NULL), count(*) FROM outbox "
                                    "WHERE type = 'identity.user.registered.v1'").fetchone() == (8, 8)

        await eventually(all_relayed, within=20)
    finally:
        await service.stop_background()
        await bus.stop()
        await service.db.dispose()
