"""The sandbox owner cookie: names one account until it expires, and nothing when forged or malformed."""

from pinbid_social.domain.sandbox_owner import TTL_SECONDS, read_owner, sign_owner

KEY, OTHER_KEY = b"k" * 32, b"o" * 32


def test_the_cookie_names_its_account_until_it_expires():
    cookie = sign_owner(KEY, "17841400000000001", now=1_000)
    assert read_owner(KEY, cookie, now=1_000 + TTL_SECONDS - 1) == "17841400000000001"
    assert read_owner(KEY, cookie, now=1_000 + TTL_SECONDS) is None


def test_a_forged_renamed_or_malformed_cookie_names_nobody():
    account, expires, mac = sign_owner(KEY, "acct-1", now=0).split(".")
    assert read_owner(OTHER_KEY, f"{account}.{expires}.{mac}", now=1) is None
    assert read_owner(KEY, f"acct-2.{expires}.{mac}", now=1) is None
    assert read_owner(KEY, f"{account}.{int(expires) + 1}.{mac}", now=1) is None
    for bad in (None, "", "a.b", "a.b.c.d", f".{expires}.{mac}"):
        assert read_owner(KEY, bad, now=1) is None
