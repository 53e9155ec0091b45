"""a slot's public price each time it moved, at the time it moved, kept by the database for the price chart:
a trigger records the minimum bid when a slot is made and every change of its current bid, whichever writer
makes it (the batched bid write, Buy Now, the closer)

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26 08:45:00.000000
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import UUID

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "slot_prices",
        sa.Column("seq", sa.BigInteger(), sa.Identity(always=True), primary_key=True),
        sa.Column("slot_id", UUID(as_uuid=True), sa.ForeignKey("slots.id", ondelete="CASCADE"), nullable=False),
        sa.Column("price", sa.Numeric(12, 2), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_slot_prices_slot_id", "slot_prices", ["slot_id"])
    op.execute("""
        CREATE FUNCTION slot_prices_record() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'INSERT' THEN
                INSERT INTO slot_prices (slot_id, price, at) VALUES (NEW.id, NEW.min_bid, NEW.created_at);
                IF NEW.current_bid IS NOT NULL THEN
                    INSERT INTO slot_prices (slot_id, price, at) VALUES (NEW.id, NEW.current_bid, NEW.updated_at);
                END IF;
            ELSIF NEW.current_bid IS DISTINCT FROM OLD.current_bid AND NEW.current_bid IS NOT NULL THEN
                INSERT INTO slot_prices (slot_id, price, at) VALUES (NEW.id, NEW.current_bid, NEW.updated_at);
            END IF;
            RETURN NULL;
        END $$
    """)
    op.execute("CREATE TRIGGER slot_prices_record AFTER INSERT OR UPDATE OF current_bid ON slots "
               "FOR EACH ROW EXECUTE FUNCTION slot_prices_record()")
    # the slots made before: what is known of them, the minimum bid when made and the price as it is now
    op.execute("INSERT INTO slot_prices (slot_id, price, at) SELECT id, min_bid, created_at FROM slots")
    op.execute("INSERT INTO slot_prices (slot_id, price, at) SELECT id, current_bid, updated_at FROM slots "
               "WHERE current_bid IS NOT NULL")


def downgrade() -> None:
    op.execute("DROP TRIGGER slot_prices_record ON slots")
    op.execute("DROP FUNCTION slot_prices_record()")
    op.drop_table("slot_prices")
