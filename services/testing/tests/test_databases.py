"""Test databases: clones of one migrated template per package, named for their process, and dropped even when
the run that made them died."""

import os
import subprocess
import sys

import psycopg
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
    run.drop_made_in_background()
    assert run.made == []
    second = run.new().rsplit("/", 1)[1]
    run.drop_all()
    assert not {first, second} & names(postgres_url)


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
