"""the AI search box (issue 35): each slot's vector of meaning (`meaning`, the model's first 64 dimensions as
float16, 128 bytes; made when the slot is created, again when its post's caption changes, NULL until then), and an
index on `updated_at` through which every marketplace process keeps its in-memory search index current

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-27 17:30:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("slots", sa.Column("meaning", sa.LargeBinary(), nullable=True))
    op.create_index("slots_updated", "slots", ["updated_at"])


def downgrade() -> None:
    op.drop_index("slots_updated", table_name="slots")
    op.drop_column("slots", "meaning")
