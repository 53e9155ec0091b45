"""the brands still in the running on a slot, as marketplace announces it (issue 31: withdrawn bids are not counted)

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27 12:10:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("slots", sa.Column("bidder_count", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("slots", "bidder_count")
