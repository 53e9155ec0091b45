"""operators and trust: account status (suspension), the operators' TOTP, the append-only audit log

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26 10:40:00.000000
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("status", sa.String(length=20), server_default="ACTIVE", nullable=False))
    op.add_column("users", sa.Column("suspended_reason", sa.Text(), nullable=True))
    op.add_column("users", sa.Column("suspended_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("users", sa.Column("totp_secret_sealed", sa.Text(), nullable=True))
    op.add_column("users", sa.Column("totp_last_step", sa.BigInteger(), nullable=True))
    op.create_table(
        "audit_entries",
        sa.Column("id", postgresql.UUID(as_uuid=True), primary_key=True),
        sa.Column("source", sa.String(length=40), nullable=False),
        sa.Column("operator_id", postgresql.UUID(as_uuid=True), nullable=False),
        sa.Column("operator_email", sa.String(length=254), nullable=True),
        sa.Column("action", sa.String(length=60), nullable=False),
        sa.Column("object_type", sa.String(length=40), nullable=False),
        sa.Column("object_id", sa.String(length=100), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("acted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    )
    op.create_index("audit_entries_recent", "audit_entries", ["acted_at"])
    op.create_index("audit_entries_object", "audit_entries", ["object_type", "object_id", "acted_at"])
    # Nobody edits the audit log through the product: rows are only ever added.
    op.execute("""
        CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'audit_entries is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
        END $$;
        CREATE TRIGGER audit_entries_no_change BEFORE UPDATE OR DELETE ON audit_entries
            FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only();
        CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
            FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_append_only();
    """)


def downgrade() -> None:
    op.drop_table("audit_entries")
    op.execute("DROP FUNCTION audit_entries_append_only()")
    for column in ("totp_last_step", "totp_secret_sealed", "suspended_at", "suspended_reason", "status"):
        op.drop_column("users", column)
