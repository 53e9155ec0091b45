"""Alembic per service, driven from code: `upgrade(url, package)` migrates a service's database.
Each service's migrations/env.py calls `run_env(metadata)`; its migrations create the kit's own tables with
`create_messaging_tables()` and `create_revocations_table()`, the released steps in kit_migrations/.
`python -m pinbid_kit.migration_check` migrates a fresh database per service and compares it with its models."""

from importlib import resources

import psycopg
from alembic import command, context, op
from alembic.config import Config
from sqlalchemy import MetaData, create_engine, pool, text

from .db import async_url

MIGRATION_LOCK = 724_001  # advisory lock key: replicas starting together migrate one at a time


def ensure_database(url: str) -> None:
    """Create the service's database on its server when it is missing."""
    from sqlalchemy.engine import make_url

    target = make_url(async_url(url))
    admin = target.set(database="postgres", drivername="postgresql")
    dsn = admin.render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (target.database,)).fetchone()
        if not exists:
            try:
                conn.execute(f'CREATE DATABASE "{target.database}"')
            except (psycopg.errors.DuplicateDatabase, psycopg.errors.UniqueViolation):
                pass  # a replica starting at the same moment made it first


def alembic_config(url: str, package: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(resources.files(package) / "migrations"))
    config.set_main_option("sqlalchemy.url", async_url(url).replace("%", "%%"))
    return config


def upgrade(url: str, package: str, revision: str = "head") -> None:
    ensure_database(url)
    command.upgrade(alembic_config(url, package), revision)


def run_env(metadata: MetaData) -> None:
    """The body of every service's migrations/env.py (online mode only)."""
    url = context.config.get_main_option("sqlalchemy.url")
    engine = create_engine(url, poolclass=pool.NullPool)
    with engine.connect() as connection:
        connection.execute(text("SELECT pg_advisory_lock(:k)"), {"k": MIGRATION_LOCK})
        try:
            context.configure(connection=connection, target_metadata=metadata, compare_type=True,
                              compare_server_default=True)
            with context.begin_transaction():
                context.run_migrations()
            connection.commit()  # before the unlock: the replica waiting for the lock must see the new schema
        except BaseException:
            connection.rollback()
            raise
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": MIGRATION_LOCK})
            connection.commit()


# The kit's tables (tables.py, revocations.py) reach every service's database through released steps, never
# "as defined now": each step is a frozen SQL file in kit_migrations/ (`messaging_0001.sql`, ...) that a service's
# migration runs with `run_kit_step`. A change to a kit table is a new step file and a new migration in every
# service that runs it; without them `python -m pinbid_kit.migration_check` finds the service's migrated database
# differing from its models, whose kit tables are the current definitions. Shipped steps, like shipped migrations,
# are never edited (tests/test_migrations_released.py).
KIT_STEPS = "kit_migrations"
MESSAGING_TABLES = ("outbox", "inbox", "mail_queue")
REVOCATIONS_TABLE = "token_revocations"


def kit_step_statements(step: str) -> list[str]:
    """The statements of the released step `kit_migrations/<step>.sql` (its comment lines left out)."""
    text = (resources.files(__package__) / KIT_STEPS / f"{step}.sql").read_text()
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("--"))
    return [statement.strip() for statement in body.split(";") if statement.strip()]


def run_kit_step(step: str) -> None:
    """In a service's migration: one released step of the kit's tables."""
    for statement in kit_step_statements(step):
        op.execute(statement)


def _drop(names: tuple[str, ...]) -> None:
    for name in names:
        op.drop_table(name)


def create_messaging_tables() -> None:
    """In a service's first migration: the outbox, the inbox and the mail queue, with their indexes, as first
    released (step `messaging_0001`)."""
    run_kit_step("messaging_0001")


def drop_messaging_tables() -> None:
    _drop(MESSAGING_TABLES)


def create_revocations_table() -> None:
    """In the migration of a service that verifies tokens and keeps what identity revoked (revocations.py), as
    first released (step `revocations_0001`)."""
    run_kit_step("revocations_0001")


def drop_revocations_table() -> None:
    _drop((REVOCATIONS_TABLE,))
