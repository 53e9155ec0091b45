"""campaigns (issue 36): the last version of each campaign identity heard of, to name it in notices and to tell only
a change of its status (out of budget, ended)

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27 19:40:00.000000
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import UUID

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "campaigns_seen",
        sa.Column("campaign_id", UUID(as_uuid=True), primary_key=True),
        sa.Column("buyer_id", UUID(as_uuid=True), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("version", sa.BigInteger(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("campaigns_seen")
