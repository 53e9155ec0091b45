"""the bids a batch of placements on one slot needs: the two best live bids, the live bids of every bidder of the
batch and the bids a batch changes by id (read with a fresh snapshot, as in 0003)

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 00:40:00.000000
"""

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("DROP FUNCTION marketplace_placement_bids(uuid, uuid, uuid)")
    op.execute("""
        CREATE FUNCTION marketplace_placement_bids(p_slot uuid, p_buyers uuid[], p_bids uuid[]) RETURNS SETOF bids
        LANGUAGE sql VOLATILE AS $$
            (SELECT * FROM bids WHERE slot_id = p_slot AND status IN ('ACTIVE', 'OUTBID')
             ORDER BY ceiling DESC, seq LIMIT 2)
            UNION ALL
            SELECT * FROM bids WHERE slot_id = p_slot AND buyer_id = ANY(p_buyers) AND status IN ('ACTIVE', 'OUTBID')
            UNION ALL
            SELECT * FROM bids WHERE id = ANY(p_bids) AND slot_id = p_slot
        $$""")


def downgrade() -> None:
    op.execute("DROP FUNCTION marketplace_placement_bids(uuid, uuid[], uuid[])")
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
