"""when a winning bid was paid: the date of the creator's transaction (the bid's updated_at moves with every
sync of the pinned comment's likes, so it cannot tell when the money came); empty for the bids paid before, whose
payment date marketplace never kept

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26 11:10:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("bids", sa.Column("paid_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("bids", "paid_at")
