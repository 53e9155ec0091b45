"""`python -m pinbid_launcher migrate NAME`: one service's Alembic migrations, then exit. Kubernetes runs it
as a Job per service with the migrator role (DDL rights); the service itself then starts with
MIGRATE_ON_START=false and a role without them."""

import logging

from pinbid_kit.migrations import upgrade
from sqlalchemy.engine import make_url

from . import services
from .failures import one_line_on_failure

log = logging.getLogger("pinbid.migrate")


def migrate(name: str) -> None:
    """Exits with status 1 and one line (what failed, on which database) instead of a stack trace."""
    module = services.get(name)
    settings = module.settings()
    database = make_url(settings.database_url).render_as_string(hide_password=True)
    with one_line_on_failure(f"Migrating {name} on {database} failed"):
        upgrade(settings.database_url, module.package)
    print(f"{name}: migrations applied on {database}")
