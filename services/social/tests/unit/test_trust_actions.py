"""What the brand and the creator may do to a placement now, and by when (domain.trust.actions): the trust view
carries it and the web shows only what it allows, so each state and each window's edge is pinned here."""

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from pinbid_social.domain.trust import (
    ANSWER,
    ANSWER_CLOSED,
    BRAND,
    CREATOR,
    RECHECK,
    RECHECK_CLOSED,
    Action,
    Actions,
    Answer,
    TrustState,
    actions,
)

NOW = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)
TICK = timedelta(microseconds=1)
CLOSED, NO_ANSWER = Action(False), Answer(False)

# a MANUAL placement pinned in the app, its screenshot sent: the brand's window is open
AWAITING = TrustState(status="PINNED", acceptance="AWAITING", accept_by=NOW + 72 * HOUR, dispute_open=False,
                      dispute_answered_at=None, dispute_answer_by=None, recheck_requested_at=None,
                      recheck_answered_at=None, recheck_missed_at=None, recheck_answer_by=None)
ACCEPTED = replace(AWAITING, acceptance="ACCEPTED", accept_by=None)
REPORTED = replace(AWAITING, dispute_open=True, dispute_answer_by=NOW + 48 * HOUR)
RECHECKED = replace(ACCEPTED, recheck_requested_at=NOW - HOUR, recheck_answer_by=NOW + 23 * HOUR)


def test_in_the_acceptance_window_the_brand_may_accept_until_it_closes_or_report():
    assert actions(BRAND, AWAITING, NOW) == Actions(Action(True, NOW + 72 * HOUR), Action(True), NO_ANSWER)


def test_once_accepted_the_brand_may_only_report_that_it_is_no_longer_pinned():
    assert actions(BRAND, ACCEPTED, NOW) == Actions(CLOSED, Action(True), NO_ANSWER)


def test_a_session_placement_needs_no_acceptance_but_may_be_reported():
    assert actions(BRAND, replace(ACCEPTED, acceptance="NOT_NEEDED"), NOW) == Actions(CLOSED, Action(True), NO_ANSWER)


def test_a_completed_placement_in_its_window_may_still_be_accepted_but_no_longer_reported():
    completed = replace(AWAITING, status="COMPLETED")
    assert actions(BRAND, completed, NOW) == Actions(Action(True, NOW + 72 * HOUR), CLOSED, NO_ANSWER)


def test_after_the_acceptance_deadline_the_brand_may_still_accept_until_silence_is_recorded():
    """The job accepts by silence on its next run; until then "Looks right" is still taken (the server's rule)."""
    assert actions(BRAND, AWAITING, NOW + 73 * HOUR).accept == Action(True, NOW + 72 * HOUR)


@pytest.mark.parametrize("status", ["ENDED", "UNPINNED", "AWAITING_PIN"])
def test_a_placement_that_is_not_running_offers_the_brand_nothing(status):
    assert actions(BRAND, replace(AWAITING, status=status), NOW) == Actions(CLOSED, CLOSED, NO_ANSWER)


def test_an_open_report_closes_accept_and_report_for_the_brand():
    assert actions(BRAND, REPORTED, NOW) == Actions(CLOSED, CLOSED, NO_ANSWER)


def test_the_creator_answers_a_report_until_its_deadline_inclusive():
    by = NOW + 48 * HOUR
    assert actions(CREATOR, REPORTED, NOW) == Actions(CLOSED, CLOSED, Answer(True, by, ANSWER))
    assert actions(CREATOR, REPORTED, by).answer == Answer(True, by, ANSWER)
    assert actions(CREATOR, REPORTED, by + TICK).answer == NO_ANSWER
    assert REPORTED.awaited(by + TICK) == ANSWER_CLOSED  # what the upload is refused with then


def test_an_answered_report_waits_for_nothing_more_from_the_creator():
    answered = replace(REPORTED, dispute_answered_at=NOW)
    assert actions(CREATOR, answered, NOW).answer == NO_ANSWER


def test_the_creator_sends_a_fresh_screenshot_until_the_requests_deadline_inclusive():
    by = NOW + 23 * HOUR
    assert actions(CREATOR, RECHECKED, NOW) == Actions(CLOSED, CLOSED, Answer(True, by, RECHECK))
    assert actions(CREATOR, RECHECKED, by).answer == Answer(True, by, RECHECK)
    assert actions(CREATOR, RECHECKED, by + TICK).answer == NO_ANSWER
    assert RECHECKED.awaited(by + TICK) == RECHECK_CLOSED


@pytest.mark.parametrize("done", [{"recheck_answered_at": NOW}, {"recheck_missed_at": NOW}, {"status": "ENDED"}])
def test_an_answered_missed_or_ended_recheck_waits_for_nothing(done):
    assert actions(CREATOR, replace(RECHECKED, **done), NOW).answer == NO_ANSWER


def test_an_open_report_is_answered_before_an_open_recheck():
    both = replace(RECHECKED, dispute_open=True, dispute_answer_by=NOW + 48 * HOUR)
    assert actions(CREATOR, both, NOW).answer == Answer(True, NOW + 48 * HOUR, ANSWER)
    answered = replace(both, dispute_answered_at=NOW - HOUR)
    assert actions(CREATOR, answered, NOW).answer == Answer(True, NOW + 23 * HOUR, RECHECK)


@pytest.mark.parametrize("state", [AWAITING, ACCEPTED, REPORTED, RECHECKED])
def test_each_side_sees_only_its_own_actions_and_anyone_else_none(state):
    assert actions(CREATOR, state, NOW).accept == actions(CREATOR, state, NOW).report == CLOSED
    assert actions(BRAND, state, NOW).answer == NO_ANSWER
    assert actions(None, state, NOW) == Actions(CLOSED, CLOSED, NO_ANSWER)
