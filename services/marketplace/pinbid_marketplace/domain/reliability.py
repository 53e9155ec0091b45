"""A creator's reliability record, from what their placements did: pins made on time (before the pin deadline the
brand's payment set), placements kept for their whole duration or ended early (unpinned, hidden or deleted), and
how long they take to decide on a winning bid, and placements ended by a dispute an operator decided with a refund
(each counts as finished and not kept, whatever the tracker saw). A creator with no finished placement is new: no
rate is shown."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Record:
    pinned: int = 0
    pinned_on_time: int = 0
    kept: int = 0  # placements kept pinned for their whole duration
    ended_early: int = 0  # unpinned, hidden or deleted before the end (not counting the disputed ones)
    disputed: int = 0  # ended by an operator's refund decision on a dispute
    decisions: int = 0
    response_seconds: int | None = None  # the average time from an auction's end to the creator's decision

    @property
    def finished(self) -> int:
        return self.kept + self.ended_early + self.disputed

    @property
    def kept_percent(self) -> int | None:
        """Of the placements that finished, the share kept to the end (rounded down: 99.6% is not 100%)."""
        return 100 * self.kept // self.finished if self.finished else None

    @property
    def on_time_percent(self) -> int | None:
        return 100 * self.pinned_on_time // self.pinned if self.pinned else None

    @property
    def response_minutes(self) -> int | None:
        return None if self.response_seconds is None else max(1, round(self.response_seconds / 60))
