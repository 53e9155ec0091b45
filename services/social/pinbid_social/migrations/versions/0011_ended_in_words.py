"""placements ended on an operator's decision say why in words, not as the outcome's code (issue 31)

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27 11:50:00.000000
"""

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

WORDS = {"REFUND_UNEARNED": "Ended after a review: the share not yet earned went back to the brand.",
         "REFUND_ALL": "Ended after a review: everything the brand paid went back to it."}


def upgrade() -> None:
    for outcome, words in WORDS.items():
        op.execute(f"UPDATE placements SET end_reason = '{words}' WHERE end_reason = 'Dispute decided: {outcome}'")


def downgrade() -> None:
    for outcome, words in WORDS.items():
        op.execute(f"UPDATE placements SET end_reason = 'Dispute decided: {outcome}' WHERE end_reason = '{words}'")
