"""Payout schedules, in UTC: WEEKLY on Mondays, MONTHLY on the 1st, QUARTERLY on the 1st of January,
April, July and October. On its day a schedule pays for the period that just ended."""

from datetime import UTC, datetime, timedelta
from enum import StrEnum


class Schedule(StrEnum):
    WEEKLY = "WEEKLY"
    MONTHLY = "MONTHLY"
    QUARTERLY = "QUARTERLY"


def due_period(schedule: Schedule, now: datetime) -> str | None:
    """The label of the period to pay on `now`'s day, or None when the schedule does not pay today."""
    day = now.astimezone(UTC).date()
    if schedule is Schedule.WEEKLY:
        if day.weekday() != 0:
            return None
        year, week, _ = (day - timedelta(days=7)).isocalendar()
        return f"{year}-W{week:02d}"
    if day.day != 1:
        return None
    previous = day - timedelta(days=1)
    if schedule is Schedule.MONTHLY:
        return f"{previous.year}-{previous.month:02d}"
    if day.month not in (1, 4, 7, 10):
        return None
    return f"{previous.year}-Q{(previous.month - 1) // 3 + 1}"
