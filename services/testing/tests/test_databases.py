"""Test databases: clones of one migrated template per package, recycled from one test to the next while they
still look like a clone, named for their process, and dropped even when the run that made them died."""

import os
import subprocess
import sys
import threading

import psycopg
import pytest
from pinbid_testing import recycling
from pinbid_testing.databases import RunDatabases, leftovers_of_dead_runs, run_prefix


def a_dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def names(postgres_url: str) -> set[str]:
    with psycopg.connect(f"{postgres_url}/postgres") as conn:
        return {row[0] for row in conn.execute("SELECT datname FROM pg_database")}


def test_only_databases_of_processes_that_are_gone_are_leftovers():
    dead = a_dead_pid()
    found = [f"{run_prefix(dead)}content_0", f"{run_prefix()}content_0", f"{run_prefix(1)}content_0",
             "pinbid_marketplace", "test_content_0123456789"]
    assert leftovers_of_dead_runs(found) == [f"{run_prefix(dead)}content_0"]


def test_clones_come_migrated_from_one_template_and_all_go_at_the_end(postgres_url):
    run = RunDatabases(postgres_url)
    first, second = run.new("pinbid_content"), run.new("pinbid_content")
    try:
        assert first != second and first.startswith(f"{postgres_url}/{run_prefix()}")
        assert list(run.templates) == ["pinbid_content"]
        for url in (first, second):
            with psycopg.connect(url) as conn:
                assert conn.execute("SELECT count(*) FROM alembic_version").fetchone() == (1,)
        with psycopg.connect(first, autocommit=True) as conn:
            conn.execute("CREATE TABLE only_here (id int)")
        with psycopg.connect(second) as conn:
            assert conn.execute("SELECT to_regclass('only_here')").fetchone() == (None,)
        with psycopg.connect(run.new()) as conn:  # without a package: empty
            assert conn.execute("SELECT to_regclass('alembic_version')").fetchone() == (None,)
    finally:
        made = [*run.made, *run.templates.values()]
        run.drop_all()
    assert len(made) == 4 and not set(made) & names(postgres_url)


def test_a_tests_databases_go_in_the_background_and_the_run_waits_for_them_at_its_end(postgres_url):
    run = RunDatabases(postgres_url)
    first = run.new().rsplit("/", 1)[1]
    run.release_made_in_background()
    assert run.made == {}
    second = run.new().rsplit("/", 1)[1]
    run.drop_all()
    assert not {first, second} & names(postgres_url)


def dropped_at_the_end(postgres_url):
    run = RunDatabases(postgres_url)
    yield run
    run.drop_all()
    assert not {name for name in names(postgres_url) if name.startswith(run.prefix)}


@pytest.fixture
def run(postgres_url):
    yield from dropped_at_the_end(postgres_url)


@pytest.fixture(scope="module")
def run_of_the_module(postgres_url):
    """One template for the cases of a test (migrating one is most of a case's time): each case starts from the
    last one's database, emptied."""
    yield from dropped_at_the_end(postgres_url)


INSERT_EVENT = "INSERT INTO outbox (id, type, envelope) VALUES (gen_random_uuid(), 'an.event', '{}') RETURNING seq"


def test_the_next_test_gets_the_last_ones_database_empty_under_a_new_name(run):
    first = run.new("pinbid_content")
    with psycopg.connect(first, autocommit=True) as conn:
        assert [conn.execute(INSERT_EVENT).fetchone()[0] for _ in range(3)] == [1, 2, 3]
    run.release_made_in_background()

    second = run.new("pinbid_content")
    assert second != first and len(run.templates) == 1
    with psycopg.connect(second) as conn:
        assert conn.execute("SELECT count(*) FROM outbox").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM alembic_version").fetchone() == (1,)
        assert conn.execute(INSERT_EVENT).fetchone() == (1,)  # its numbering starts again
    with pytest.raises(psycopg.OperationalError, match="does not exist"):
        psycopg.connect(first).close()  # whoever kept the old name cannot reach the next test's rows


def test_a_shared_database_outlives_the_tests_and_is_recycled_when_released(run):
    shared = run.new_shared("pinbid_content")
    with psycopg.connect(shared, autocommit=True) as conn:
        assert conn.execute(INSERT_EVENT).fetchone() == (1,)
    run.release_made_in_background()  # a test of the module ends: the shared database stays as it is
    with psycopg.connect(shared) as conn:
        assert conn.execute("SELECT count(*) FROM outbox").fetchone() == (1,)

    run.release_shared(shared)
    after = run.new("pinbid_content")  # the shared one, emptied under a new name
    assert after != shared and run.shared == {} and len(run.templates) == 1
    with psycopg.connect(after) as conn:
        assert conn.execute("SELECT count(*) FROM outbox").fetchone() == (0,)
    with pytest.raises(psycopg.OperationalError, match="does not exist"):
        psycopg.connect(shared).close()


