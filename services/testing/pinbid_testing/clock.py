"""The clock a test moves: services take `clock=` (a callable returning an aware datetime) and the test
advances it instead of waiting."""

from datetime import UTC, datetime, timedelta


class MovableClock:
    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        """Move forward by a timedelta's keywords: advance(days=2, minutes=5)."""
        self.now += timedelta(**delta)
