"""trust (issue 22): the brand's acceptance, the random fresh-screenshot request and the end on a refund on
placements; screenshots as evidence; disputes (one open per placement) with their history

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26 10:45:00.000000
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

Stamp = sa.DateTime(timezone=True)
PLACEMENT_COLUMNS = [
    sa.Column("price_cents", sa.BigInteger(), nullable=True),
    sa.Column("pin_method", sa.String(10), nullable=True),
    sa.Column("acceptance", sa.String(12), nullable=False, server_default="NOT_NEEDED"),
    sa.Column("accept_by", Stamp, nullable=True),
    sa.Column("accepted_at", Stamp, nullable=True),
    sa.Column("accepted_by", sa.String(10), nullable=True),
    sa.Column("recheck_at", Stamp, nullable=True),
    sa.Column("recheck_requested_at", Stamp, nullable=True),
    sa.Column("recheck_answer_by", Stamp, nullable=True),
    sa.Column("recheck_answered_at", Stamp, nullable=True),
    sa.Column("recheck_missed_at", Stamp, nullable=True),
    sa.Column("ended_at", Stamp, nullable=True),
    sa.Column("end_reason", sa.String(200), nullable=True),
    sa.Column("unpin_pending", sa.Boolean(), nullable=False, server_default="false"),
]


def upgrade() -> None:
    for column in PLACEMENT_COLUMNS:
        op.add_column("placements", column)
    op.create_table(
        "evidence",
        sa.Column("id", postgresql.UUID(as_uuid=True), primary_key=True),
        sa.Column("bid_id", postgresql.UUID(as_uuid=True), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("object_key", sa.String(200), nullable=False),
        sa.Column("content_type", sa.String(40), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("width", sa.Integer(), nullable=False),
        sa.Column("height", sa.Integer(), nullable=False),
        sa.Column("uploaded_by", postgresql.UUID(as_uuid=True), nullable=False),
        sa.Column("uploaded_at", Stamp, nullable=False),
    )
    op.create_index("evidence_by_bid", "evidence", ["bid_id", "uploaded_at"])
    op.create_table(
        "disputes",
        sa.Column("id", postgresql.UUID(as_uuid=True), primary_key=True),
        sa.Column("bid_id", postgresql.UUID(as_uuid=True), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("reporter", sa.String(10), nullable=False),
        sa.Column("reported_at", Stamp, nullable=False),
        sa.Column("answer_by", Stamp, nullable=False),
        sa.Column("answered_at", Stamp, nullable=True),
        sa.Column("creator_note", sa.Text(), nullable=True),
        sa.Column("outcome", sa.String(20), nullable=True),
        sa.Column("decision_reason", sa.Text(), nullable=True),
        sa.Column("decided_by", postgresql.UUID(as_uuid=True), nullable=True),
        sa.Column("decided_at", Stamp, nullable=True),
    )
    op.create_index("disputes_one_open", "disputes", ["bid_id"], unique=True,
                    postgresql_where=sa.text("status = 'OPEN'"))
    op.create_index("disputes_by_status", "disputes", ["status", "reported_at"])
    op.create_table(
        "dispute_history",
        sa.Column("id", sa.BigInteger(), primary_key=True, autoincrement=True),
        sa.Column("dispute_id", postgresql.UUID(as_uuid=True), nullable=False),
        sa.Column("at", Stamp, nullable=False),
        sa.Column("what", sa.Text(), nullable=False),
        sa.Column("by", sa.String(60), nullable=False),
    )
    op.create_index("dispute_history_by_dispute", "dispute_history", ["dispute_id", "at"])
    # the history is a record: a step is added, never changed or removed
    op.execute("""
        CREATE FUNCTION dispute_history_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'dispute_history is append-only'; END $$;
        CREATE TRIGGER dispute_history_append_only BEFORE UPDATE OR DELETE ON dispute_history
            FOR EACH ROW EXECUTE FUNCTION dispute_history_append_only();
    """)


def downgrade() -> None:
    op.execute("DROP TRIGGER dispute_history_append_only ON dispute_history")
    op.execute("DROP FUNCTION dispute_history_append_only()")
    for table in ("dispute_history", "disputes", "evidence"):
        op.drop_table(table)
    for column in reversed(PLACEMENT_COLUMNS):
        op.drop_column("placements", column.name)
