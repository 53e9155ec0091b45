"""A database reached through a pooler in transaction mode (PgBouncer): each transaction may run on another
server connection, so nothing may outlive one. psycopg would prepare a statement run five times on the server
connection of that moment; the next transaction could land on a connection that never prepared it."""

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from .db import Database
from .settings import KitSettings


def without_prepared_statements(engine: AsyncEngine) -> None:
    """Every connection the engine opens from now on sends its statements unprepared."""

    def prepare_nothing(dbapi_connection, _record) -> None:
        dbapi_connection.driver_connection.prepare_threshold = None

    event.listen(engine.sync_engine, "connect", prepare_nothing, insert=True)


def fit_for_pooler(db: Database, settings: KitSettings) -> None:
    """What `<SERVICE>_DATABASE_POOLED` changes in a service's database access (its LISTEN URL is the relay's)."""
    if settings.database_pooled:
        without_prepared_statements(db.engine)
