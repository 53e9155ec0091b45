from datetime import UTC, datetime, timedelta

import pyotp
from hypothesis import given
from hypothesis import strategies as st
from pinbid_identity.domain.second_factor import accepted_step, code_at, current_step, new_secret
from pinbid_identity.domain.signals import device_id
from pinbid_kit.events.trust import signal_hash

SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
NOW = datetime(2026, 11, 26, 10, 0, 15, tzinfo=UTC)


def test_the_code_of_now_or_one_step_either_side_is_accepted_and_names_its_step():
    step = current_step(NOW)
    for offset in (-1, 0, 1):
        code = code_at(SECRET, NOW + timedelta(seconds=30 * offset))
        assert accepted_step(SECRET, code, NOW, None) == step + offset
    assert accepted_step(SECRET, code_at(SECRET, NOW + timedelta(seconds=60)), NOW, None) is None
    assert accepted_step(SECRET, code_at(SECRET, NOW - timedelta(seconds=60)), NOW, None) is None


def test_a_step_already_accepted_and_every_earlier_one_is_refused():
    step = current_step(NOW)
    assert accepted_step(SECRET, code_at(SECRET, NOW), NOW, step) is None
    assert accepted_step(SECRET, code_at(SECRET, NOW - timedelta(seconds=30)), NOW, step) is None
    assert accepted_step(SECRET, code_at(SECRET, NOW + timedelta(seconds=30)), NOW, step) == step + 1


def test_the_codes_are_rfc_6238s_as_authenticator_apps_show_them():
    assert code_at(SECRET, NOW) == pyotp.TOTP(SECRET).at(NOW)
    assert len(new_secret()) == 32 and new_secret() != new_secret()


@given(st.text(max_size=12))
def test_anything_but_six_digits_is_refused(code):
    if not (len(code.strip()) == 6 and code.strip().isascii() and code.strip().isdigit()):
        assert accepted_step(SECRET, code, NOW, None) is None


def test_device_ids_are_taken_only_in_the_shape_the_web_makes():
    web_id = "0b5e1c9a-3f6d-4c1e-9a77-2d3e4f5a6b7c"
    assert device_id(web_id, None) == web_id
    assert device_id(None, web_id) == web_id
    assert device_id("short", None) is None
    assert device_id("<script>alert(1)</script>", "x" * 200) is None
    assert device_id("bad value", web_id) == web_id  # a bad cookie does not hide a good header
    assert signal_hash("DEVICE", web_id) != signal_hash("ADDRESS", web_id)
