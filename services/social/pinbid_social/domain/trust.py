"""Trust on the "I pin in the app" path (issue 22), free of frameworks: when the brand's acceptance window closes,
when Pinbid asks the creator for a fresh screenshot, which outcomes end a placement, and what the brand and the
creator may do to a placement now (accept, report, answer with a screenshot) or why not.

Pinbid cannot see a pin made in the Instagram app, so such a placement starts on the creator's word and a
screenshot: the brand accepts it (or says nothing for the window, which counts as accepted) or reports it; once,
at a random moment of the placement, the creator is asked for a fresh screenshot (a missed answer opens a dispute)."""

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from pinbid_kit.events.trust import REFUND_ALL, REFUND_UNEARNED

from .placement import Status


class Acceptance(StrEnum):
    NOT_NEEDED = "NOT_NEEDED"  # Pinbid pinned it itself (SESSION) and checks it
    AWAITING = "AWAITING"
    ACCEPTED = "ACCEPTED"


# why a placement ended on an operator's decision (pinbid_kit.events.trust: the outcomes, which of them end one), in
# the words its brand and creator read
ENDED_BY = {REFUND_UNEARNED: "Ended after a review: the share not yet earned went back to the brand.",
            REFUND_ALL: "Ended after a review: everything the brand paid went back to it."}


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


# --- what may happen to a placement now: the state rules the application layer asks before it changes a row --------
@dataclass(frozen=True)
class Refusal:
    """Why a change is refused now: the error's code and the words the person reads (a 409)."""
    code: str
    message: str


ANSWER = "ANSWER"  # a screenshot that answers an open dispute
RECHECK = "RECHECK"  # a screenshot that answers Pinbid's request for a fresh one
PIN = "PIN"  # the screenshot sent with "I pinned it"
# the evidence's order at the same moment: the pin's screenshot before later ones
KIND_ORDER = {PIN: 0, RECHECK: 1, ANSWER: 2}

PLACEMENT_ENDED = Refusal("placement_ended", "This placement has ended.")
NOT_AWAITING = Refusal("not_awaiting", "This placement is not awaiting your acceptance.")
ACCEPT_DISPUTED = Refusal("already_disputed",
                          "You reported a problem with this placement; an operator decides it now.")
NOT_RUNNING = Refusal("placement_ended", "This placement is not running any more, so it cannot be reported.")
REPORT_DISPUTED = Refusal("already_disputed",
                          "A problem with this placement is already reported; an operator decides it.")
ANSWER_CLOSED = Refusal("answer_window_closed",
                        "The time to answer this report has passed; an operator decides it now.")
RECHECK_CLOSED = Refusal("answer_window_closed", "The time to send a fresh screenshot has passed.")
ANSWERED = Refusal("already_answered", "You already answered this report; an operator decides it now.")
NOTHING_TO_ANSWER = Refusal("nothing_to_answer", "Nothing on this placement is waiting for a screenshot from you.")


def acceptance_refused(running: bool, acceptance: str, disputed: bool) -> Refusal | None:
    """"Looks right" is taken once, while the placement runs (pinned or completed), its acceptance window is open
    and nothing is reported."""
    if not running:
        return PLACEMENT_ENDED
    if acceptance != Acceptance.AWAITING:
        return NOT_AWAITING
    return ACCEPT_DISPUTED if disputed else None


def report_refused(pinned: bool, disputed: bool) -> Refusal | None:
    """A report is taken while the placement is pinned, and only one open at a time."""
    if not pinned:
        return NOT_RUNNING
    return REPORT_DISPUTED if disputed else None


def recheck_open(requested_at: datetime | None, answered_at: datetime | None, missed_at: datetime | None) -> bool:
    """Pinbid asked for a fresh screenshot and it is neither answered nor missed yet."""
    return requested_at is not None and answered_at is None and missed_at is None


