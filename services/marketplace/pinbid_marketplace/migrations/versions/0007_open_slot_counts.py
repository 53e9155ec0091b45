"""open slots counted as they open and close: the exact `total` of a listing filtered by nothing but a category
without counting 100,000 rows

A trigger on `slots` appends +1 or -1 per category whenever a slot becomes ACTIVE or stops being ACTIVE, in the
same transaction. Appending (never updating one counter row) means no hot row: slot creations and closings never
wait for each other, and two closers never deadlock on counters. A job folds the rows into one per category.
The listing subtracts the open slots whose end has passed but that the closer has not closed yet (an index range
on slots_open_ending, a handful of rows), which keeps the total exactly what count(*) would say.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 01:10:00.000000
"""

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("CREATE TABLE open_slot_counts (category varchar(20) NOT NULL, open integer NOT NULL)")
    op.execute("CREATE INDEX open_slot_counts_category ON open_slot_counts (category) INCLUDE (open)")
    op.execute("""
        CREATE FUNCTION marketplace_count_open_slots() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'ACTIVE' THEN
                INSERT INTO open_slot_counts VALUES (OLD.category, -1);
            END IF;
            IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'ACTIVE' THEN
                INSERT INTO open_slot_counts VALUES (NEW.category, 1);
            END IF;
            RETURN NULL;
        END $$""")
    op.execute("CREATE TRIGGER slots_count_open_rows AFTER INSERT OR DELETE ON slots "
               "FOR EACH ROW EXECUTE FUNCTION marketplace_count_open_slots()")
    # a bid updates its slot's status column with the same value: the WHEN keeps the function out of its way
    op.execute("CREATE TRIGGER slots_count_open_changes AFTER UPDATE OF status, category ON slots FOR EACH ROW "
               "WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.category IS DISTINCT FROM NEW.category) "
               "EXECUTE FUNCTION marketplace_count_open_slots()")
    op.execute("INSERT INTO open_slot_counts SELECT category, count(*) FROM slots WHERE status = 'ACTIVE' "
               "GROUP BY category")


def downgrade() -> None:
    op.execute("DROP TRIGGER slots_count_open_changes ON slots")
    op.execute("DROP TRIGGER slots_count_open_rows ON slots")
    op.execute("DROP FUNCTION marketplace_count_open_slots()")
    op.execute("DROP TABLE open_slot_counts")
