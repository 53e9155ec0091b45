"""Vanity links' rules: safe destinations, UTM parameters, who counts."""

import pytest
from pinbid_social.domain import links


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
