"""A short link's host must be a public website: every kind of bad host is refused, real names in any script pass."""

import pytest
from pinbid_social.domain import links
from pinbid_social.domain.hosts import BadHost, look_alike_key, public_host, skeleton

IP_LITERALS = ["127.0.0.1", "2130706433", "0177.0.0.1", "0x7f.0.0.1", "0x7f000001", "127.1", "0x7f.1",
               "017700000001", "127.0.0.1.", "169.254.169.254", "10.0.0.1", "::1", "[::1]", "::ffff:127.0.0.1",
               "[::ffff:7f00:1]", "fe80::1%25eth0", "１２７.０.０.１", "127。0。0。1", "%31%32%37.0.0.1", "1.2.3.0x4"]
SINGLE_LABEL = ["localhost", "localhost.", "LOCALHOST.", "intranet", "router", "xn--bcher-kva", "metadata"]
RESERVED = ["foo.localhost", "db.internal", "printer.local", "api.svc", "api.default.svc.cluster.local",
            "shop.test", "brand.example", "x.invalid", "nas.home.arpa", "1.0.0.127.in-addr.arpa", "example.com",
            "www.example.org", "hidden.onion", "files.corp", "wiki.lan", "box.localdomain",
            "%6c%6f%63%61%6c%68%6f%73%74.%6c%6f%63%61%6c", "例え.テスト"]
CONFUSABLE = ["pаypal.com",  # a Cyrillic а among Latin letters
              "xn--pypal-4ve.com",  # the same, already in IDNA form
              "аррӏе.com",  # wholly Cyrillic letters that look Latin, under a Latin top-level domain
              "xn--80ak6aa92e.com", "gοogle.com",  # a Greek ο
              "ѕсоре.net", "bаnk.co.uk", "miсrosoft.com"]
MALFORMED = ["", ".", "a..b.com", "-brand.com", "brand-.com", "under_score.com", "x" * 64 + ".com",
             "sp ace.com", "brand.com/evil"]
PUBLIC = {"yourbrand.com": "yourbrand.com", "Shop.NorthWind.Coffee.": "shop.northwind.coffee",
          "bücher.de": "xn--bcher-kva.de", "москва.рф": "xn--80adxhks.xn--p1ai", "日本語.jp": "xn--wgv71a119e.jp",
          "ラーメンdays.jp": "xn--days-kt4cvb3d8c.jp", "1password.com": "1password.com",
          "my-shop.co.uk": "my-shop.co.uk", "xn--bcher-kva.de": "xn--bcher-kva.de", "123.example-brand.io":
          "123.example-brand.io"}


REFUSED = ([(host, "not an IP address") for host in IP_LITERALS] + [(host, "full domain name") for host in SINGLE_LABEL]
           + [(host, "local, internal or reserved") for host in RESERVED] + [(host, "imitate") for host in CONFUSABLE]
           + [(host, None) for host in MALFORMED])  # malformed: any of the reasons


@pytest.mark.parametrize(("host", "why"), REFUSED)
def test_ip_literals_single_labels_reserved_confusable_and_malformed_names_are_refused_saying_why(host, why):
    with pytest.raises(BadHost, match=why):
        public_host(host)


@pytest.mark.parametrize(("host", "ascii_form"), PUBLIC.items())
def test_public_names_pass_in_their_idna_form(host, ascii_form):
    assert public_host(host) == ascii_form


@pytest.mark.parametrize("url", ["https://2130706433/x", "https://[::1]/", "https://0x7f.1/", "https://db.internal/",
                                 "https://pаypal.com/login", "https://localhost./", "https://%6c%6f%63%61%6c%68%6f%73%74/"])
def test_the_link_rule_refuses_them_with_a_message_for_the_url_field(url):
    with pytest.raises(links.BadLink) as refused:
        links.destination(url)
    assert refused.value.field == "url"


# --- single-script look-alikes of the names people trust (UTS #39 skeleton), issue 30 ----------------------------

LOOK_ALIKES = {"lınkedin.com": "linkedin.com",  # a dotless ı: Latin, so no mixed-script rule saw it
               "ȧpple.com": "apple.com", "appłe.com": "apple.com", "paypa1.com": "paypal.com",
               "arnazon.com": "amazon.com", "instagrarn.com": "instagram.com", "ínstagram.net": "instagram.com",
               "login.lınkedin.evil.io": "linkedin.com", "xn--lnkedin-rfb.com": "linkedin.com"}


@pytest.mark.parametrize(("host", "imitated"), LOOK_ALIKES.items())
def test_latin_look_alikes_of_trusted_names_are_refused_naming_the_name(host, imitated):
    with pytest.raises(BadHost, match=f"imitates {imitated}"):
        public_host(host)


@pytest.mark.parametrize("host", ["linkedin.com", "www.apple.com", "paypal.com", "shop.amazon.de", "apple.shop",
                                  "pineapple.com", "bücher.de", "dean.com", "1password.com", "müller.de"])
def test_trusted_names_themselves_and_unrelated_names_pass(host):
    public_host(host)


def test_the_skeleton_makes_look_alike_strings_one():
    assert skeleton("paypa1") == skeleton("paypal") and skeleton("arnazon") == skeleton("amazon")
    assert skeleton("lınkedin") == skeleton("linkedin") and skeleton("раураl") == skeleton("paypal")
    assert skeleton("apple") != skeleton("ȧpple") and look_alike_key("ȧpple") == look_alike_key("apple")
    assert skeleton("google") != skeleton("goggle")
