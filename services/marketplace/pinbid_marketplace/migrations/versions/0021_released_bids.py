"""second chance (issue 36): a campaign's bid cancelled by the campaign because it was outbid (to free its ceiling)
is marked, so it stays eligible as the runner-up; a bid the brand cancelled itself does not

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-27 22:10:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("bids", sa.Column("released_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("bids", "released_at")
