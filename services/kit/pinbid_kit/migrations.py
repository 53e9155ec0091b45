"""Alembic per service, driven from code: `upgrade(url, package)` migrates a service's database.
Each service's migrations/env.py calls `run_env(metadata)`; its migrations create the kit's own tables with
`create_messaging_tables()` and `create_revocations_table()`, never restating them.
`python -m pinbid_kit.migration_check` migrates a fresh database per service and compares it with its models."""

from importlib import resources

import psycopg
from alembic import command, context, op
from alembic.config import Config
from sqlalchemy import MetaData, create_engine, pool, text

from .db import async_url
from .revocations import add_revocations_table
from .tables import add_messaging_tables

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
            context.configure(connection=connection, target_metadata=metadata, compare_type=True)
            with context.begin_transaction():
                context.run_migrations()
            connection.commit()  # before the unlock: the replica waiting for the lock must see the new schema
        except BaseException:
            connection.rollback()
            raise
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": MIGRATION_LOCK})
            connection.commit()


# The kit's tables, defined once (tables.py, revocations.py) and created in every service's database by its
# migrations through the helpers below. They create the tables as defined now: a change to one of them is a new
# migration in every service (a helper here for the change), made while their first migrations still create the
# shape that change starts from.
KIT_TABLES = MetaData()
add_messaging_tables(KIT_TABLES)
add_revocations_table(KIT_TABLES)
MESSAGING_TABLES = ("outbox", "inbox", "mail_queue")
REVOCATIONS_TABLE = "token_revocations"


def _kit_tables(names: tuple[str, ...]) -> list:
    return [KIT_TABLES.tables[name] for name in names]


def create_messaging_tables() -> None:
    """In a service's first migration: the outbox, the inbox and the mail queue, with their indexes."""
    KIT_TABLES.create_all(op.get_bind(), tables=_kit_tables(MESSAGING_TABLES), checkfirst=False)


def drop_messaging_tables() -> None:
    KIT_TABLES.drop_all(op.get_bind(), tables=_kit_tables(MESSAGING_TABLES), checkfirst=False)


def create_revocations_table() -> None:
    """In the migration of a service that verifies tokens and keeps what identity revoked (revocations.py)."""
    KIT_TABLES.create_all(op.get_bind(), tables=_kit_tables((REVOCATIONS_TABLE,)), checkfirst=False)


def drop_revocations_table() -> None:
    KIT_TABLES.drop_all(op.get_bind(), tables=_kit_tables((REVOCATIONS_TABLE,)), checkfirst=False)
