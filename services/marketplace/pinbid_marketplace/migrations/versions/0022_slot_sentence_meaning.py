"""the AI search box's second model (issue 35): each slot's sentence vector (all-MiniLM-L6-v2, 384 float16), NULL
until the search index's job makes it, and a partial index of the open slots whose vectors are still to be made

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-27 22:30:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("slots", sa.Column("sentence_meaning", sa.LargeBinary(), nullable=True))
    op.create_index("slots_without_meaning", "slots", ["id"],
                    postgresql_where=sa.text("status = 'ACTIVE' AND (meaning IS NULL OR sentence_meaning IS NULL)"))


def downgrade() -> None:
    op.drop_index("slots_without_meaning", table_name="slots")
    op.drop_column("slots", "sentence_meaning")
