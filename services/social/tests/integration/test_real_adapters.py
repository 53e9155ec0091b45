"""The real adapters against locally served responses in the providers' shapes (no network):
the Instagram API with Instagram Login over httpx, instagrapi's exception mapping (with a stand-in
client), and the service end to end with the real instagrapi client (see also
test_instagrapi_private_api.py)."""

import asyncio
import json
import logging
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from instagrapi import exceptions as ig
from pinbid_social.adapters.instagram_graph import InstagramGraph
from pinbid_social.adapters.instagrapi_pinning import InstagrapiPinning, default_client
from pinbid_social.ports import LoginProblem, MediaRef, ProviderError, ProviderRejected, SessionExpired

from .fake_instagram import APP_ID, APP_SECRET, fake_instagram
from .fake_private_api import Account, FakePrivateApi, route_to


def graph(app, *, timeout: float = 2.0, base: str = "http://graph.local") -> InstagramGraph:
    return InstagramGraph(app_id=APP_ID, app_secret=APP_SECRET, authorize_url="https://www.instagram.com/oauth/authorize",
                          api_url="http://api.local", graph_url=base, version="v21.0", timeout=timeout,
                          transport=httpx.ASGITransport(app=app) if app else None)


def test_the_authorize_url_asks_for_the_business_scopes_and_forces_reauthentication():
    url = graph(None).authorize_url(state="s1", redirect_uri="http://pinbid.test/api/instagram/callback",
                                    login_hint="ignored")
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://www.instagram.com/oauth/authorize"
    assert query == {"client_id": [APP_ID], "redirect_uri": ["http://pinbid.test/api/instagram/callback"],
                     "response_type": ["code"], "state": ["s1"], "force_reauth": ["true"],
                     "scope": ["instagram_business_basic,instagram_business_manage_comments,"
                               "instagram_business_manage_insights"]}


async def test_code_exchange_long_lived_token_refresh_media_comments_and_posting(caplog):
    caplog.set_level(logging.DEBUG)
    app = fake_instagram()
    api = graph(app)
    grant = await api.exchange_code("good-code", "http://pinbid.test/api/instagram/callback")
    assert grant.access_token == "IGQVJlongshort-good-code" and grant.instagram_user_id == "17841400000000001"
    with pytest.raises(ProviderRejected):
        await api.exchange_code("good-code", "http://pinbid.test/api/instagram/callback")  # used
    profile = await api.profile(grant.access_token)
    assert (profile.username, profile.followers, profile.account_type) == ("maya.makes", 48210, "MEDIA_CREATOR")
    media = await api.recent_media(grant.access_token, 12)
    assert [(m.id, m.views, m.like_count) for m in media] == [("17900000000000001", 30000, 900),
                                                            ("17900000000000002", 52000, 1500)]
    assert media[1].media_type == "VIDEO" and media[0].posted_at.year == 2026
    comments = await api.comments(grant.access_token, "17900000000000001")
    assert [(c.username, c.replies) for c in comments] == [("northwind.coffee", 1), ("lena.loops", 0)]
    new_id = await api.post_comment(grant.access_token, "17900000000000001", "Hi — Partner: X #ad")
    figures = await api.comment_figures(grant.access_token, new_id)
    assert figures.exists and figures.likes == 7 and figures.replies == 2
    assert not (await api.comment_figures(grant.access_token, "404")).exists
    refreshed = await api.refresh(grant.access_token)
    assert refreshed.access_token == grant.access_token + "r"
    with pytest.raises(ProviderRejected) as rejected:
        await api.profile("revoked")
    assert rejected.value.status == 401
    # the Graph calls carried the token in the Authorization header, not the URL
    graph_calls = [q for m, path, q in app.state.requests if path.startswith("/v21.0")]
    assert graph_calls and all("access_token" not in q for q in graph_calls)
    logs = "\n".join(r.getMessage() for r in caplog.records)
    assert "good-code" not in logs and APP_SECRET not in logs and grant.access_token not in logs
    await api.close()


