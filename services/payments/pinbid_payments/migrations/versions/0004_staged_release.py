"""the creator's share released in stages as the comment stays pinned, and the unearned share refunded when it
ends early

`earning_releases` holds each stage (a quarter at pin, then per whole day kept, the remainder at completion); a
payout pays releases, not whole earnings. Earnings released whole under the old rule get one release each, with
the payout that paid them, so payouts, refunds and a failed payout's reversal read one model.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25 02:45:00.000000
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("earnings", sa.Column("released_cents", sa.BigInteger(), nullable=False, server_default="0"))
    op.add_column("earnings", sa.Column("refunded_cents", sa.BigInteger(), nullable=False, server_default="0"))
    op.drop_constraint("earning_status", "earnings", type_="check")
    op.create_check_constraint(
        "earning_status", "earnings", "status IN ('PENDING', 'RELEASING', 'AVAILABLE', 'ENDED_EARLY', 'REFUNDED')")
    op.create_check_constraint("earning_shares", "earnings",
                               "released_cents >= 0 AND refunded_cents >= 0 AND released_cents + refunded_cents "
                               "<= net_cents")
    op.add_column("payments", sa.Column("ended_early_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("payments", sa.Column("early_end_reason", sa.String(20), nullable=True))
    op.add_column("payments", sa.Column("early_refund_cents", sa.BigInteger(), nullable=True))
    op.add_column("payments", sa.Column("early_refund_attempts", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("payments", sa.Column("early_refund_next_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("payments", sa.Column("early_refunded_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("payments_early_refund_due", "payments", ["early_refund_next_at"],
                    postgresql_where=sa.text("early_refund_next_at IS NOT NULL AND early_refunded_at IS NULL"))
    op.create_table(
        "earning_releases",
        sa.Column("payment_id", postgresql.UUID(as_uuid=True), sa.ForeignKey("payments.id"), nullable=False),
        sa.Column("stage", sa.Integer(), nullable=False),  # 0 at pin, n for day n, the duration at completion
        sa.Column("creator_id", postgresql.UUID(as_uuid=True), nullable=False),
        sa.Column("cents", sa.BigInteger(), nullable=False),
        sa.Column("fee_cents", sa.BigInteger(), nullable=False),  # the platform's fee on this share, for payouts
        sa.Column("released_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("payout_id", postgresql.UUID(as_uuid=True), sa.ForeignKey("payouts.id"), nullable=True),
        sa.PrimaryKeyConstraint("payment_id", "stage"),
        sa.CheckConstraint("cents > 0", name="release_moves_money"),
    )
    op.create_index("earning_releases_unpaid", "earning_releases", ["creator_id", "released_at"],
                    postgresql_where=sa.text("payout_id IS NULL"))
    op.create_index("earning_releases_payout", "earning_releases", ["payout_id"])
    op.add_column("sandbox_checkouts", sa.Column("amount_refunded_cents", sa.BigInteger(), nullable=False,
                                                 server_default="0"))
    op.execute("UPDATE sandbox_checkouts SET amount_refunded_cents = amount_cents WHERE refunded")
    op.create_table(
        "sandbox_refunds",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("payment_intent", sa.String(64), nullable=False),
        sa.Column("amount_cents", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    )
    op.execute("""
        INSERT INTO earning_releases (payment_id, stage, creator_id, cents, fee_cents, released_at, payout_id)
        SELECT payment_id, 0, creator_id, net_cents, fee_cents, available_at, payout_id FROM earnings
        WHERE available_at IS NOT NULL AND (status <> 'REFUNDED' OR payout_id IS NOT NULL)""")
    op.execute("UPDATE earnings SET released_cents = net_cents WHERE available_at IS NOT NULL "
               "AND status <> 'REFUNDED'")


def downgrade() -> None:
    op.drop_table("sandbox_refunds")
    op.drop_column("sandbox_checkouts", "amount_refunded_cents")
    op.drop_table("earning_releases")
    op.drop_index("payments_early_refund_due", table_name="payments")
    for column in ("early_refunded_at", "early_refund_next_at", "early_refund_attempts", "early_refund_cents",
                   "early_end_reason", "ended_early_at"):
        op.drop_column("payments", column)
    op.drop_constraint("earning_shares", "earnings", type_="check")
    op.drop_constraint("earning_status", "earnings", type_="check")
    op.create_check_constraint("earning_status", "earnings", "status IN ('PENDING', 'AVAILABLE', 'REFUNDED')")
    op.drop_column("earnings", "refunded_cents")
    op.drop_column("earnings", "released_cents")
