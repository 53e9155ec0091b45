"""trigram index for article search

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 03:00:00
"""

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # pg_trgm is a trusted extension (PostgreSQL 13+): a database owner may create it without superuser
    op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    op.execute("CREATE INDEX articles_search_trgm ON articles USING gin (search_text gin_trgm_ops)")


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS articles_search_trgm")
