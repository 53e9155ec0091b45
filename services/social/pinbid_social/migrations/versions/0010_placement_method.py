"""a placement's pin method is fixed when it is paid (issue 30): placements already waiting for their pin take the
creator's setting of now, or MANUAL where Pinbid already posted the comment for the creator to pin in the app

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27 11:00:00.000000
"""

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        UPDATE placements p SET pin_method = CASE
            WHEN p.posted_comment_id IS NOT NULL THEN 'MANUAL'
            ELSE COALESCE((SELECT c.pin_method FROM connections c WHERE c.user_id = p.creator_id), 'SESSION') END
        WHERE p.pin_method IS NULL AND p.status = 'AWAITING_PIN'""")


def downgrade() -> None:
    pass  # the method stays recorded; older code sets it again when the pin is made
