"""Trust on the "I pin in the app" path (issue 22), free of frameworks: when the brand's acceptance window closes,
when Pinbid asks the creator for a fresh screenshot, and which outcomes end a placement.

Pinbid cannot see a pin made in the Instagram app, so such a placement starts on the creator's word and a
screenshot: the brand accepts it (or says nothing for the window, which counts as accepted) or reports it; once,
at a random moment of the placement, the creator is asked for a fresh screenshot (a missed answer opens a dispute)."""

import random
from datetime import datetime, timedelta
from enum import StrEnum


class Acceptance(StrEnum):
    NOT_NEEDED = "NOT_NEEDED"  # Pinbid pinned it itself (SESSION) and checks it
    AWAITING = "AWAITING"
    ACCEPTED = "ACCEPTED"


class Outcome(StrEnum):
    CONTINUE = "CONTINUE"
    REFUND_UNEARNED = "REFUND_UNEARNED"
    REFUND_ALL = "REFUND_ALL"


def ends_placement(outcome: Outcome) -> bool:
    return outcome != Outcome.CONTINUE


# why a placement ended on an operator's decision, in the words its brand and creator read
ENDED_BY = {Outcome.REFUND_UNEARNED: "Ended after a review: the share not yet earned went back to the brand.",
            Outcome.REFUND_ALL: "Ended after a review: everything the brand paid went back to it."}


def awaiting_answer(answered_at: datetime | None, answer_by: datetime, now: datetime) -> bool:
    """An open dispute waits for the creator while they have not answered and may still (the answer is refused
    only once `now` is past `answer_by`): an operator decides then only with "decide now" and its reason."""
    return answered_at is None and now <= answer_by


def recheck_time(pinned_at: datetime, ends_at: datetime, answer_within: timedelta, rng: random.Random) -> datetime:
    """A random moment of the placement at which to ask for a fresh screenshot, leaving the whole answer time
    before the end when the placement is long enough (else anywhere in it), never in its first hour."""
    start = pinned_at + min(timedelta(hours=1), (ends_at - pinned_at) / 4)
    end = ends_at - answer_within if ends_at - answer_within > start else ends_at
    return start + (end - start) * rng.random()
