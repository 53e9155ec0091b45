"""Alembic per service, driven from code: `upgrade(url, package)` migrates a service's database.
Each service's migrations/env.py calls `run_env(metadata)`."""

from importlib import resources

import psycopg
from alembic import command, context
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
