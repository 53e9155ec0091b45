"""a placement's bad readings in a row (judged broken on the second) and whole days kept; a sandbox comment can be
hidden by the post's owner, as on Instagram

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25 02:40:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("placements", sa.Column("misses", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("placements", sa.Column("days_kept", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("placements", sa.Column("unpin_reason", sa.String(20), nullable=True))
    op.add_column("sandbox_comments", sa.Column("hidden", sa.Boolean(), nullable=False, server_default="false"))


def downgrade() -> None:
    op.drop_column("sandbox_comments", "hidden")
    op.drop_column("placements", "unpin_reason")
    op.drop_column("placements", "days_kept")
    op.drop_column("placements", "misses")
