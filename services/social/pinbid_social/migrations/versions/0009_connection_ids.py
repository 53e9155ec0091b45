"""each completed Instagram connection gets its own id, renewed on every (re)connection: the sandbox's owner cookie
names it and ends with it (issue 30)

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27 11:00:00.000000
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("connections", sa.Column("connection_id", postgresql.UUID(as_uuid=True), nullable=False,
                                           server_default=sa.text("gen_random_uuid()")))


def downgrade() -> None:
    op.drop_column("connections", "connection_id")
