"""releases held while a placement awaits the brand's acceptance or is disputed, full refunds ordered by an
operator or a dispute, and money a creator owes after a refund of released money already paid out

`payments` remembers the acceptance, the days kept and the completion seen while releases are held, and a
full refund ordered; `payment_disputes` keeps each dispute (OPEN holds releases); `earning_releases.recovered_cents`
is the part of a release that paid back owed money; `creator_recoveries` records each amount owed and recovered.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26 10:45:00.000000
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

When = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.add_column("payments", sa.Column("awaits_acceptance", sa.Boolean(), nullable=False, server_default="false"))
    op.add_column("payments", sa.Column("accepted_at", When, nullable=True))
    op.add_column("payments", sa.Column("days_kept", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("payments", sa.Column("duration_days", sa.Integer(), nullable=True))
    op.add_column("payments", sa.Column("placement_completed_at", When, nullable=True))
    op.add_column("payments", sa.Column("full_refund_requested_at", When, nullable=True))
    op.add_column("payments", sa.Column("full_refund_reason", sa.String(100), nullable=True))
    op.add_column("payments", sa.Column("full_refund_attempts", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("payments", sa.Column("full_refund_next_at", When, nullable=True))
    op.create_index("payments_creator", "payments", ["creator_id"])
    op.create_index("payments_full_refund_due", "payments", ["full_refund_next_at"],
                    postgresql_where=sa.text("full_refund_next_at IS NOT NULL"))
    op.add_column("earning_releases", sa.Column("recovered_cents", sa.BigInteger(), nullable=False,
                                                server_default="0"))
    op.create_check_constraint("release_recovered_share", "earning_releases",
                               "recovered_cents >= 0 AND recovered_cents <= cents")
    op.create_table(
        "payment_disputes",
        sa.Column("dispute_id", postgresql.UUID(as_uuid=True), primary_key=True),
        sa.Column("payment_id", postgresql.UUID(as_uuid=True), sa.ForeignKey("payments.id"), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("outcome", sa.String(20), nullable=True),
        sa.Column("reported_at", When, nullable=True),
        sa.Column("decided_at", When, nullable=True),
        sa.Column("settled_at", When, nullable=True),
        sa.CheckConstraint("status IN ('OPEN', 'DECIDED')", name="dispute_status"),
        sa.CheckConstraint("outcome IS NULL OR outcome IN ('CONTINUE', 'REFUND_UNEARNED', 'REFUND_ALL')",
                           name="dispute_outcome"),
    )
    op.create_index("payment_disputes_payment", "payment_disputes", ["payment_id"])
    op.create_table(
        "creator_recoveries",
        sa.Column("id", postgresql.UUID(as_uuid=True), primary_key=True),
        sa.Column("creator_id", postgresql.UUID(as_uuid=True), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("cents", sa.BigInteger(), nullable=False),
        sa.Column("owed_after_cents", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("refunded_payment_id", postgresql.UUID(as_uuid=True), sa.ForeignKey("payments.id"),
                  nullable=True),
        sa.Column("transaction_id", postgresql.UUID(as_uuid=True), sa.ForeignKey("ledger_transactions.id"),
                  nullable=False),
        sa.Column("recorded_at", When, nullable=False),
        sa.CheckConstraint("kind IN ('OWED', 'RECOVERED')", name="recovery_kind"),
        sa.CheckConstraint("cents > 0 AND owed_after_cents >= 0", name="recovery_amounts"),
    )
    op.create_index("creator_recoveries_creator", "creator_recoveries", ["creator_id", "recorded_at"])


def downgrade() -> None:
    op.drop_table("creator_recoveries")
    op.drop_table("payment_disputes")
    op.drop_constraint("release_recovered_share", "earning_releases", type_="check")
    op.drop_column("earning_releases", "recovered_cents")
    op.drop_index("payments_full_refund_due", table_name="payments")
    op.drop_index("payments_creator", table_name="payments")
    for column in ("full_refund_next_at", "full_refund_attempts", "full_refund_reason", "full_refund_requested_at",
                   "placement_completed_at", "duration_days", "days_kept", "accepted_at", "awaits_acceptance"):
        op.drop_column("payments", column)
