"""A replayed past (the demo's history): time as of its moment, carried by the events it writes."""

import json
from datetime import UTC, datetime, timedelta

import pytest
from pinbid_kit.clock import AS_OF_HEADER, as_of, moment_of, replayed, utcnow
from pinbid_kit.events.identity import UserUpdated
from pinbid_kit.outbox import outbox_rows

SEPTEMBER = datetime(2026, 9, 14, 9, 30, tzinfo=UTC)


def event() -> UserUpdated:
    import uuid

    return UserUpdated(user_id=uuid.uuid4(), email="a@b.co", name="A", role="BUYER")


def test_time_is_now_outside_a_replay_and_the_moment_inside():
    assert replayed() is None and abs(utcnow() - datetime.now(UTC)) < timedelta(seconds=5)
    with as_of(SEPTEMBER):
        assert utcnow() == SEPTEMBER == replayed()
        with as_of(None):  # a step that is not replayed, inside one that is
            assert replayed() is None
        assert utcnow() == SEPTEMBER
    assert replayed() is None


def test_a_replayed_moment_needs_its_time_zone():
    with pytest.raises(ValueError), as_of(datetime(2026, 9, 14)):
        pass


def test_events_written_in_a_replay_carry_its_moment_and_others_do_not():
    with as_of(SEPTEMBER):
        row = outbox_rows([event()], source="test")[0]
    assert moment_of(json.loads(row["headers"])) == SEPTEMBER
    envelope = json.loads(row["envelope"])
    assert datetime.fromisoformat(envelope["occurredAt"]) > SEPTEMBER  # when it was written: ordering stays true
    plain = outbox_rows([event()], source="test")[0]
    assert AS_OF_HEADER not in json.loads(plain["headers"]) and moment_of(json.loads(plain["headers"])) is None


@pytest.mark.parametrize("raw", ["", "yesterday", "2026-09-14T09:30:00"])
def test_an_unreadable_or_naive_header_means_now(raw):
    assert moment_of({AS_OF_HEADER: raw}) is None
