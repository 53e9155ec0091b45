"""The pinning login, PUT /influencer/pin-comment/{bidId} and "I pinned it": rules, provider failures, concurrency."""

import asyncio
import io
import itertools
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from PIL import Image
from pinbid_kit.events.marketplace import BidCommentChanged
from pinbid_kit.events.social import CommentPinned
from pinbid_social.ports import ProviderError


async def pinned_on(social, post_id) -> list[tuple]:
    return await social.sql("SELECT author, text FROM sandbox_comments WHERE media_id = :m AND pinned_at IS NOT NULL",
                            m=post_id)


async def test_the_pinning_login_refuses_a_wrong_password_and_a_foreign_username(world):
    wrong = await world.login(password="hunter2")
    assert wrong.status_code == 422 and "password is wrong" in wrong.json()["detail"]
    foreign = await world.login(username="someone.else")
    assert foreign.status_code == 422 and "@maya.makes" in foreign.json()["detail"]
    assert await world.social.sql("SELECT * FROM pin_sessions") == []
    ok = await world.login(username="@Maya.Makes")
    assert ok.status_code == 200 and ok.json()["username"] == "maya.makes"
    buyer_try = await world.social.http.post("/influencer/instagram-login", json={"username": "x", "password": "y"},
                                             headers=world.social.auth(world.buyer, "BUYER"))
    assert buyer_try.status_code == 403


async def test_a_new_text_is_posted_naming_the_brand_with_ad_then_pinned(world):
    bid = await world.bid(comment_text="Best coffee for creative mornings")
    assert (await world.pin(bid)).status_code == 401  # no pinning session yet: the client opens its login dialog
    await world.login()
    response = await world.pin(bid)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["commentText"] == "Ad · @northwind.coffee: Best coffee for creative mornings"  # disclosure first
    assert await pinned_on(world.social, world.post_id) == [("maya.makes", body["commentText"])]
    events = await world.social.events(CommentPinned.event_type)
    assert [e["bidId"] for e in events] == [str(bid)] and events[0]["commentId"] == body["commentId"]
    again = await world.pin(bid)
    assert again.status_code == 409 and "already pinned" in again.json()["detail"]


async def test_the_buyers_own_comment_is_pinned_as_it_is(world):
    comment_id = await world.buyer_comment()
    bid = await world.bid(comment_id=comment_id)
    await world.login()
    response = await world.pin(bid)
    assert response.status_code == 200, response.text
    assert response.json()["commentId"] == comment_id
    assert [a for a, _ in await pinned_on(world.social, world.post_id)] == ["northwind.coffee"]


async def test_a_comment_of_someone_else_is_refused(world):
    crowd = await world.social.sql("SELECT id FROM sandbox_comments WHERE media_id = :m AND author <> "
                                   "'northwind.coffee' LIMIT 1", m=world.post_id)
    bid = await world.bid(comment_id=crowd[0][0])
    await world.login()
    response = await world.pin(bid)
    assert response.status_code == 409 and "not written by the buyer" in response.json()["detail"]
    assert await pinned_on(world.social, world.post_id) == []
    assert (await world.social.sql("SELECT status, pin_claimed_at FROM placements"))[0] == ("AWAITING_PIN", None)


async def test_the_latest_comment_choice_wins(world):
    bid = await world.bid(comment_text="first words")
    await world.social.deliver(BidCommentChanged(bid_id=bid, slot_id=world.slot_id, buyer_id=world.buyer,
                                                 comment_text="second words"))
    await world.social.deliver(BidCommentChanged(bid_id=bid, slot_id=world.slot_id, buyer_id=world.buyer,
                                                 comment_text="stale words"), at=datetime.now(UTC) - timedelta(hours=1))
    await world.login()
    not_yet = await world.pin(bid)  # the approval was of the first words
    assert not_yet.status_code == 200 and not_yet.json()["commentText"].endswith("first words")


async def test_an_unpaid_bid_and_another_creators_bid_cannot_be_pinned(world):
    await world.login()
    unpaid = await world.bid(comment_text="hello", paid=False)
    response = await world.pin(unpaid)
    assert response.status_code == 409 and "not paid" in response.json()["detail"]
    paid = await world.bid(comment_text="hello")
    stranger = await world.social.user(handle="stranger")
    assert (await world.pin(paid, user=stranger)).status_code == 404
    assert (await world.pin(uuid.uuid4())).status_code == 404
    assert await pinned_on(world.social, world.post_id) == []


