"""The step-up rule: a session of an account with a second factor on must have proved it in the last few minutes."""

import time
import uuid

import pytest
from pinbid_kit.step_up import STEP_UP_SECONDS, StepUpRequired, fresh_until, require_fresh_second_factor
from pinbid_kit.tokens import TokenSigner, TokenVerifier, generate_keypair


@pytest.fixture
def keys(tmp_path):
    generate_keypair(tmp_path / "k.pem", tmp_path / "k.pub")
    return TokenSigner((tmp_path / "k.pem").read_bytes(), ttl_seconds=600), \
        TokenVerifier((tmp_path / "k.pub").read_bytes())


def test_the_claims_travel_in_the_signed_token(keys):
    signer, verifier = keys
    plain = verifier.verify(signer.sign(uuid.uuid4(), "BUYER", 0))
    assert (plain.second_factor_on, plain.second_factor_at) == (False, None)
    proved = verifier.verify(signer.sign(uuid.uuid4(), "BUYER", 0, second_factor_on=True, second_factor_at=1000))
    assert (proved.second_factor_on, proved.second_factor_at, fresh_until(proved)) == (True, 1000,
                                                                                      1000 + STEP_UP_SECONDS)


def test_fresh_stale_and_never(keys):
    signer, verifier = keys
    now = int(time.time())

    def principal(on: bool, at: int | None):
        return verifier.verify(signer.sign(uuid.uuid4(), "INFLUENCER", 0, second_factor_on=on,
                                           second_factor_at=at))
    require_fresh_second_factor(principal(False, None), now)  # no factor on: nothing to ask
    require_fresh_second_factor(principal(True, now - STEP_UP_SECONDS), now)  # the last second still counts
    for stale in (principal(True, now - STEP_UP_SECONDS - 1), principal(True, None)):
        with pytest.raises(StepUpRequired) as refused:
            require_fresh_second_factor(stale, now)
        assert refused.value.status == 401 and refused.value.code == "step_up_required"
