"""listing counts from the indexes: the open-slot indexes carry the filter columns, so the exact `total` of a
filtered listing is an index-only scan; a slot's price within its category has its own order

The number of indexes on `slots` does not change: every accepted bid updates its slot (price and bid count are
indexed, so the update is never HOT) and writes one entry per index while it holds the slot's lock.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 00:50:00.000000
"""

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

OPEN = "WHERE status = 'ACTIVE'"
FACETS = "auction_end, category, price, avg_views, verified"


def upgrade() -> None:
    for name, key, include in (
        ("slots_open_ending", "auction_end, id", "category, price, avg_views, verified"),
        ("slots_open_price", "price, id", "auction_end, category, avg_views, verified"),
        ("slots_open_views", "avg_views DESC, id", "auction_end, category, price, verified"),
    ):
        op.execute(f"DROP INDEX {name}")
        op.execute(f"CREATE INDEX {name} ON slots ({key}) INCLUDE ({include}) {OPEN}")
    op.execute("DROP INDEX slots_open_category")
    op.execute(f"CREATE INDEX slots_open_category_price ON slots (category, price, id) "
               f"INCLUDE (auction_end, avg_views, verified) {OPEN}")


def downgrade() -> None:
    op.execute("DROP INDEX slots_open_category_price")
    op.execute(f"CREATE INDEX slots_open_category ON slots (category, created_at DESC) {OPEN}")
    for name, key in (("slots_open_ending", "auction_end, id"), ("slots_open_price", "price, id"),
                      ("slots_open_views", "avg_views DESC, id")):
        op.execute(f"DROP INDEX {name}")
        op.execute(f"CREATE INDEX {name} ON slots ({key}) {OPEN}")
