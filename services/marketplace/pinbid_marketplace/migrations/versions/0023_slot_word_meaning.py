"""the AI search box's ranking without re-reading text (issue 35): each slot's whole word vector (WordLlama's 256
dimensions, float16), NULL until made (at the slot's write, or by the search index's job for the slots before it);
the partial index of the open slots whose vectors are still to be made now counts it too; the index on `updated_at`
gains `id`, the order in which the search index reads changed slots a page at a time

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-28 01:30:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None

WITHOUT = "status = 'ACTIVE' AND (meaning IS NULL OR sentence_meaning IS NULL)"
WITHOUT_ANY = "status = 'ACTIVE' AND (meaning IS NULL OR word_meaning IS NULL OR sentence_meaning IS NULL)"


def upgrade() -> None:
    op.add_column("slots", sa.Column("word_meaning", sa.LargeBinary(), nullable=True))
    op.drop_index("slots_without_meaning", table_name="slots")
    op.create_index("slots_without_meaning", "slots", ["id"], postgresql_where=sa.text(WITHOUT_ANY))
    op.drop_index("slots_updated", table_name="slots")
    op.create_index("slots_updated", "slots", ["updated_at", "id"])


def downgrade() -> None:
    op.drop_index("slots_updated", table_name="slots")
    op.create_index("slots_updated", "slots", ["updated_at"])
    op.drop_index("slots_without_meaning", table_name="slots")
    op.create_index("slots_without_meaning", "slots", ["id"], postgresql_where=sa.text(WITHOUT))
    op.drop_column("slots", "word_meaning")
