"""one price for everyone: an open slot's current bid becomes what its leader would pay if the auction closed now
(the second price: the runner-up's maximum, at least the minimum bid, plus the second-price increment, never above
the leader's own maximum; the minimum bid while the leader is alone), recomputed from its live bids, which keep
their amounts and maxima. Closed slots keep theirs (their price was charged). A price that moves is recorded for
the chart at the migration's time (the trigger of 0011 reads `updated_at`). The slot's three best live bids, read
with a fresh snapshot after a lock, for a cancellation (`marketplace_best_bids`).

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27 11:00:00.000000
"""

from alembic import op
from pinbid_marketplace.settings import MarketplaceSettings
from sqlalchemy import text

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

_LIVE_RANKED = """
    ranked AS (
        SELECT slot_id, amount, ceiling,
               row_number() OVER (PARTITION BY slot_id ORDER BY ceiling DESC, seq) AS place
        FROM bids WHERE status IN ('ACTIVE', 'OUTBID'))"""


def upgrade() -> None:
    op.execute("""
        CREATE FUNCTION marketplace_best_bids(p_slot uuid, p_count integer)
        RETURNS SETOF bids LANGUAGE plpgsql VOLATILE AS $$
        BEGIN
            RETURN QUERY SELECT * FROM bids WHERE slot_id = p_slot AND status IN ('ACTIVE', 'OUTBID')
                ORDER BY ceiling DESC, seq LIMIT p_count;
        END $$""")
    # the increment the service runs with (MARKETPLACE_SECOND_PRICE_INCREMENT, default 0)
    increment = MarketplaceSettings().second_price_increment
    op.get_bind().execute(text(f"""
        WITH {_LIVE_RANKED},
        priced AS (
            SELECT s.id, LEAST(leader.ceiling,
                               GREATEST(s.min_bid, COALESCE(runner.ceiling, s.min_bid)) + CAST(:increment AS numeric))
                         AS price
            FROM slots s
            JOIN ranked leader ON leader.slot_id = s.id AND leader.place = 1
            LEFT JOIN ranked runner ON runner.slot_id = s.id AND runner.place = 2
            WHERE s.status = 'ACTIVE')
        UPDATE slots SET current_bid = priced.price, updated_at = now()
        FROM priced WHERE slots.id = priced.id AND slots.current_bid IS DISTINCT FROM priced.price"""),
        {"increment": increment})


def downgrade() -> None:
    # the first rule: an open slot showed its leader's visible amount
    op.execute(f"""
        WITH {_LIVE_RANKED}
        UPDATE slots SET current_bid = leader.amount, updated_at = now()
        FROM ranked leader
        WHERE leader.slot_id = slots.id AND leader.place = 1 AND slots.status = 'ACTIVE'
          AND slots.current_bid IS DISTINCT FROM leader.amount""")
    op.execute("DROP FUNCTION marketplace_best_bids(uuid, integer)")