def awaited(*, dispute_open: bool, dispute_answered_at: datetime | None, dispute_answer_by: datetime | None,
            recheck_is_open: bool, recheck_answer_by: datetime | None, ended: bool, now: datetime) -> str | Refusal:
    """What a screenshot from the creator answers now: ANSWER (an open dispute, in its window) or RECHECK (a
    fresh-screenshot request of a placement that has not ended, in its window); otherwise why nothing waits for
    one."""
    if dispute_open and dispute_answered_at is None:
        return ANSWER_CLOSED if dispute_answer_by is not None and now > dispute_answer_by else ANSWER
    if recheck_is_open and not ended:
        return RECHECK_CLOSED if recheck_answer_by is not None and now > recheck_answer_by else RECHECK
    return ANSWERED if dispute_open else NOTHING_TO_ANSWER


# --- what the person looking at a placement may do now, and by when: the trust view carries it ---------------------
BRAND, CREATOR = "BRAND", "CREATOR"  # the viewer's side of a placement; anyone else (an operator) may do none


@dataclass(frozen=True)
class Action:
    """One thing the viewer may do now (`open`), and until when (`until`; None: no deadline while it is open)."""
    open: bool
    until: datetime | None = None


@dataclass(frozen=True)
class Answer(Action):
    """The creator's screenshot: what it answers now (ANSWER: the open dispute; RECHECK: the fresh-screenshot
    request), None when closed."""
    kind: str | None = None


CLOSED = Action(False)


@dataclass(frozen=True)
class Actions:
    accept: Action  # the brand's "Looks right"
    report: Action  # the brand's report: "Report a problem" while accept is open, else "no longer pinned"
    answer: Answer  # the creator's screenshot


@dataclass(frozen=True)
class TrustState:
    """What the rules read of a placement: its status, acceptance, open dispute and fresh-screenshot request."""
    status: str
    acceptance: str
    accept_by: datetime | None
    dispute_open: bool
    dispute_answered_at: datetime | None
    dispute_answer_by: datetime | None
    recheck_requested_at: datetime | None
    recheck_answered_at: datetime | None
    recheck_missed_at: datetime | None
    recheck_answer_by: datetime | None

    @property
    def running(self) -> bool:  # pinned or completed: "Looks right" may still come
        return self.status in {Status.PINNED, Status.COMPLETED}

    @property
    def pinned(self) -> bool:  # a report is taken only now
        return self.status == Status.PINNED

    @property
    def ended(self) -> bool:
        return self.status == Status.ENDED

    def awaited(self, now: datetime) -> str | Refusal:
        return awaited(dispute_open=self.dispute_open, dispute_answered_at=self.dispute_answered_at,
                       dispute_answer_by=self.dispute_answer_by,
                       recheck_is_open=recheck_open(self.recheck_requested_at, self.recheck_answered_at,
                                                    self.recheck_missed_at),
                       recheck_answer_by=self.recheck_answer_by, ended=self.ended, now=now)


def actions(viewer: str | None, state: TrustState, now: datetime) -> Actions:
    """What `viewer` (BRAND, CREATOR, or None for anyone else) may do to the placement at `now`, by the same rules
    the changes are refused with: the web shows the buttons this allows and the deadlines it gives."""
    accept = report = CLOSED
    answer = Answer(False)
    if viewer == BRAND:
        if acceptance_refused(state.running, state.acceptance, state.dispute_open) is None:
            accept = Action(True, state.accept_by)
        if report_refused(state.pinned, state.dispute_open) is None:
            report = Action(True)
    elif viewer == CREATOR:
        kind = state.awaited(now)
        if kind == ANSWER:
            answer = Answer(True, state.dispute_answer_by, ANSWER)
        elif kind == RECHECK:
            answer = Answer(True, state.recheck_answer_by, RECHECK)
    return Actions(accept, report, answer)


# what people read for a full refund's reason code (payments' `PaymentRefunded.reason`)
REFUND_REASONS = {
    "not_pinned_in_time": "Refunded in full: the comment was not pinned in time.",
    "paid_after_expiry": "Refunded in full: the payment came after its deadline.",
    "refunded_at_provider": "Refunded in full at the payment provider.",
    "operator_refund": "Refunded in full by Pinbid.",
    "dispute_refund_all": "Refunded in full after a review.",
}


def refund_reason(code: str) -> str:
    return REFUND_REASONS.get(code, "Refunded in full.")
