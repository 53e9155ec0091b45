"""A creator's reliability record: rates over finished placements and pins, rounded down, none for a new creator."""

from pinbid_marketplace.domain.reliability import Record


def test_a_new_creator_shows_no_rates():
    new = Record()
    assert (new.finished, new.kept_percent, new.on_time_percent, new.response_minutes) == (0, None, None, None)


def test_placements_finish_kept_or_ended_early():
    record = Record(kept=3, ended_early=1)
    assert (record.finished, record.kept_percent) == (4, 75)


def test_rates_are_rounded_down_so_that_one_miss_is_never_a_perfect_record():
    assert Record(kept=249, ended_early=1).kept_percent == 99
    assert Record(pinned=3, pinned_on_time=2).on_time_percent == 66
    assert Record(kept=5).kept_percent == 100


def test_the_on_time_rate_is_over_pins_not_over_finished_placements():
    record = Record(pinned=4, pinned_on_time=1, kept=0, ended_early=0)
    assert (record.on_time_percent, record.kept_percent) == (25, None)


def test_response_time_reads_in_whole_minutes_and_never_as_zero():
    assert Record(response_seconds=0).response_minutes == 1
    assert Record(response_seconds=29).response_minutes == 1
    assert Record(response_seconds=150).response_minutes == 2  # 2.5 rounds to even
    assert Record(response_seconds=3 * 3600 + 40).response_minutes == 181
