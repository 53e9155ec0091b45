"""when social read the comment a bid names (issue 30): until then the creator is not shown the text and author
the brand's client claimed, and cannot approve it; bids that already name a comment count as read

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27 12:10:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("bids", sa.Column("comment_read_at", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE bids SET comment_read_at = updated_at WHERE comment_id IS NOT NULL")


def downgrade() -> None:
    op.drop_column("bids", "comment_read_at")
