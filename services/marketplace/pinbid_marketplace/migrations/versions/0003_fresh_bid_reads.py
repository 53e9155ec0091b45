"""fresh bid reads for the hot path: two read-only functions that see the bids as of their own call

The hot path locks a slot and reads its bids in one statement. A subquery of that statement would read the
bids as of the statement's start, before the lock was granted, and miss what the previous holder of the lock
committed. A VOLATILE function takes a fresh snapshot for its query, so called after the lock (a LATERAL join on
a MATERIALIZED CTE that locks) it sees every bid committed before the lock was granted. No rule lives here.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 00:20:00.000000
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # what placing a bid needs: the two best live bids, the bidder's own live bid and, for a change of a named
    # bid, that bid (any status); a bid may come twice
    op.execute("""
        CREATE FUNCTION marketplace_placement_bids(p_slot uuid, p_buyer uuid, p_bid uuid) RETURNS SETOF bids
        LANGUAGE sql VOLATILE AS $$
            (SELECT * FROM bids WHERE slot_id = p_slot AND status IN ('ACTIVE', 'OUTBID')
             ORDER BY ceiling DESC, seq LIMIT 2)
            UNION ALL
            SELECT * FROM bids WHERE slot_id = p_slot AND buyer_id = p_buyer AND status IN ('ACTIVE', 'OUTBID')
            UNION ALL
            SELECT * FROM bids WHERE id = p_bid AND slot_id = p_slot
        $$""")
    # what closing needs: every live bid of the slot, or (to answer the creator with the history) every bid
    op.execute("""
        CREATE FUNCTION marketplace_slot_bids(p_slot uuid, p_all boolean) RETURNS SETOF bids
        LANGUAGE sql VOLATILE AS $$
            SELECT * FROM bids WHERE slot_id = p_slot AND (p_all OR status IN ('ACTIVE', 'OUTBID'))
        $$""")


def downgrade() -> None:
    op.execute("DROP FUNCTION marketplace_slot_bids(uuid, boolean)")
    op.execute("DROP FUNCTION marketplace_placement_bids(uuid, uuid, uuid)")
