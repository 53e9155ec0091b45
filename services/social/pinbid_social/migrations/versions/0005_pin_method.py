"""how a creator pins: SESSION (Pinbid pins through the creator's Instagram login) or MANUAL (the creator pins in
the Instagram app and presses "I pinned it"; Pinbid checks through the official API)

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25 02:40:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("connections", sa.Column("pin_method", sa.String(10), nullable=False, server_default="SESSION"))
    op.create_check_constraint("pin_method", "connections", "pin_method IN ('SESSION', 'MANUAL')")


def downgrade() -> None:
    op.drop_constraint("pin_method", "connections", type_="check")
    op.drop_column("connections", "pin_method")