async def test_concurrent_pins_of_one_bid_post_and_pin_once(world):
    bid = await world.bid(comment_text="Only once please")
    await world.login()
    responses = await asyncio.gather(*(world.pin(bid) for _ in range(8)))
    assert sorted(r.status_code for r in responses) == [200] + [409] * 7
    posted = await world.social.sql("SELECT count(*) FROM sandbox_comments WHERE text LIKE '%Only once please'")
    assert posted == [(1,)]
    assert len(await world.social.events(CommentPinned.event_type)) == 1


class FailingPin:
    """The sandbox, except that pinning fails like a provider outage."""

    def __init__(self, inner, error: Exception):
        self.inner, self.error = inner, error

    def __getattr__(self, name):
        return getattr(self.inner, name)

    async def pin(self, *args):
        raise self.error


async def test_a_provider_failure_is_a_502_and_a_retry_does_not_post_twice(world):
    bid = await world.bid(comment_text="Retry safe")
    await world.login()
    providers = world.social.service.state["providers"]
    real = providers.pinning
    providers.pinning = FailingPin(real, ProviderError("Instagram did not answer in time. Please try again."))
    try:
        failed = await world.pin(bid)
    finally:
        providers.pinning = real
    assert failed.status_code == 502 and "did not answer in time" in failed.json()["detail"]
    assert (await world.social.sql("SELECT status, pin_claimed_at FROM placements"))[0] == ("AWAITING_PIN", None)
    assert await world.social.events(CommentPinned.event_type) == []
    assert (await world.pin(bid)).status_code == 200
    posted = await world.social.sql("SELECT count(*) FROM sandbox_comments WHERE text LIKE '%Retry safe%'")
    assert posted == [(1,)]


async def test_an_expired_pinning_session_asks_for_a_new_login(world):
    bid = await world.bid(comment_text="Session gone")
    await world.login()
    await world.social.sql("DELETE FROM sandbox_sessions RETURNING 1")
    response = await world.pin(bid)
    assert response.status_code == 401 and "log in again" in response.json()["detail"]
    assert await world.social.sql("SELECT * FROM pin_sessions") == []


async def test_nothing_is_posted_or_pinned_before_the_creator_approved_the_text(world):
    bid = await world.bid(comment_text="Not approved yet", approved=False)
    await world.login()
    refused = await world.pin(bid)
    assert refused.status_code == 409 and refused.json()["code"] == "comment_not_approved"
    assert "exactly the text you approved" in refused.json()["detail"]
    assert await pinned_on(world.social, world.post_id) == []
    await world.approve(bid, comment_text="Not approved yet")
    assert (await world.pin(bid)).json()["commentText"] == "Ad · @northwind.coffee: Not approved yet"


async def test_the_brands_comment_edited_on_instagram_after_approval_is_refused_with_the_reason(world):
    comment_id = await world.buyer_comment()
    bid = await world.bid(comment_id=comment_id)
    await world.login()
    await world.social.sql("UPDATE sandbox_comments SET text = '#ad Now with a different offer' WHERE id = :c "
                           "RETURNING id", c=comment_id)
    changed = await world.pin(bid)
    assert changed.status_code == 409 and changed.json()["code"] == "comment_changed"
    await world.social.sql("UPDATE sandbox_comments SET text = 'Our offer, no disclosure' WHERE id = :c "
                           "RETURNING id", c=comment_id)
    undisclosed = await world.pin(bid)
    assert undisclosed.status_code == 409 and undisclosed.json()["code"] == "disclosure_missing"
    assert "must begin with a clear ad disclosure" in undisclosed.json()["detail"]
    assert await pinned_on(world.social, world.post_id) == []


async def test_a_text_instagram_would_refuse_is_not_posted(world):
    bid = await world.bid(comment_text=" ".join(f"#t{n}" for n in range(31)))
    await world.login()
    refused = await world.pin(bid)
    assert refused.status_code == 409 and refused.json()["code"] == "instagram_limit"
    assert "at most 30 hashtags" in refused.json()["detail"]
    assert await world.social.sql("SELECT count(*) FROM sandbox_comments WHERE text LIKE '%#t30%'") == [(0,)]


