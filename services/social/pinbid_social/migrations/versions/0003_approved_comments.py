"""the comment text the creator approved for a bid (marketplace.bid.comment_approved): what is posted or pinned

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25 02:30:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("bid_comments", sa.Column("approved_comment_id", sa.String(64), nullable=True))
    op.add_column("bid_comments", sa.Column("approved_text", sa.Text(), nullable=True))
    op.add_column("bid_comments", sa.Column("approved_at", sa.DateTime(timezone=True), nullable=True))
    op.alter_column("bid_comments", "changed_at", nullable=True)


def downgrade() -> None:
    op.alter_column("bid_comments", "changed_at", nullable=False)
    op.drop_column("bid_comments", "approved_at")
    op.drop_column("bid_comments", "approved_text")
    op.drop_column("bid_comments", "approved_comment_id")
