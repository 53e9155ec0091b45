"""a short link's target changed after its comment was pinned, recorded for operators

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26 11:00:00.000000
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import UUID

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "link_target_changes",
        sa.Column("id", UUID(as_uuid=True), primary_key=True),
        sa.Column("bid_id", UUID(as_uuid=True), nullable=False),
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("buyer_id", UUID(as_uuid=True), nullable=False),
        sa.Column("creator_id", UUID(as_uuid=True), nullable=False),
        sa.Column("from_url", sa.Text(), nullable=False),
        sa.Column("to_url", sa.Text(), nullable=False),
        sa.Column("pinned_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_link_target_changes_bid_id", "link_target_changes", ["bid_id"])
    op.create_index("link_target_changes_recent", "link_target_changes", [sa.text("changed_at DESC")])


def downgrade() -> None:
    op.drop_table("link_target_changes")