async def manual(world) -> None:
    response = await world.social.http.put("/instagram/pin-method", json={"pinMethod": "MANUAL"},
                                           headers=world.social.auth(world.creator))
    assert response.status_code == 200 and response.json() == {"pinMethod": "MANUAL"}


def screenshot_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (90, 160), (250, 250, 250)).save(out, "PNG")
    return out.getvalue()


async def confirm(world, bid):
    return await world.social.http.post(f"/influencer/pin-comment/{bid}/confirm",
                                        headers=world.social.auth(world.creator),
                                        files={"screenshot": ("pinned.png", screenshot_png(), "image/png")})


async def owner_does(world, comment_id: str, action: str, user=None):
    """The post's owner (or `user`'s browser) in the sandbox Instagram app."""
    headers = world.social.as_sandbox_owner(user) if user is not None else \
        world.social.as_sandbox_owner(world.creator)
    return await world.social.http.post(f"/instagram/sandbox/p/{world.post_id}",
                                        data={"comment": comment_id, "action": action}, headers=headers)


async def test_the_manual_path_posts_without_a_password_and_starts_on_the_creators_word_checked(world):
    await manual(world)
    connection = (await world.social.http.get("/instagram/connection", headers=world.social.auth(world.creator)))
    assert connection.json()["pinMethod"] == "MANUAL"
    bid = await world.bid(comment_text="Pinned by hand")
    early = await confirm(world, bid)
    assert early.status_code == 409 and early.json()["code"] == "not_posted"
    posted = await world.pin(bid)  # no Instagram login needed
    assert posted.status_code == 200, posted.text
    assert posted.json()["status"] == "AWAITING_MANUAL_PIN" and "Instagram app" in posted.json()["detail"]
    comment_id = posted.json()["commentId"]
    assert await pinned_on(world.social, world.post_id) == []  # posted, not pinned: that is the creator's part
    assert await world.social.events(CommentPinned.event_type) == []

    await owner_does(world, comment_id, "pin")  # in the (sandbox) Instagram app
    answers = await asyncio.gather(*(confirm(world, bid) for _ in range(4)))
    assert sorted(a.status_code for a in answers) == [200, 409, 409, 409]
    [event] = await world.social.events(CommentPinned.event_type)
    assert (event["method"], event["commentId"]) == ("MANUAL", comment_id)
    assert (await world.social.sql("SELECT status FROM placements WHERE bid_id = :b", b=bid)) == [("PINNED",)]


async def test_i_pinned_it_is_refused_when_the_comment_is_hidden_deleted_or_changed(world):
    await manual(world)
    bid = await world.bid(comment_text="Check me")
    comment_id = (await world.pin(bid)).json()["commentId"]
    await owner_does(world, comment_id, "hide")
    hidden = await confirm(world, bid)
    assert hidden.status_code == 409 and hidden.json()["code"] == "comment_hidden"
    await owner_does(world, comment_id, "unhide")
    await world.social.sql("UPDATE sandbox_comments SET text = 'Ad · edited' WHERE id = :c RETURNING 1", c=comment_id)
    changed = await confirm(world, bid)
    assert changed.status_code == 409 and changed.json()["code"] == "comment_changed"
    await owner_does(world, comment_id, "delete")
    missing = await confirm(world, bid)
    assert missing.status_code == 409 and missing.json()["code"] == "comment_missing"
    assert await world.social.events(CommentPinned.event_type) == []
    other = await world.social.user(handle="other.creator")
    assert (await world.social.http.post(f"/influencer/pin-comment/{bid}/confirm",
                                         headers=world.social.auth(other))).status_code == 404


async def test_the_sandbox_post_page_lets_its_owner_pin_unpin_hide_and_delete(world):
    crowd = await world.social.sql("SELECT id FROM sandbox_comments WHERE media_id = :m LIMIT 4", m=world.post_id)
    for row in crowd[:3]:
        await owner_does(world, row[0], "pin")
    fourth = await owner_does(world, crowd[3][0], "pin")
    assert "at most 3 pinned" in fourth.headers["location"].replace("+", " ")
    await owner_does(world, crowd[0][0], "unpin")
    assert len(await pinned_on(world.social, world.post_id)) == 2
    page = await world.social.http.get(f"/instagram/sandbox/p/{world.post_id}",
                                       headers=world.social.as_sandbox_owner(world.creator))
    assert page.status_code == 200 and "Unpin" in page.text and "name='password'" not in page.text
    bad = await world.social.http.post(f"/instagram/sandbox/p/{world.post_id}",
                                       data={"comment": crowd[0][0], "action": "drop table"},
                                       headers=world.social.as_sandbox_owner(world.creator))
    assert bad.status_code == 422


