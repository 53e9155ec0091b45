"""associated accounts: the account signals other services announce, flags for operators, a bid's own raises,
and a dispute's refund outcome on the bid for the creator's record

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26 10:50:00.000000
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import ARRAY, UUID

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("bids", sa.Column("raises", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("bids", sa.Column("dispute_outcome", sa.String(20), nullable=True))
    op.create_table(
        "account_signals",
        sa.Column("user_id", UUID(as_uuid=True), primary_key=True),
        sa.Column("kind", sa.String(20), primary_key=True),
        sa.Column("value_hash", sa.String(64), primary_key=True),
        sa.Column("first_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("account_signals_by_value", "account_signals", ["kind", "value_hash", "user_id"])
    op.create_table(
        "flags",
        sa.Column("id", UUID(as_uuid=True), primary_key=True),
        sa.Column("user_id", UUID(as_uuid=True), nullable=False),
        sa.Column("creator_id", UUID(as_uuid=True), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("reasons", ARRAY(sa.Text()), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("cleared_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("cleared_by", UUID(as_uuid=True), nullable=True),
        sa.Column("clear_reason", sa.Text(), nullable=True),
    )
    op.create_index("flags_one_open", "flags", ["user_id", "creator_id"], unique=True,
                    postgresql_where=sa.text("status = 'OPEN'"))
    op.create_index("flags_by_status", "flags", ["status", sa.text("created_at DESC")])


def downgrade() -> None:
    op.drop_table("flags")
    op.drop_table("account_signals")
    op.drop_column("bids", "dispute_outcome")
    op.drop_column("bids", "raises")
