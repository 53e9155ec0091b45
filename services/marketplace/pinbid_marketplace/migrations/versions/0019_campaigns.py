"""campaigns (issue 36): a brand's campaign, the slots each campaign has bid on (at most once a slot), the campaign a
bid was placed for, and the second-chance offer's deadline on a runner-up's bid

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-27 19:40:00.000000
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB, UUID

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "campaigns",
        sa.Column("id", UUID(as_uuid=True), primary_key=True),
        sa.Column("buyer_id", UUID(as_uuid=True), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("reason", sa.String(30), nullable=True),
        sa.Column("filters", JSONB(), nullable=False),
        sa.Column("ask", sa.Text(), nullable=True),
        sa.Column("budget", sa.Numeric(12, 2), nullable=False),
        sa.Column("max_per_slot", sa.Numeric(12, 2), nullable=False),
        sa.Column("funded", sa.Numeric(12, 2), nullable=False, server_default="0"),
        sa.Column("comment_text", sa.Text(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.BigInteger(), nullable=False, server_default="0"),
        sa.Column("settled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    op.create_index("campaigns_buyer_recent", "campaigns", ["buyer_id", sa.text("created_at DESC")])
    op.create_index("campaigns_bidding", "campaigns", ["ends_at"], postgresql_where=sa.text("status = 'ACTIVE'"))
    op.create_table(
        "campaign_slots",
        sa.Column("campaign_id", UUID(as_uuid=True), sa.ForeignKey("campaigns.id"), primary_key=True),
        sa.Column("slot_id", UUID(as_uuid=True), sa.ForeignKey("slots.id"), primary_key=True),
        sa.Column("bid_id", UUID(as_uuid=True), nullable=True),
        sa.Column("outcome", sa.String(20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    op.add_column("bids", sa.Column("campaign_id", UUID(as_uuid=True), nullable=True))
    op.create_index("bids_campaign", "bids", ["campaign_id", "status"],
                    postgresql_where=sa.text("campaign_id IS NOT NULL"))
    op.add_column("bids", sa.Column("offer_expires_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("bids", "offer_expires_at")
    op.drop_index("bids_campaign", table_name="bids")
    op.drop_column("bids", "campaign_id")
    op.drop_table("campaign_slots")
    op.drop_table("campaigns")
