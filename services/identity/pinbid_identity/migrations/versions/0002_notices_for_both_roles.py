"""notices for both roles: a notice's link and unread index, mails coalesced per kind and topic, reminders

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 00:40:00.000000
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("notifications", sa.Column("link", sa.String(length=200), nullable=True))
    # the notices made before links existed point where today's notices of their kind do
    op.execute("""
        UPDATE notifications SET link = CASE kind
            WHEN 'bid.placed' THEN '/dashboard' WHEN 'auction.approve' THEN '/approvals'
            WHEN 'auction.unsold' THEN '/post-manager' WHEN 'payment.completed' THEN '/approvals'
            WHEN 'payout.paid' THEN '/earnings' ELSE '/my-bids' END
        WHERE kind IN ('bid.placed', 'bid.outbid', 'auction.won', 'auction.approve', 'auction.unsold',
                       'payment.requested', 'bid.rejected', 'payment.completed', 'payout.paid')
    """)
    op.create_index("notifications_user_unread", "notifications", ["user_id"],
                    postgresql_where=sa.text("read_at IS NULL"))
    op.create_table(
        "notice_mails",
        sa.Column("id", sa.BigInteger(), sa.Identity(), primary_key=True),
        sa.Column("user_id", postgresql.UUID(as_uuid=True), sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("topic", postgresql.UUID(as_uuid=True), nullable=False),
        sa.Column("to_address", sa.String(length=320), nullable=False),
        sa.Column("subject", sa.String(length=300), nullable=False),
        sa.Column("text_body", sa.Text(), nullable=False),
        sa.Column("html_body", sa.Text(), nullable=False),
        sa.Column("notices", sa.Integer(), server_default="1", nullable=False),
        sa.Column("send_after", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
    )
    op.create_index("notice_mails_pending", "notice_mails", ["user_id", "kind", "topic"], unique=True,
                    postgresql_where=sa.text("sent_at IS NULL"))
    op.create_index("notice_mails_due", "notice_mails", ["next_attempt_at"], postgresql_where=sa.text("sent_at IS NULL"))
    op.create_index("notice_mails_history", "notice_mails", ["user_id", "kind", "topic", "send_after"])
    op.create_table(
        "reminders",
        sa.Column("id", postgresql.UUID(as_uuid=True), primary_key=True),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("subject_id", postgresql.UUID(as_uuid=True), nullable=False),
        sa.Column("user_id", postgresql.UUID(as_uuid=True), sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=True),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closes_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("amount_cents", sa.BigInteger(), nullable=True),
        sa.Column("currency", sa.String(length=3), nullable=True),
        sa.Column("fired_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("cancelled_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("kind", "subject_id", name="reminders_kind_subject"),
    )
    op.create_index("reminders_due", "reminders", ["due_at"],
                    postgresql_where=sa.text("fired_at IS NULL AND cancelled_at IS NULL"))


def downgrade() -> None:
    op.drop_table("reminders")
    op.drop_table("notice_mails")
    op.drop_index("notifications_user_unread", table_name="notifications")
    op.drop_column("notifications", "link")
