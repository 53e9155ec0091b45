"""The link check's adapters: Google Web Risk's uris.search over httpx (a mock transport stands for Google), and
the local deny list used without a key."""

import httpx
import pytest
from pinbid_social.adapters import link_reputation
from pinbid_social.adapters.deny_list import DenyList
from pinbid_social.adapters.web_risk import WebRisk
from pinbid_social.ports import ProviderError
from pinbid_social.settings import SocialSettings


def google(answer: httpx.Response, seen: list[httpx.Request]) -> WebRisk:
    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return answer
    return WebRisk(key="k-123", base_url="https://webrisk.test", timeout=2, transport=httpx.MockTransport(handle))


async def test_web_risk_names_the_threat_and_sends_the_key_in_a_header_not_the_url():
    seen: list[httpx.Request] = []
    risk = google(httpx.Response(200, json={"threat": {"threatTypes": ["SOCIAL_ENGINEERING"],
                                                       "expireTime": "2026-11-27T00:00:00Z"}}), seen)
    assert await risk.threat("https://evil.example-brand.io/login", "evil.example-brand.io") == "SOCIAL_ENGINEERING"
    [request] = seen
    assert request.url.path == "/v1/uris:search" and request.headers["x-goog-api-key"] == "k-123"
    assert "k-123" not in str(request.url)
    assert request.url.params.get_list("threatTypes") == ["MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE"]
    assert request.url.params["uri"] == "https://evil.example-brand.io/login"


async def test_web_risk_with_no_threat_says_none_and_a_failure_is_a_provider_error():
    assert await google(httpx.Response(200, json={}), []).threat("https://a.io/", "a.io") is None
    for failing in (httpx.Response(403, json={"error": {}}), httpx.Response(200, text="<html>")):
        with pytest.raises(ProviderError):
            await google(failing, []).threat("https://a.io/", "a.io")

    def down(request):
        raise httpx.ConnectError("refused", request=request)
    with pytest.raises(ProviderError):
        await WebRisk(key="k", base_url="https://webrisk.test", timeout=1,
                      transport=httpx.MockTransport(down)).threat("https://a.io/", "a.io")


async def test_the_deny_list_bars_a_host_and_every_name_under_it_not_its_neighbours(tmp_path):
    listed = tmp_path / "deny.txt"
    listed.write_text("# bad hosts\nbad-redirect.io  # a redirector\n\nPHISH.example-shop.com.\n")
    deny = DenyList(listed)
    assert await deny.threat("https://bad-redirect.io/x", "bad-redirect.io") == "DENY_LIST"
    assert await deny.threat("https://a.b.bad-redirect.io/", "a.b.bad-redirect.io") == "DENY_LIST"
    assert await deny.threat("https://phish.example-shop.com/", "phish.example-shop.com") == "DENY_LIST"
    assert await deny.threat("https://notbad-redirect.io/", "notbad-redirect.io") is None
    assert await deny.threat("https://example-shop.com/", "example-shop.com") is None
    assert await deny.threat("https://io/", "io") is None  # a top-level domain alone is never matched


def test_the_setting_chooses_web_risk_with_a_key_and_the_packaged_deny_list_without():
    assert isinstance(link_reputation(SocialSettings(web_risk_key="k")), WebRisk)
    packaged = link_reputation(SocialSettings(web_risk_key=""))
    assert isinstance(packaged, DenyList) and "testsafebrowsing.appspot.com" in packaged.hosts
