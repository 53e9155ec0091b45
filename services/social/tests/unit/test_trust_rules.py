"""The trust rules free of frameworks (the recheck's moment, which outcomes end a placement) and the object
store's settings."""

import random
from datetime import UTC, datetime, timedelta

import pytest
from pinbid_kit.objects import LocalObjects, S3Objects
from pinbid_kit.settings import ConfigurationError
from pinbid_social.domain.trust import recheck_time
from pinbid_social.settings import SocialSettings

PIN = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def test_the_recheck_falls_within_the_placement_leaving_a_day_to_answer():
    rng = random.Random(7)
    moments = [recheck_time(PIN, PIN + 7 * DAY, DAY, rng) for _ in range(2000)]
    assert all(PIN + timedelta(hours=1) <= m <= PIN + 6 * DAY for m in moments)
    assert max(moments) - min(moments) > 5 * DAY  # spread over the whole range, not a fixed time


def test_a_one_day_placement_is_rechecked_within_it():
    rng = random.Random(3)
    moments = [recheck_time(PIN, PIN + DAY, DAY, rng) for _ in range(500)]
    assert all(PIN < m <= PIN + DAY for m in moments)


def test_an_s3_store_needs_its_endpoint_and_keys(tmp_path):
    with pytest.raises(ConfigurationError) as refused:
        SocialSettings(object_store="s3", s3_endpoint="", _env_file=None)
    assert "SOCIAL_S3_ENDPOINT" in str(refused.value) and "SOCIAL_S3_SECRET_KEY" in str(refused.value)
    (tmp_path / "key").write_text("s3cret\n")
    ready = SocialSettings(object_store="s3", s3_endpoint="minio:9000", s3_access_key="pinbid",
                           s3_secret_key_file=tmp_path / "key", _env_file=None)
    assert isinstance(ready.objects(), S3Objects)
    assert isinstance(SocialSettings(object_store_dir=tmp_path, _env_file=None).objects(), LocalObjects)
