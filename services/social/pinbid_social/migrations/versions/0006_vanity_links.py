"""vanity links: a short code per placement that redirects to the brand's page (with UTM parameters) and counts the
people who follow it, by hour; the visitors seen (a hash, never an address) to leave out repeats within a minute;
and each placement's figures over time

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25 02:45:00.000000
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "vanity_links",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("bid_id", postgresql.UUID(as_uuid=True), nullable=False, unique=True),
        sa.Column("buyer_id", postgresql.UUID(as_uuid=True), nullable=False),
        sa.Column("destination", sa.Text(), nullable=False),
        sa.Column("promo_code", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "link_visitors",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("visitor", sa.String(64), primary_key=True),
        sa.Column("counted_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "link_clicks",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("hour", sa.DateTime(timezone=True), primary_key=True),
        sa.Column("clicks", sa.Integer(), nullable=False),
    )
    op.create_table(
        "placement_figures",
        sa.Column("bid_id", postgresql.UUID(as_uuid=True), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), primary_key=True),
        sa.Column("likes", sa.Integer(), nullable=False),
        sa.Column("replies", sa.Integer(), nullable=False),
    )
    op.add_column("placements", sa.Column("clicks", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    op.drop_column("placements", "clicks")
    for table in ("placement_figures", "link_clicks", "link_visitors", "vanity_links"):
        op.drop_table(table)
