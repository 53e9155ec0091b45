"""a creator's reliability record: when each winning bid was decided and by when its comment had to be pinned
(with the pin and its outcome, already kept), and the record's figures copied onto the creator's open slots for
the listing's filter and sort

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25 03:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

OPEN = "status = 'ACTIVE'"


def upgrade() -> None:
    op.add_column("bids", sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("bids", sa.Column("pin_deadline_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("slots", sa.Column("creator_placements", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("slots", sa.Column("creator_kept_pct", sa.SmallInteger(), nullable=True))
    op.add_column("slots", sa.Column("creator_response_minutes", sa.Integer(), nullable=True))
    op.create_index("slots_open_reliable", "slots", [sa.text("creator_kept_pct DESC NULLS LAST"),
                                                     sa.text("creator_placements DESC"), "id"],
                    postgresql_where=sa.text(OPEN),
                    postgresql_include=["auction_end", "category", "price", "avg_views", "verified"])


def downgrade() -> None:
    op.drop_index("slots_open_reliable", table_name="slots")
    for column in ("creator_response_minutes", "creator_kept_pct", "creator_placements"):
        op.drop_column("slots", column)
    op.drop_column("bids", "pin_deadline_at")
    op.drop_column("bids", "decided_at")
