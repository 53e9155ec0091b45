"""a slot's brands in the running (issue 31): `bidder_count`, the number screens show as its bids and bidders,
beside `bid_count` (accepted bid actions, the slot's bid order). Filled from the bids: one per brand whose bid was
not cancelled or withdrawn (live ones while the auction runs, the ones that stood at its close)

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-27 13:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("slots", sa.Column("bidder_count", sa.Integer(), server_default="0", nullable=False))
    op.execute("""
        UPDATE slots SET bidder_count = counted.n
        FROM (SELECT slot_id, count(DISTINCT buyer_id) AS n FROM bids WHERE status <> 'CANCELLED' GROUP BY slot_id)
             AS counted
        WHERE counted.slot_id = slots.id
    """)


def downgrade() -> None:
    op.drop_column("slots", "bidder_count")
