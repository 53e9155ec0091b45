"""a version on every slot, bumped by the database on every update of the row

An accepted bid is written without holding the slot's lock across round trips: it reads the slot and its bids
unlocked, applies the rules in Python, and writes with one statement guarded by the version it read
(`UPDATE slots ... WHERE version = :seen`). The trigger makes every writer of a slot row bump the version, whatever
path it takes (ORM, Core, another replica), so no change can slip between the read and the guarded write; the
few paths that change a slot's bids without updating the slot (cancel, a new comment) touch the slot as well.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 01:45:00.000000
"""

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE slots ADD COLUMN version bigint NOT NULL DEFAULT 0")
    op.execute("""
        CREATE FUNCTION marketplace_bump_slot_version() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            NEW.version := OLD.version + 1;
            RETURN NEW;
        END $$""")
    op.execute("""
        CREATE TRIGGER slots_version BEFORE UPDATE ON slots
        FOR EACH ROW EXECUTE FUNCTION marketplace_bump_slot_version()""")


def downgrade() -> None:
    op.execute("DROP TRIGGER slots_version ON slots")
    op.execute("DROP FUNCTION marketplace_bump_slot_version()")
    op.execute("ALTER TABLE slots DROP COLUMN version")