async def test_the_graph_client_carries_no_cookie_from_one_creators_call_to_anothers():
    """Issue 30: one client serves every creator; a cookie Instagram sets answering one (a load balancer's, a
    session's) is not kept and sent with the next creator's calls."""
    seen: list[str | None] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers.get("cookie"))
        return httpx.Response(200, json={"user_id": "17841400000000001", "username": "maya.makes",
                                         "account_type": "MEDIA_CREATOR", "followers_count": 10},
                              headers={"set-cookie": "ig_session=maya; Path=/; Domain=graph.instagram.test"})

    api = InstagramGraph(app_id=APP_ID, app_secret=APP_SECRET, authorize_url="https://www.instagram.com/oauth/authorize",
                         api_url="https://api.instagram.test", graph_url="https://graph.instagram.test",
                         version="v21.0", timeout=2, transport=httpx.MockTransport(answer))
    await api.profile("maya-token")
    await api.profile("lena-token")
    await api.close()
    assert seen == [None, None]


async def test_a_provider_that_hangs_times_out():
    hang_up = asyncio.Event()

    async def never_answer(reader, writer):
        await hang_up.wait()  # answers nothing until the test is over
        writer.close()

    server = await asyncio.start_server(never_answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    api = graph(None, timeout=0.3, base=f"http://127.0.0.1:{port}")
    started = asyncio.get_running_loop().time()
    with pytest.raises(ProviderError) as failed:
        await api.recent_media("token", 5)
    assert "in time" in failed.value.detail and asyncio.get_running_loop().time() - started < 2
    hang_up.set()
    server.close()
    await api.close()


class FakeClient:
    """Stands in for instagrapi.Client: same method names, raises instagrapi's own exceptions."""

    def __init__(self, *, login_error=None, pin_result=True, pin_error=None, hang=0.0):
        self.login_error, self.pin_result, self.pin_error, self.hang = login_error, pin_result, pin_error, hang
        self.settings = {}
        self.calls = []

    def login(self, username, password, verification_code=""):
        import time
        time.sleep(self.hang)
        self.calls.append(("login", username, verification_code))
        if self.login_error:
            raise self.login_error
        self.settings = {"authorization_data": {"sessionid": "SESSION-SECRET"}, "uuids": {}}
        return True

    def get_settings(self):
        return self.settings

    def set_settings(self, settings):
        self.settings = settings

    def media_pk_from_url(self, url):
        return 3141592653589793238

    def comment_pin(self, media_pk, comment_pk):
        self.calls.append(("pin", media_pk, comment_pk, self.settings))
        if self.pin_error:
            raise self.pin_error
        return self.pin_result

    def private_request(self, endpoint, params=None):
        return {"comments": [{"pk": 17850000000000001, "is_pinned": True}, {"pk": 2, "is_pinned": False}],
                "status": "ok"}


@pytest.mark.parametrize(("error", "kind", "words"), [
    (ig.BadPassword("bad"), "bad_password", "password is wrong"),
    (ig.TwoFactorRequired("2fa"), "two_factor_required", "two-factor code"),
    (ig.ChallengeRequired("challenge"), "challenge_required", "This was me"),
    (ig.PleaseWaitFewMinutes("wait"), "rate_limited", "wait a few minutes"),
])
async def test_instagrapi_login_problems_become_clear_instructions(error, kind, words):
    pinning = InstagrapiPinning(timeout=2, client_factory=lambda: FakeClient(login_error=error))
    with pytest.raises(LoginProblem) as problem:
        await pinning.login("maya.makes", "pw", None)
    assert problem.value.kind == kind and words in problem.value.detail


async def test_instagrapi_keeps_only_the_session_and_pins_with_it():
    clients = []

    def factory():
        clients.append(FakeClient())
        return clients[-1]

    pinning = InstagrapiPinning(timeout=2, client_factory=factory)
    session = await pinning.login("maya.makes", "the-password", "123456")
    assert "the-password" not in session and json.loads(session)["authorization_data"]["sessionid"]
    assert clients[0].calls == [("login", "maya.makes", "123456")]
    media = MediaRef("17900000000000001", "https://www.instagram.com/p/DAbCdEfGhIj/")
    await pinning.pin(session, media, "17850000000000001")
    assert clients[1].calls[0][:3] == ("pin", 3141592653589793238, 17850000000000001)
    assert clients[1].calls[0][3] == json.loads(session)  # the stored session, not a new login
    assert await pinning.pinned_comment_ids(session, media) == {"17850000000000001"}


async def test_instagrapi_action_failures_and_timeouts():
    expired = InstagrapiPinning(timeout=2, client_factory=lambda: FakeClient(pin_error=ig.LoginRequired("x")))
    with pytest.raises(SessionExpired):
        await expired.pin("{}", MediaRef("1", "https://www.instagram.com/p/x/"), "2")
    refused = InstagrapiPinning(timeout=2, client_factory=lambda: FakeClient(pin_result=False))
    with pytest.raises(ProviderError, match="did not confirm"):
        await refused.pin("{}", MediaRef("1", "https://www.instagram.com/p/x/"), "2")
    slow = InstagrapiPinning(timeout=0.2, client_factory=lambda: FakeClient(hang=1.0))
    with pytest.raises(ProviderError, match="in time"):
        await slow.login("maya.makes", "pw", None)


async def test_the_service_connects_and_pins_through_the_real_adapters(settings, jwt_keys, clock):
    import uuid
    from datetime import UTC, datetime

    from pinbid_kit.events.marketplace import BidAwarded, CommentApproved
    from pinbid_social.adapters import Providers
    from pinbid_social.app import build
    from pinbid_testing import running

    from ..conftest import Harness

    fake = fake_instagram()
    private = FakePrivateApi(accounts={"maya.makes": Account("maya.makes", "pw", 4242, challenge=True)},
                             any_comment=True)
    server = private.serve()
    factory = lambda: route_to(default_client(0), private)  # noqa: E731 -- the real instagrapi.Client

    providers = Providers(api=graph(fake), pinning=InstagrapiPinning(timeout=10, client_factory=factory),
                          redirect_uri="http://pinbid.test/api/instagram/callback")
    service = build(settings, providers=providers, clock=clock)
    service.jobs = []
    async with running(service):
        social = Harness(service, jwt_keys.signer, clock)
        creator = await social.user(handle="maya.makes")
        url, cookie = await social.start_connect(creator)
        state = parse_qs(urlsplit(url).query)["state"][0]
        assert url.startswith("https://www.instagram.com/oauth/authorize?")
        location = await social.callback(f"/instagram/callback?code=good-code&state={state}", cookie)
        assert location.endswith("connected=1")
        posts = (await social.http.get("/instagram/posts", headers=social.auth(creator))).json()
        assert [p["views"] for p in posts] == [30000, 52000]
        login = await social.http.post("/influencer/instagram-login", headers=social.auth(creator),
                                       json={"username": "maya.makes", "password": "pw"})
        assert login.status_code == 409 and login.json()["code"] == "challenge_required", login.text
        private.accounts["maya.makes"].challenge = False  # approved in the app ("This was me")
        wrong = await social.http.post("/influencer/instagram-login", headers=social.auth(creator),
                                       json={"username": "maya.makes", "password": "nope"})
        assert wrong.status_code == 422 and wrong.json()["code"] == "bad_password", wrong.text
        login = await social.http.post("/influencer/instagram-login", headers=social.auth(creator),
                                       json={"username": "maya.makes", "password": "pw"})
        assert login.status_code == 200, login.text
        bid_id, slot_id, buyer_id = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
        await social.deliver(BidAwarded(bid_id=bid_id, slot_id=slot_id, creator_id=creator, buyer_id=buyer_id,
                                        buyer_name="Leo", business_name="Northwind Coffee", post_id=posts[0]["id"],
                                        comment_text="Great roast", final_price_cents=100, duration_days=7))
        await social.deliver(CommentApproved(bid_id=bid_id, slot_id=slot_id, creator_id=creator, buyer_id=buyer_id,
                                             text="Ad · Northwind Coffee: Great roast", approved_at=datetime.now(UTC)))
        pinned = await social.http.put(f"/influencer/pin-comment/{bid_id}", headers=social.auth(creator))
        assert pinned.status_code == 200, pinned.text
        posted = [q for m, path, q in fake.state.requests if m == "POST" and path.endswith("/comments")]
        assert posted == [{"message": "Ad · Northwind Coffee: Great roast"}]  # the approved text, exactly
        pin = private.calls[-1]
        assert pin.path.endswith(f"/pin_comment/{pinned.json()['commentId']}/") and pin.form["_uid"] == 4242
        await social.http.aclose()
    server.shutdown()
    server.server_close()