async def test_the_sandbox_post_page_refuses_everyone_but_its_signed_in_owner(world):
    """Issue 22: anyone could unpin another creator's pinned comment with the shared sandbox password."""
    crowd = await world.social.sql("SELECT id FROM sandbox_comments WHERE media_id = :m LIMIT 2", m=world.post_id)
    await owner_does(world, crowd[0][0], "pin")
    before = await pinned_on(world.social, world.post_id)
    other = await world.social.user(handle="other.creator")
    await world.social.connect(other, username="other.creator")
    [(owner_account,)] = await world.social.sql("SELECT account_id FROM sandbox_media WHERE id = :m", m=world.post_id)
    _, connection, expires, mac = world.social.as_sandbox_owner(other)["Cookie"].split("=", 1)[1].split(".")
    attempts = [
        {},  # not signed in, with the old shared password
        world.social.as_sandbox_owner(other),  # signed in, as another account
        world.social.as_sandbox_owner(world.buyer),  # the brand whose comment it may be
        {"Cookie": f"pinbid_sandbox_owner={owner_account}.{connection}.{expires}.{mac}"},  # another's, renamed
    ]
    for headers in attempts:
        for action in ("unpin", "hide", "delete", "pin"):
            refused = await world.social.http.post(f"/instagram/sandbox/p/{world.post_id}", headers=headers,
                                                   data={"comment": crowd[0][0], "action": action,
                                                         "password": "sandbox"})
            assert refused.status_code == 403, (headers, action)
            assert "signed in to this sandbox Instagram" in refused.text
    assert await pinned_on(world.social, world.post_id) == before
    assert await world.social.sql("SELECT hidden FROM sandbox_comments WHERE id = :c", c=crowd[0][0]) == [(False,)]
    page = await world.social.http.get(f"/instagram/sandbox/p/{world.post_id}",
                                       headers=world.social.as_sandbox_owner(other))
    assert page.status_code == 200 and "<button" not in page.text and "Only @maya.makes" in page.text


async def test_an_expired_owner_cookie_signs_nobody_in(world):
    crowd = await world.social.sql("SELECT id FROM sandbox_comments WHERE media_id = :m LIMIT 1", m=world.post_id)
    world.social.clock.advance(days=31)
    refused = await owner_does(world, crowd[0][0], "pin")
    assert refused.status_code == 403


# --- no placement without proof, on any path (issue 30) ------------------------------------------------------------
# A placement is pinned under the method it was paid under, whatever the creator's setting says later; "I pinned it"
# is refused without a screenshot, and outright on a placement Pinbid pins itself; only the brand's own disclosed
# comment becomes a paid placement. Every combination of method at payment, switch afterwards and button.

METHODS = ("SESSION", "MANUAL")


async def set_method(world, method: str) -> None:
    response = await world.social.http.put("/instagram/pin-method", json={"pinMethod": method},
                                           headers=world.social.auth(world.creator))
    assert response.status_code == 200, response.text


async def confirm_without_screenshot(world, bid):
    return await world.social.http.post(f"/influencer/pin-comment/{bid}/confirm",
                                        headers=world.social.auth(world.creator))


async def placement(world, bid) -> tuple:
    [row] = await world.social.sql("SELECT status, pin_method, acceptance FROM placements WHERE bid_id = :b", b=bid)
    return tuple(row)