@pytest.mark.parametrize("change", [
    "ALTER TABLE outbox ADD COLUMN extra text",
    "CREATE INDEX outbox_by_type ON outbox (type)",
    "DROP TABLE inbox",
    "UPDATE alembic_version SET version_num = 'elsewhere'",
    "CREATE FUNCTION one() RETURNS int LANGUAGE sql AS 'SELECT 1'",
    "ANALYZE outbox",
    "CREATE SEQUENCE standing_numbers",
    "ALTER DATABASE {database} SET work_mem = '8MB'",
])
def test_a_database_that_no_longer_looks_like_a_clone_is_dropped_not_reused(run_of_the_module, postgres_url, change):
    run = run_of_the_module
    url = run.new("pinbid_content")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(INSERT_EVENT)
        conn.execute(change.format(database=f'"{url.rsplit("/", 1)[1]}"'))
    run.release_made_in_background()

    fresh = run.new("pinbid_content")
    mine = {name for name in names(postgres_url) if name.startswith(run.prefix)}
    assert mine == {run.templates["pinbid_content"], fresh.rsplit("/", 1)[1]}  # the changed one is gone
    template = f"{postgres_url}/{run.templates['pinbid_content']}"
    with psycopg.connect(fresh) as conn, psycopg.connect(template) as original:
        assert recycling.fingerprint(conn) == recycling.fingerprint(original)
        assert conn.execute("SELECT count(*) FROM outbox").fetchone() == (0,)
    run.release_made_in_background()


def test_a_session_left_open_by_the_last_test_is_ended(run):
    first = run.new("pinbid_content")
    left_open = psycopg.connect(first, autocommit=True)
    left_open.execute("BEGIN")
    left_open.execute(INSERT_EVENT)
    run.release_made_in_background()
    with psycopg.connect(run.new("pinbid_content")) as conn:
        assert conn.execute("SELECT count(*) FROM outbox").fetchone() == (0,)
    with pytest.raises(psycopg.OperationalError):
        left_open.execute("COMMIT")
    left_open.close()


def test_what_a_dead_run_left_is_dropped_and_what_a_live_one_has_is_kept(postgres_url):
    dead, alive = f"{run_prefix(a_dead_pid())}content_0", f"{run_prefix(os.getppid())}content_0"
    with psycopg.connect(f"{postgres_url}/postgres", autocommit=True) as conn:
        for name in (dead, alive):
            conn.execute(f'CREATE DATABASE "{name}"')
    try:
        RunDatabases(postgres_url).drop_leftovers_of_dead_runs()
        assert dead not in names(postgres_url) and alive in names(postgres_url)
    finally:
        with psycopg.connect(f"{postgres_url}/postgres", autocommit=True) as conn:
            for name in (dead, alive):
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_database_that_cannot_be_taken_back_does_not_break_the_next_test(run, postgres_url):
    gone = run.new("pinbid_content").rsplit("/", 1)[1]
    with psycopg.connect(f"{postgres_url}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE "{gone}"')  # the test took it away itself
    run.release_made_in_background()
    with psycopg.connect(run.new("pinbid_content")) as conn:
        assert conn.execute("SELECT count(*) FROM outbox").fetchone() == (0,)


def test_with_a_spare_a_test_takes_a_database_emptied_while_an_earlier_one_ran(postgres_url, monkeypatch):
    run = RunDatabases(postgres_url, spares=1)
    emptied = threading.Event()  # holds every emptying until the test lets it go
    recycle = run._recycle
    monkeypatch.setattr(run, "_recycle", lambda name, package: emptied.wait(30) and recycle(name, package))
    try:
        first = run.new("pinbid_content").rsplit("/", 1)[1]
        run.release_made_in_background()
        second = run.new("pinbid_content").rsplit("/", 1)[1]  # the first is still being emptied: a clone, no wait
        assert second != first and {first, second} <= names(postgres_url)
        run.release_made_in_background()

        emptied.set()  # the spare is made: from now on the oldest emptying is waited for
        third = run.new("pinbid_content").rsplit("/", 1)[1]
        assert third not in (first, second) and first not in names(postgres_url)  # the first's, renamed
        with psycopg.connect(f"{postgres_url}/{third}") as conn:
            assert conn.execute("SELECT count(*) FROM outbox").fetchone() == (0,)
        mine = {name for name in names(postgres_url) if name.startswith(run.prefix)}
        assert len(mine) == 3  # the template, the third test's and the second's (being emptied): one spare
    finally:
        emptied.set()
        run.drop_all()
