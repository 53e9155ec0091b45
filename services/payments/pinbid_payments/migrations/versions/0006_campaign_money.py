"""a campaign's money (issue 36): the campaign as marketplace announces it, with what was funded, drawn, returned
and reversed; each funding payment made through Checkout; the campaign a payment was drawn from

The balance is the ledger's account `campaign:<id>:balance` (normal side CREDIT: owed to the brand), kept by the
ledger's trigger like every other account.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27 19:30:00.000000
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

When = sa.DateTime(timezone=True)
Id = postgresql.UUID(as_uuid=True)


def _cents(name: str) -> sa.Column:
    return sa.Column(name, sa.BigInteger(), nullable=False, server_default="0")


def upgrade() -> None:
    op.create_table(
        "campaigns",
        sa.Column("id", Id, primary_key=True),
        sa.Column("buyer_id", Id, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("budget_cents", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("version", sa.BigInteger(), nullable=False),
        _cents("funded_cents"), _cents("drawn_cents"), _cents("returned_cents"), _cents("reversed_cents"),
        sa.Column("settled_at", When, nullable=True),
        sa.Column("return_attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("return_next_at", When, nullable=True),
        sa.Column("updated_at", When, nullable=False, server_default=sa.func.now()),
        sa.CheckConstraint("status IN ('DRAFT', 'ACTIVE', 'PAUSED', 'OUT_OF_BUDGET', 'ENDED')",
                           name="campaign_status"),
        sa.CheckConstraint("budget_cents >= 0 AND funded_cents >= 0 AND drawn_cents >= 0 AND returned_cents >= 0 "
                           "AND reversed_cents >= 0", name="campaign_amounts"),
    )
    op.create_index("campaigns_buyer", "campaigns", ["buyer_id"])
    op.create_index("campaigns_return_due", "campaigns", ["return_next_at"],
                    postgresql_where=sa.text("return_next_at IS NOT NULL"))
    op.create_table(
        "campaign_fundings",
        sa.Column("id", Id, primary_key=True),
        sa.Column("campaign_id", Id, sa.ForeignKey("campaigns.id"), nullable=False),
        sa.Column("buyer_id", Id, nullable=False),
        sa.Column("amount_cents", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("expires_at", When, nullable=False),
        sa.Column("provider_session_id", sa.String(255), nullable=True),
        sa.Column("url", sa.Text(), nullable=True),
        sa.Column("payment_intent", sa.String(255), nullable=True),
        _cents("returned_cents"), _cents("reversed_cents"), _cents("disputed_cents"),
        sa.Column("created_at", When, nullable=False, server_default=sa.func.now()),
        sa.Column("completed_at", When, nullable=True),
        sa.CheckConstraint("status IN ('OPEN', 'COMPLETED', 'EXPIRED')", name="funding_status"),
        sa.CheckConstraint("amount_cents > 0 AND returned_cents >= 0 AND reversed_cents >= 0 "
                           "AND returned_cents + reversed_cents <= amount_cents", name="funding_amounts"),
    )
    op.create_index("campaign_fundings_campaign", "campaign_fundings", ["campaign_id", "created_at"])
    op.create_index("ix_campaign_fundings_payment_intent", "campaign_fundings", ["payment_intent"])
    op.add_column("payments", sa.Column("campaign_id", Id, sa.ForeignKey("campaigns.id"), nullable=True))


def downgrade() -> None:
    op.drop_column("payments", "campaign_id")
    op.drop_table("campaign_fundings")
    op.drop_table("campaigns")
