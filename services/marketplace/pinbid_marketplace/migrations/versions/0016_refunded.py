"""what the brand got back of its payment (issue 31): a refunded or ended placement shows what was paid and
refunded; bids refunded in full before count their whole final price as refunded

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28 09:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("bids", sa.Column("refunded", sa.Numeric(12, 2), server_default="0", nullable=False))
    op.execute("UPDATE bids SET refunded = final_price WHERE payment_status = 'REFUNDED' AND final_price IS NOT NULL")


def downgrade() -> None:
    op.drop_column("bids", "refunded")
