"""The reliability record read from the bids (their decision, pin, deadline and outcome are kept by the event
handlers, each idempotently, so the record is right whatever the order or repetition of events), and copied onto
the creator's open slots so the listing filters and sorts on one table."""

import uuid

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from .domain.reliability import Record

_RECORD = text("""
    SELECT count(*) FILTER (WHERE b.pinned_at IS NOT NULL) AS pinned,
           count(*) FILTER (WHERE b.pinned_at IS NOT NULL
                            AND (b.pin_deadline_at IS NULL OR b.pinned_at <= b.pin_deadline_at)) AS pinned_on_time,
           count(*) FILTER (WHERE b.pinned_status = 'COMPLETED' AND b.dispute_outcome IS NULL) AS kept,
           count(*) FILTER (WHERE b.pinned_status = 'UNPINNED' AND b.dispute_outcome IS NULL) AS ended_early,
           count(*) FILTER (WHERE b.dispute_outcome IS NOT NULL) AS disputed,
           count(*) FILTER (WHERE b.decided_at IS NOT NULL) AS decisions,
           round(avg(extract(epoch FROM b.decided_at - s.closed_at))
                 FILTER (WHERE b.decided_at IS NOT NULL AND s.closed_at IS NOT NULL)) AS response_seconds
    FROM bids b JOIN slots s ON s.id = b.slot_id
    WHERE s.creator_id = :creator_id""")

_COPY = text("""
    UPDATE slots SET creator_placements = :finished, creator_kept_pct = :kept_pct,
                     creator_response_minutes = :response_minutes
    WHERE creator_id = :creator_id AND status = 'ACTIVE'
      AND (creator_placements, creator_kept_pct, creator_response_minutes)
          IS DISTINCT FROM (:finished, :kept_pct, :response_minutes)""")


async def record_of(conn: AsyncConnection | AsyncSession, creator_id: uuid.UUID) -> Record:
    row = (await conn.execute(_RECORD, {"creator_id": creator_id})).one()
    return Record(pinned=row.pinned, pinned_on_time=row.pinned_on_time, kept=row.kept, ended_early=row.ended_early,
                  disputed=row.disputed, decisions=row.decisions,
                  response_seconds=int(row.response_seconds) if row.response_seconds is not None else None)


async def refresh(session: AsyncSession, creator_id: uuid.UUID) -> Record:
    """The creator's record, copied onto their open slots (only where it changed: no needless slot versions)."""
    record = await record_of(session, creator_id)
    await session.execute(_COPY, {"creator_id": creator_id, "finished": record.finished,
                                  "kept_pct": record.kept_percent, "response_minutes": record.response_minutes})
    return record
