"""token revocations: the versions identity revoked, which marketplace's token checks honour, kept in the kit's table
(revocations.py) so that a restart does not forget them

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 21:30:00.000000
"""

from pinbid_kit.migrations import create_revocations_table, drop_revocations_table

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    create_revocations_table()


def downgrade() -> None:
    drop_revocations_table()
