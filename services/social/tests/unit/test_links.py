"""Vanity links' rules: safe destinations, UTM parameters, who counts."""

from urllib.parse import urlsplit

import pytest
from hypothesis import example, given, settings
from pinbid_social.domain import links

from ..broken_inputs import FOUND_URLS, link_spellings

LINK_CASES = 400


def test_only_https_pages_of_real_hosts_are_destinations():
    assert links.destination(" https://northwind.coffee/offer?x=1 ") == "https://northwind.coffee/offer?x=1"
    for bad in ("http://northwind.coffee", "javascript:alert(1)", "data:text/html,hi", "https://localhost/x",
                "https://10.0.0.1/", "https://user:pw@northwind.coffee/", "https://northwind", "https://a.b/\x00",
                "https://a.b/" + "x" * 2001, "", "ftp://a.b/"):
        with pytest.raises(links.BadLink):
            links.destination(bad)


def test_utm_parameters_are_added_and_the_brands_own_kept():
    url = links.with_utm("https://northwind.coffee/offer?ref=ig&utm_source=mine#top", "summer-drop")
    assert url == ("https://northwind.coffee/offer?ref=ig&utm_source=mine&utm_medium=instagram_pinned_comment"
                   "&utm_campaign=summer-drop#top")


def test_bots_previews_scripts_and_head_requests_do_not_count():
    browser = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Instagram 350.0"
    assert links.counts("GET", browser)
    for agent in ("Googlebot/2.1", "facebookexternalhit/1.1", "WhatsApp/2.23", "curl/8.0", "python-requests/2",
                  "Slackbot-LinkExpanding 1.0", "Mozilla/5.0 HeadlessChrome/120", ""):
        assert not links.counts("GET", agent), agent
    assert not links.counts("HEAD", browser)


def test_codes_promo_codes_and_visitors():
    code = links.new_code()
    assert links.CODE.match(code) and links.new_code() != code
    assert links.promo_code(" SUMMER-25 ") == "SUMMER-25" and links.promo_code("") is None
    with pytest.raises(links.BadLink):
        links.promo_code("no spaces allowed")
    one = links.visitor("203.0.113.9", "Safari", b"k")
    assert one == links.visitor("203.0.113.9", "Safari", b"k") != links.visitor("203.0.113.9", "Chrome", b"k")
    assert "203.0.113.9" not in one


# --- spellings that answered 500 or were stored before (issue 30) -----------------------------------------------

@pytest.mark.parametrize("url", FOUND_URLS)
def test_each_found_spelling_is_a_bad_link_for_the_url_field(url):
    with pytest.raises(links.BadLink) as refused:
        links.destination(url)
    assert refused.value.field == "url" and refused.value.message.endswith(".")


@pytest.mark.parametrize("url", ["https://brand.com／evil", "https://brand.com＃frag", "https://[brand.com/",
                                 "https://brand.com]/"])
def test_a_host_python_cannot_split_is_explained(url):
    with pytest.raises(links.BadLink, match="not a valid web address"):
        links.destination(url)


@pytest.mark.parametrize("port", ["abc", "99999", "65536", "0", "", "+443", "٤٤٣", "443:80"])
def test_impossible_ports_are_refused(port):
    with pytest.raises(links.BadLink, match="port"):
        links.destination(f"https://northwind.coffee:{port}/offer")


@pytest.mark.parametrize("port", ["25", "22", "6667", "10080"])
def test_ports_browsers_block_are_refused(port):
    with pytest.raises(links.BadLink, match=f"port {port}"):
        links.destination(f"https://northwind.coffee:{port}/")


@pytest.mark.parametrize("port", ["443", "8443", "080", "65535"])
def test_real_ports_pass(port):
    assert links.destination(f"https://northwind.coffee:{port}/offer") == f"https://northwind.coffee:{port}/offer"


def test_a_stored_target_that_fails_todays_rule_is_not_followable():
    assert links.followable("https://northwind.coffee/offer")
    assert not links.followable("https://northwind.coffee:99999/offer")
    assert not links.followable("https://lınkedin.com/")
    assert not links.followable("https://a／b.com/")


@settings(max_examples=LINK_CASES, deadline=None, database=None)
@given(link_spellings())
@example("https://brand.com／evil")
@example("https://[brand.com/")
@example("https://brand.com:abc/")
@example("https://lınkedin.com/")
def test_any_spelling_is_a_destination_or_a_bad_link_never_another_error(url):
    try:
        kept = links.destination(url)
    except links.BadLink as bad:
        assert bad.field == "url" and bad.message.endswith(".") and len(bad.message) > 20
        return
    assert links.followable(kept) and links.host_of(kept)  # what is stored can be followed and checked later
    assert urlsplit(links.with_utm(kept, "x")).hostname == urlsplit(kept).hostname
