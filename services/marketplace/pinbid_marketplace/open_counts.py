"""Folds the +1/-1 rows the slots trigger appends to `open_slot_counts` into one row per category, so reading a
count stays a few rows. One statement: readers see the rows before or after it, never half of it."""

import logging

from pinbid_kit.db import Database
from sqlalchemy import text

log = logging.getLogger("pinbid.marketplace.open_counts")

_FOLD = text("""
    WITH folded AS (DELETE FROM open_slot_counts RETURNING category, open)
    INSERT INTO open_slot_counts SELECT category, sum(open) FROM folded GROUP BY category
    """)


async def fold(db: Database) -> int:
    async with db.transaction() as session:
        result = await session.execute(_FOLD)
    return result.rowcount or 0
