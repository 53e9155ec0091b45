"""The sandbox owner cookie: names one account and the connection it came from until it expires, and nothing when
forged, malformed or of the earlier form without a connection."""

import base64
import hashlib
import hmac

import pytest
from pinbid_social.domain.sandbox_owner import TTL_SECONDS, SignedOwner, read_owner, sign_owner

KEY, OTHER_KEY = b"k" * 32, b"o" * 32
CONNECTION = "5f0c2b1e9d8a4c7b8e6f1a2b3c4d5e6f"


def test_the_cookie_names_its_account_and_connection_until_it_expires():
    cookie = sign_owner(KEY, "17841400000000001", CONNECTION, now=1_000)
    assert read_owner(KEY, cookie, now=1_000 + TTL_SECONDS - 1) == SignedOwner("17841400000000001", CONNECTION)
    assert read_owner(KEY, cookie, now=1_000 + TTL_SECONDS) is None


def test_a_forged_renamed_or_malformed_cookie_names_nobody():
    account, connection, expires, mac = sign_owner(KEY, "acct-1", CONNECTION, now=0).split(".")
    assert read_owner(OTHER_KEY, f"{account}.{connection}.{expires}.{mac}", now=1) is None
    assert read_owner(KEY, f"acct-2.{connection}.{expires}.{mac}", now=1) is None
    assert read_owner(KEY, f"{account}.{'0' * 32}.{expires}.{mac}", now=1) is None  # another connection's
    assert read_owner(KEY, f"{account}.{connection}.{int(expires) + 1}.{mac}", now=1) is None
    for bad in (None, "", "a.b", "a.b.c", "a.b.c.d.e", f".{connection}.{expires}.{mac}",
                f"{account}..{expires}.{mac}"):
        assert read_owner(KEY, bad, now=1) is None


def test_a_cookie_of_the_earlier_form_without_a_connection_names_nobody():
    """Before issue 30 the cookie was account.expires.mac: it could outlive the connection, so it counts no more."""
    payload = f"acct-1.{TTL_SECONDS}"
    mac = base64.urlsafe_b64encode(hmac.new(KEY, b"sandbox-owner|" + payload.encode(), hashlib.sha256).digest())
    assert read_owner(KEY, f"{payload}.{mac.rstrip(b'=').decode()}", now=1) is None


def test_ids_with_a_dot_are_refused_when_signing():
    with pytest.raises(ValueError):
        sign_owner(KEY, "a.b", CONNECTION, now=0)
    with pytest.raises(ValueError):
        sign_owner(KEY, "acct", "", now=0)
