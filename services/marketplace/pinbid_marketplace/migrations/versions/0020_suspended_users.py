"""second chance (issue 36): marketplace keeps which users are suspended (identity.user.suspended / restored), so a
suspended brand is never offered a slot nor takes one

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-27 19:30:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("suspended_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("users", "suspended_at")