@pytest.mark.parametrize(("paid_under", "switched_to"), list(itertools.product(METHODS, METHODS)))
async def test_every_method_switch_and_button(world, paid_under, switched_to):
    await world.login()  # a pinning login is there: it is never what decides the path
    await set_method(world, paid_under)
    bid = await world.bid(comment_text="Proof or nothing")
    await set_method(world, switched_to)

    states = (await world.social.http.get("/influencer/pin-comment", headers=world.social.auth(world.creator))).json()
    assert states == [{"bidId": str(bid), "method": paid_under,
                       "actions": ["pin"] if paid_under == "SESSION" else ["post"]}]
    bare = await confirm_without_screenshot(world, bid)
    if paid_under == "SESSION":
        assert bare.status_code == 409 and bare.json()["code"] == "pinned_by_pinbid"
        with_shot = await confirm(world, bid)
        assert with_shot.status_code == 409 and with_shot.json()["code"] == "pinned_by_pinbid"
        pinned = await world.pin(bid)
        assert pinned.status_code == 200 and pinned.json()["status"] == "PINNED", pinned.text
        assert await placement(world, bid) == ("PINNED", "SESSION", "NOT_NEEDED")
        assert [a for a, _ in await pinned_on(world.social, world.post_id)] == ["maya.makes"]  # Pinbid pinned it
    else:
        assert bare.status_code == 409 and bare.json()["code"] == "not_posted"
        early = await confirm(world, bid)
        assert early.status_code == 409 and early.json()["code"] == "not_posted"
        posted = await world.pin(bid)  # posts, even with a login there and the setting switched to SESSION
        assert posted.status_code == 200 and posted.json()["status"] == "AWAITING_MANUAL_PIN", posted.text
        assert await pinned_on(world.social, world.post_id) == []
        states = await world.social.http.get("/influencer/pin-comment", headers=world.social.auth(world.creator))
        assert [s["actions"] for s in states.json()] == [["confirm"]]  # after a reload too
        again = await confirm_without_screenshot(world, bid)
        assert again.status_code == 422 and again.json()["code"] == "screenshot_required"
        await owner_does(world, posted.json()["commentId"], "pin")
        proved = await confirm(world, bid)
        assert proved.status_code == 200, proved.text
        assert await placement(world, bid) == ("PINNED", "MANUAL", "AWAITING")
        assert await world.social.sql("SELECT kind FROM evidence WHERE bid_id = :b", b=bid) == [("PIN",)]
    [event] = await world.social.events(CommentPinned.event_type)
    assert event["method"] == paid_under
    assert (await world.social.http.get("/influencer/pin-comment", headers=world.social.auth(world.creator))
            ).json() == []


async def test_a_fans_comment_or_an_undisclosed_one_never_becomes_a_paid_placement_in_the_app(world):
    await manual(world)
    fan = (await world.social.sql("SELECT id FROM sandbox_comments WHERE media_id = :m AND author <> "
                                  "'northwind.coffee' LIMIT 1", m=world.post_id))[0][0]
    fans = await world.bid(comment_id=fan)
    assert (await world.pin(fans)).status_code == 409  # the app path checks before telling the creator to pin
    await owner_does(world, fan, "pin")
    refused = await confirm(world, fans)
    assert refused.status_code == 409 and refused.json()["code"] == "comment_not_buyers"

    own = await world.buyer_comment()
    await world.social.sql("UPDATE sandbox_comments SET text = 'Loving this!' WHERE id = :c RETURNING 1", c=own)
    undisclosed = await world.bid(comment_id=own)
    await owner_does(world, own, "pin")
    refused = await confirm(world, undisclosed)
    assert refused.status_code == 409 and refused.json()["code"] == "disclosure_missing"
    assert await world.social.events(CommentPinned.event_type) == []
    assert await world.social.sql("SELECT count(*) FROM evidence") == [(0,)]


async def test_fifty_i_pinned_it_at_once_and_fifty_switches_make_one_pin(world):
    await manual(world)
    bid = await world.bid(comment_text="Exactly once")
    posted = await world.pin(bid)
    await owner_does(world, posted.json()["commentId"], "pin")
    switches = [set_method(world, METHODS[n % 2]) for n in range(50)]
    answers = await asyncio.gather(*(confirm(world, bid) for _ in range(50)), *switches)
    codes = [a.status_code for a in answers[:50]]
    assert codes.count(200) == 1 and codes.count(409) == 49, codes
    assert {a.json()["code"] for a in answers[:50] if a.status_code == 409} == {"not_pinnable"}
    assert len(await world.social.events(CommentPinned.event_type)) == 1
    assert await world.social.sql("SELECT count(*) FROM evidence WHERE bid_id = :b", b=bid) == [(1,)]
    assert await placement(world, bid) == ("PINNED", "MANUAL", "AWAITING")


async def test_a_pin_before_social_heard_of_the_payment_says_when_to_ask_again(world):
    unpaid = await world.bid(comment_text="Soon", paid=False)
    early = await world.pin(unpaid)
    assert early.status_code == 409 and early.json()["code"] == "payment_not_heard"
    assert early.headers["retry-after"] == "2"
