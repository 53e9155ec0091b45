"""the exact comment text the creator approved, with when (the audit trail of what is posted or pinned)

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25 02:15:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("bids", sa.Column("approved_text", sa.Text(), nullable=True))
    op.add_column("bids", sa.Column("approved_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("bids", "approved_at")
    op.drop_column("bids", "approved_text")
