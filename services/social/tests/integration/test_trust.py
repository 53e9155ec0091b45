"""Trust on the "I pin in the app" path (issue 22): the screenshot with "I pinned it", who may see it, the brand's
acceptance and report, the creator's answer, the operator's decision, the job (silence, rechecks) and the end of
a placement on a refund."""

import asyncio
import io
import uuid
from datetime import datetime, timedelta

import pytest
from PIL import Image
from pinbid_kit.events.payments import PaymentRefunded
from pinbid_kit.events.social import (
    CommentPinned,
    DisputeAnswered,
    DisputeDecided,
    PlacementAccepted,
    PlacementDisputed,
    PlacementEnded,
    RecheckRequested,
    SocialOperatorAction,
)
from pinbid_social.domain.trust import ENDED_BY
from pinbid_testing import eventually
from sqlalchemy import text


def png(size=(90, 160), color=(250, 250, 250)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "PNG")
    return out.getvalue()


def shot(data: bytes | None = None, name: str = "pinned.png", kind: str = "image/png") -> dict:
    return {"screenshot": (name, png() if data is None else data, kind)}


class Trusted:
    """A MANUAL placement and the people around it."""

    def __init__(self, world):
        self.world, self.social = world, world.social
        self.operator = uuid.uuid4()

    def creator(self):
        return self.social.auth(self.world.creator)

    def brand(self):
        return self.social.auth(self.world.buyer, "BUYER")

    def ops(self):
        return self.social.auth(self.operator, "OPERATOR")

    async def manual_bid(self, duration=7) -> uuid.UUID:
        answer = await self.social.http.put("/instagram/pin-method", json={"pinMethod": "MANUAL"},
                                            headers=self.creator())
        assert answer.status_code == 200
        bid = await self.world.bid(comment_text="Pinned by hand", duration=duration)
        posted = await self.world.pin(bid)
        assert posted.status_code == 200, posted.text
        await self.social.http.post(f"/instagram/sandbox/p/{self.world.post_id}",
                                    data={"comment": posted.json()["commentId"], "action": "pin",
                                          "password": "sandbox"})
        return bid

    async def confirm(self, bid, files=None, **kwargs):
        return await self.social.http.post(f"/influencer/pin-comment/{bid}/confirm", headers=self.creator(),
                                           files=files, **kwargs)

    async def pinned(self, duration=7) -> uuid.UUID:
        bid = await self.manual_bid(duration)
        answer = await self.confirm(bid, shot())
        assert answer.status_code == 200, answer.text
        return bid

    async def trust(self, bid, headers=None):
        return await self.social.http.get(f"/instagram/placements/{bid}/trust", headers=headers or self.brand())

    async def accept(self, bid):
        return await self.social.http.post(f"/buyer/placements/{bid}/accept", headers=self.brand())

    async def report(self, bid, reason="The comment is not pinned on the post."):
        return await self.social.http.post(f"/buyer/placements/{bid}/report", headers=self.brand(),
                                           json={"reason": reason})

    async def answer(self, bid, note=None, files=None):
        return await self.social.http.post(f"/influencer/placements/{bid}/screenshot", headers=self.creator(),
                                           files=files or shot(png(color=(10, 200, 10))),
                                           data={"note": note} if note else None)

    async def decide(self, dispute_id, outcome, reason="Looked at both screenshots.", now: str | None = None):
        body = {"outcome": outcome, "reason": reason} | ({"decideNowReason": now} if now is not None else {})
        return await self.social.http.post(f"/ops/disputes/{dispute_id}/decision", headers=self.ops(), json=body)

    async def job(self):
        return await self.social.service.state["trust"].run_once()

    async def stored_files(self) -> list:
        root = self.social.service.state["settings"].object_store_dir
        return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


@pytest.fixture
async def t(world) -> Trusted:
    return Trusted(world)


# --- "I pinned it" with a screenshot ---------------------------------------------------------------------

async def test_i_pinned_it_needs_a_real_image_and_keeps_nothing_when_refused(t):
    bid = await t.manual_bid()
    missing = await t.confirm(bid)
    assert missing.status_code == 422 and missing.json()["code"] == "screenshot_required"
    text = await t.confirm(bid, shot(b"I promise it is pinned\n" * 50, "proof.png"))
    assert text.status_code == 422 and text.json()["code"] == "not_an_image"
    script = await t.confirm(bid, shot(png() + b"<script>alert(1)</script>"))
    assert script.status_code == 422 and script.json()["code"] == "not_an_image"
    truncated = png(size=(400, 400), color=(1, 2, 3))
    half = await t.confirm(bid, shot(truncated[: len(truncated) // 2]))
    assert half.status_code == 422 and half.json()["code"] == "not_an_image"
    assert await t.social.sql("SELECT status FROM placements WHERE bid_id = :b", b=bid) == [("AWAITING_PIN",)]
    assert await t.social.sql("SELECT count(*) FROM evidence") == [(0,)]
    assert await t.stored_files() == []
    assert await t.social.events(CommentPinned.event_type) == []


async def test_a_body_over_the_limit_is_413_whether_declared_or_streamed(t):
    bid = await t.manual_bid()
    huge = b"\x89PNG\r\n\x1a\n" + b"\0" * (50 * 1024 * 1024)
    declared = await t.confirm(bid, shot(huge))
    assert declared.status_code == 413 and declared.json()["code"] == "payload_too_large"

    async def chunks():  # no Content-Length: the cap counts the bytes as they come
        yield b"--b\r\nContent-Disposition: form-data; name=\"screenshot\"; filename=\"a.png\"\r\n\r\n"
        for _ in range(7):
            yield b"\0" * (1024 * 1024)
        yield b"\r\n--b--\r\n"

    streamed = await t.social.http.post(f"/influencer/pin-comment/{bid}/confirm", content=chunks(),
                                        headers={**t.creator(), "Content-Type": "multipart/form-data; boundary=b"})
    assert streamed.status_code == 413
    assert await t.social.sql("SELECT count(*) FROM evidence") == [(0,)] and await t.stored_files() == []
    assert await t.social.sql("SELECT status FROM placements WHERE bid_id = :b", b=bid) == [("AWAITING_PIN",)]


async def test_a_manual_pin_with_a_screenshot_awaits_the_brands_acceptance(t):
    bid = await t.pinned()
    [event] = await t.social.events(CommentPinned.event_type)
    assert (event["method"], event["awaitsAcceptance"]) == ("MANUAL", True)
    body = (await t.trust(bid)).json()
    assert body["method"] == "MANUAL" and body["acceptance"]["status"] == "AWAITING"
    accept_by = datetime.fromisoformat(body["acceptance"]["acceptBy"])
    assert accept_by == t.social.clock() + timedelta(hours=72)
    [evidence] = body["evidence"]
    assert evidence["kind"] == "PIN" and evidence["url"] == f"/api/instagram/placements/{bid}/evidence/{evidence['id']}"
    assert body["dispute"] is None and body["ended"] is False and body["recheck"] is None
    recheck_at = (await t.social.sql("SELECT recheck_at, pinned_at, ends_at FROM placements"))[0]
    assert recheck_at[1] < recheck_at[0] <= recheck_at[2] - timedelta(hours=24)  # within, 24 h left to answer


async def test_evidence_is_served_only_to_the_brand_the_creator_and_operators(t):
    bid = await t.pinned()
    evidence_id = (await t.trust(bid)).json()["evidence"][0]["id"]
    path = f"/instagram/placements/{bid}/evidence/{evidence_id}"
    for headers in (t.brand(), t.creator(), t.ops()):
        image = await t.social.http.get(path, headers=headers)
        assert image.status_code == 200 and image.headers["content-type"] == "image/png"
        assert image.headers["x-content-type-options"] == "nosniff"
        assert image.headers["content-security-policy"] == "default-src 'none'; sandbox"
        assert image.headers["cache-control"].startswith("private")
        assert Image.open(io.BytesIO(image.content)).size == (90, 160)
    stranger = await t.social.user("BUYER", name="Other Brand")
    other_creator = await t.social.user(handle="someone.else")
    for headers in (t.social.auth(stranger, "BUYER"), t.social.auth(other_creator)):
        assert (await t.social.http.get(path, headers=headers)).status_code == 404
        assert (await t.trust(bid, headers)).status_code == 404
    wrong = await t.social.http.get(f"/instagram/placements/{bid}/evidence/{uuid.uuid4()}", headers=t.brand())
    assert wrong.status_code == 404


async def test_the_session_path_needs_no_acceptance(t):
    await t.world.login()
    bid = await t.world.bid(comment_text="Pinned by Pinbid")
    assert (await t.world.pin(bid)).status_code == 200
    body = (await t.trust(bid)).json()
    assert body["method"] == "SESSION" and body["acceptance"]["status"] == "NOT_NEEDED" and body["evidence"] == []
    [event] = await t.social.events(CommentPinned.event_type)
    assert event["awaitsAcceptance"] is False
    refused = await t.accept(bid)
    assert refused.status_code == 409 and refused.json()["code"] == "not_awaiting"


# --- the brand ---------------------------------------------------------------------------------------------

async def test_looks_right_accepts_once(t):
    bid = await t.pinned()
    answers = await asyncio.gather(t.accept(bid), t.accept(bid))
    assert sorted(a.status_code for a in answers) == [200, 409]
    ok = next(a for a in answers if a.status_code == 200).json()["acceptance"]
    assert (ok["status"], ok["acceptedBy"]) == ("ACCEPTED", "BRAND")
    [event] = await t.social.events(PlacementAccepted.event_type)
    assert (event["bidId"], event["by"]) == (str(bid), "BRAND")
    other = await t.social.user("BUYER")
    assert (await t.social.http.post(f"/buyer/placements/{bid}/accept",
                                     headers=t.social.auth(other, "BUYER"))).status_code == 404
    creator_try = await t.social.http.post(f"/buyer/placements/{bid}/accept", headers=t.creator())
    assert creator_try.status_code == 403


async def test_looks_right_and_report_pressed_at_once_leave_one_consistent_story(t):
    for _ in range(3):
        bid = await t.pinned()
        accepted, reported = await asyncio.gather(t.accept(bid), t.report(bid))
        assert reported.status_code == 200  # a report is allowed in the window and after acceptance
        accepted_events = [e for e in await t.social.events(PlacementAccepted.event_type) if e["bidId"] == str(bid)]
        disputes = [e for e in await t.social.events(PlacementDisputed.event_type) if e["bidId"] == str(bid)]
        assert len(disputes) == 1
        if accepted.status_code == 200:  # accepted first, then reported: both recorded, in that order
            assert len(accepted_events) == 1
        else:
            assert accepted.status_code == 409 and accepted.json()["code"] == "already_disputed"
            assert accepted_events == []
        await t.social.sql("UPDATE placements SET status = 'COMPLETED' WHERE bid_id = :b RETURNING 1", b=bid)


@pytest.mark.parametrize("press", ["accept", "report"])
async def test_looks_right_and_report_take_their_time_once_the_placement_is_theirs(t, press):
    """The record's order is the order things happened: the time is read after the placement's row is locked."""
    bid = await t.pinned()
    pressed_at = t.social.clock()
    async with t.social.service.db.transaction() as session:
        await session.execute(text("SELECT 1 FROM placements WHERE bid_id = :b FOR UPDATE"), {"b": bid})
        waiting = asyncio.create_task(getattr(t, press)(bid))

        async def the_press_waits_for_the_row() -> bool:
            return bool(await t.social.sql(
                "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"))

        await eventually(the_press_waits_for_the_row, within=10)
        t.social.clock.advance(minutes=5)
    assert (await waiting).status_code == 200
    column = "accepted_at FROM placements" if press == "accept" else "reported_at FROM disputes"
    [(at,)] = await t.social.sql(f"SELECT {column} WHERE bid_id = :b", b=bid)
    assert at == pressed_at + timedelta(minutes=5)


async def test_an_upload_for_a_bid_that_is_not_the_creators_or_waits_for_nothing_is_refused_unread(t):
    """Whose bid it is and whether it waits for a screenshot are asked before the body is read or decoded: a made-up
    or someone else's bid is a 404 and a placement waiting for nothing a 409, whatever the body holds."""
    pinned = await t.pinned()
    garbage = shot(b"not an image at all" * 100)
    huge = shot(b"\x89PNG\r\n\x1a\n" + b"\0" * (8 * 1024 * 1024))
    for body in (garbage, huge):
        made_up = await t.confirm(uuid.uuid4(), body)
        assert made_up.status_code == 404, made_up.text
        someone_elses = await t.social.http.post(f"/influencer/placements/{pinned}/screenshot", files=body,
                                                 headers=t.social.auth(await t.social.user(handle="other")))
        assert someone_elses.status_code == 404
        nothing = await t.answer(pinned, files=body)
        assert nothing.status_code == 409 and nothing.json()["code"] == "nothing_to_answer"
        again = await t.confirm(pinned, body)
        assert again.status_code == 409 and again.json()["code"] == "not_pinnable"
    assert await t.social.sql("SELECT count(*) FROM evidence") == [(1,)]


async def test_a_second_report_while_one_is_open_and_a_report_after_the_end_are_409(t):
    bid = await t.pinned()
    first = await t.report(bid, "Not pinned when I looked.")
    assert first.status_code == 200
    dispute = first.json()["dispute"]
    assert (dispute["status"], dispute["reporter"], dispute["reason"]) == ("OPEN", "BRAND", "Not pinned when I looked.")
    assert datetime.fromisoformat(dispute["answerBy"]) == t.social.clock() + timedelta(hours=48)
    again = await t.report(bid)
    assert again.status_code == 409 and again.json()["code"] == "already_disputed"
    blank = await t.report(bid, "")
    assert blank.status_code == 422
    await t.social.sql("UPDATE placements SET status = 'COMPLETED' WHERE bid_id = :b RETURNING 1", b=bid)
    late = await t.report(bid)
    assert late.status_code == 409 and late.json()["code"] == "placement_ended"
    assert len(await t.social.events(PlacementDisputed.event_type)) == 1


# --- what each side may do now (the trust view's actions) ------------------------------------------------

def _open(body: dict) -> dict:
    """The view's actions as {name: until} for those open now."""
    return {name: action["until"] for name, action in body["actions"].items() if action["open"]}


async def test_the_trust_view_tells_the_brand_and_the_creator_what_each_may_do_and_by_when(t):
    bid = await t.pinned()
    brand = (await t.trust(bid)).json()
    assert _open(brand) == {"accept": brand["acceptance"]["acceptBy"], "report": None}
    assert _open((await t.trust(bid, t.creator())).json()) == {}
    assert _open((await t.trust(bid, t.ops())).json()) == {}

    reported = (await t.report(bid)).json()  # the report's own answer already says what is left
    assert _open(reported) == {}
    creator = (await t.trust(bid, t.creator())).json()
    assert _open(creator) == {"answer": reported["dispute"]["answerBy"]} and creator["actions"]["answer"]["kind"] \
        == "ANSWER"
    answer_by = datetime.fromisoformat(creator["actions"]["answer"]["until"])
    assert answer_by == t.social.clock() + timedelta(hours=48)
    t.social.clock.advance(hours=48, seconds=1)
    assert _open((await t.trust(bid, t.creator())).json()) == {}  # the window closed at the server's clock


async def test_after_looks_right_the_brand_may_only_report_and_the_creator_answers_a_recheck(t):
    bid = await t.pinned()
    accepted = (await t.accept(bid)).json()
    assert _open(accepted) == {"report": None}
    [(recheck_at,)] = await t.social.sql("SELECT recheck_at FROM placements WHERE bid_id = :b", b=bid)
    t.social.clock.now = max(t.social.clock.now, recheck_at)
    await t.job()
    creator = (await t.trust(bid, t.creator())).json()
    assert _open(creator) == {"answer": creator["recheck"]["answerBy"]}
    assert creator["actions"]["answer"]["kind"] == "RECHECK"
    answered = (await t.answer(bid)).json()
    assert _open(answered) == {} and answered["actions"]["answer"] == {"open": False, "until": None, "kind": None}


# --- the creator's answer and the operator ----------------------------------------------------------------

async def test_reported_answered_and_decided_once(t):
    bid = await t.pinned()
    dispute_id = (await t.report(bid)).json()["dispute"]["id"]
    nothing = await t.social.http.post(f"/influencer/placements/{bid}/screenshot", headers=t.creator())
    assert nothing.status_code == 422 and nothing.json()["code"] == "screenshot_required"
    answered = await t.answer(bid, note="It is pinned, see the new screenshot.")
    assert answered.status_code == 200, answered.text
    body = answered.json()
    assert body["dispute"]["creatorNote"] == "It is pinned, see the new screenshot."
    assert [e["kind"] for e in body["evidence"]] == ["PIN", "ANSWER"]
    twice = await t.answer(bid)
    assert twice.status_code == 409 and twice.json()["code"] == "already_answered"
    assert len(await t.social.events(DisputeAnswered.event_type)) == 1

    listed = await t.social.http.get("/ops/disputes?status=OPEN", headers=t.ops())
    [item] = listed.json()
    assert (item["id"], item["bidId"], item["reporter"], item["creatorName"], item["buyerName"], item["amount"]) == (
        dispute_id, str(bid), "BRAND", "Maya Creator", "Northwind Coffee", 40.0)
    assert item["postUrl"] and item["answeredAt"]
    assert (await t.social.http.get("/ops/disputes", headers=t.brand())).status_code == 403
    detail = (await t.social.http.get(f"/ops/disputes/{dispute_id}", headers=t.ops())).json()
    assert [h["by"] for h in detail["history"]] == ["BRAND", "CREATOR"]
    evidence = detail["evidence"][1]
    assert evidence["url"] == f"/api/ops/disputes/{dispute_id}/evidence/{evidence['id']}"
    image = await t.social.http.get(f"/ops/disputes/{dispute_id}/evidence/{evidence['id']}", headers=t.ops())
    assert image.status_code == 200 and image.headers["x-content-type-options"] == "nosniff"

    decisions = await asyncio.gather(t.decide(dispute_id, "CONTINUE"), t.decide(dispute_id, "REFUND_ALL"))
    assert sorted(d.status_code for d in decisions) == [200, 409]
    loser = next(d for d in decisions if d.status_code == 409)
    assert loser.json()["code"] == "already_decided"
    winner = next(d for d in decisions if d.status_code == 200).json()
    [decided] = await t.social.events(DisputeDecided.event_type)
    assert decided["outcome"] == winner["outcome"] and decided["operatorId"] == str(t.operator)
    [action] = await t.social.events(SocialOperatorAction.event_type)
    assert (action["action"], action["objectId"]) == ("dispute.decide", dispute_id)
    assert [h["by"] for h in winner["history"]] == ["BRAND", "CREATOR", f"OPERATOR {t.operator}"]
    assert (await t.decide(uuid.uuid4(), "CONTINUE")).status_code == 404


async def test_no_decision_while_the_creator_may_still_answer(t):
    bid = await t.pinned()
    dispute_id = (await t.report(bid)).json()["dispute"]["id"]
    listed = (await t.social.http.get("/ops/disputes?status=OPEN", headers=t.ops())).json()
    assert [d["awaitingAnswer"] for d in listed] == [True]
    early = await t.decide(dispute_id, "REFUND_ALL")
    assert early.status_code == 409 and early.json()["code"] == "awaiting_answer"
    assert "Decide now" in early.json()["detail"]
    empty = await t.decide(dispute_id, "REFUND_ALL", now="  ")
    assert empty.status_code == 422 and empty.json()["errors"][0]["field"] == "decideNowReason"
    # nothing changed: still open, nothing announced, the creator can still answer
    assert await t.social.sql("SELECT status, outcome FROM disputes") == [("OPEN", None)]
    assert await t.social.events(DisputeDecided.event_type) == []
    assert await t.social.events(SocialOperatorAction.event_type) == []
    assert (await t.answer(bid, note="Pinned all along.")).status_code == 200
    detail = (await t.social.http.get(f"/ops/disputes/{dispute_id}", headers=t.ops())).json()
    assert detail["awaitingAnswer"] is False
    decided = await t.decide(dispute_id, "CONTINUE")
    assert decided.status_code == 200 and decided.json()["outcome"] == "CONTINUE"
    [action] = await t.social.events(SocialOperatorAction.event_type)
    assert (action["action"], action["reason"]) == ("dispute.decide", "CONTINUE: Looked at both screenshots.")


async def test_decide_now_says_why_in_the_history_and_the_audit_log(t):
    bid = await t.pinned()
    dispute_id = (await t.report(bid)).json()["dispute"]["id"]
    decided = await t.decide(dispute_id, "REFUND_ALL", reason="The post is deleted.",
                             now="The post was deleted: no answer can change it.")
    assert decided.status_code == 200, decided.text
    body = decided.json()
    assert (body["status"], body["outcome"], body["awaitingAnswer"]) == ("DECIDED", "REFUND_ALL", False)
    assert [h["what"] for h in body["history"]][1:] == [
        "Decided before the creator's answer: The post was deleted: no answer can change it.",
        "Decided REFUND_ALL: The post is deleted."]
    [action] = await t.social.events(SocialOperatorAction.event_type)
    assert action["action"] == "dispute.decide_now"
    assert action["reason"] == ("REFUND_ALL: The post is deleted. (decided now, before the creator's answer: "
                                "The post was deleted: no answer can change it.)")
    late = await t.answer(bid)  # decided: nothing waits for the creator any more, and nothing is kept
    assert late.status_code == 409 and late.json()["code"] == "nothing_to_answer"
    assert await t.social.sql("SELECT kind FROM evidence") == [("PIN",)]
    again = await t.decide(dispute_id, "CONTINUE", now="Pressed twice.")
    assert again.status_code == 409 and again.json()["code"] == "already_decided"
    assert len(await t.social.events(DisputeDecided.event_type)) == 1


async def test_once_the_answer_window_closed_the_operator_decides_without_decide_now(t):
    bid = await t.pinned()
    dispute_id = (await t.report(bid)).json()["dispute"]["id"]
    t.social.clock.advance(hours=48)
    assert (await t.decide(dispute_id, "REFUND_UNEARNED")).json()["code"] == "awaiting_answer"  # the last moment
    t.social.clock.advance(minutes=1)
    listed = (await t.social.http.get("/ops/disputes?status=OPEN", headers=t.ops())).json()
    assert [d["awaitingAnswer"] for d in listed] == [False]
    decided = await t.decide(dispute_id, "REFUND_UNEARNED", now="Ignored: nothing to wait for.")
    assert decided.status_code == 200
    history = [h["what"] for h in decided.json()["history"]]
    assert history[1:] == ["Decided REFUND_UNEARNED: Looked at both screenshots."]
    [action] = await t.social.events(SocialOperatorAction.event_type)
    assert action["action"] == "dispute.decide"


async def test_an_answer_and_a_decision_at_once_never_decide_before_the_answer(t):
    for _ in range(3):
        bid = await t.pinned()
        dispute_id = (await t.report(bid)).json()["dispute"]["id"]
        answered, decided = await asyncio.gather(t.answer(bid), t.decide(dispute_id, "CONTINUE"))
        assert answered.status_code == 200, answered.text
        if decided.status_code == 409:
            assert decided.json()["code"] == "awaiting_answer"
            decided = await t.decide(dispute_id, "CONTINUE")
        assert decided.status_code == 200
        [(answered_at, decided_at)] = await t.social.sql(
            "SELECT answered_at, decided_at FROM disputes WHERE id = :d", d=dispute_id)
        assert answered_at is not None and answered_at <= decided_at


async def test_answering_after_48_hours_is_refused(t):
    bid = await t.pinned()
    await t.report(bid)
    t.social.clock.advance(hours=48, minutes=1)
    late = await t.answer(bid)
    assert late.status_code == 409 and late.json()["code"] == "answer_window_closed"
    assert await t.social.sql("SELECT kind FROM evidence") == [("PIN",)]
    assert len(await t.stored_files()) == 2  # the PIN screenshot and its type, the refused one removed
    other = await t.social.user(handle="other.creator")
    stranger = await t.social.http.post(f"/influencer/placements/{bid}/screenshot", headers=t.social.auth(other),
                                        files=shot())
    assert stranger.status_code == 404


# --- in simulated time ------------------------------------------------------------------------------------

async def test_app_pin_with_a_screenshot_is_accepted_by_silence_and_rechecked(t):
    bid = await t.pinned(duration=7)
    # the recheck's moment is random; placed after the window here, so each step is seen on its own
    await t.social.sql("UPDATE placements SET recheck_at = pinned_at + interval '4 days' RETURNING 1")
    t.social.clock.advance(hours=71, minutes=59)
    assert (await t.job()) == {"accepted": 0, "rechecks": 0, "missed": 0, "unpinned": 0}
    t.social.clock.advance(minutes=2)
    assert (await t.job())["accepted"] == 1
    assert (await t.job())["accepted"] == 0  # once
    [event] = await t.social.events(PlacementAccepted.event_type)
    assert event["by"] == "SILENCE"
    assert (await t.trust(bid)).json()["acceptance"]["acceptedBy"] == "SILENCE"

    [(recheck_at,)] = await t.social.sql("SELECT recheck_at FROM placements WHERE bid_id = :b", b=bid)
    t.social.clock.now = max(t.social.clock.now, recheck_at)
    assert (await t.job())["rechecks"] == 1
    [asked] = await t.social.events(RecheckRequested.event_type)
    assert datetime.fromisoformat(asked["answerBy"]) == t.social.clock() + timedelta(hours=24)
    recheck = (await t.trust(bid, t.creator())).json()["recheck"]
    assert recheck["answeredAt"] is None
    answered = await t.answer(bid)
    assert answered.status_code == 200 and answered.json()["recheck"]["answeredAt"] is not None
    assert [e["kind"] for e in answered.json()["evidence"]] == ["PIN", "RECHECK"]
    t.social.clock.advance(hours=25)
    assert (await t.job())["missed"] == 0 and await t.social.events(PlacementDisputed.event_type) == []


async def test_a_missed_recheck_opens_a_system_dispute(t):
    bid = await t.pinned(duration=7)
    await t.accept(bid)
    [(recheck_at,)] = await t.social.sql("SELECT recheck_at FROM placements WHERE bid_id = :b", b=bid)
    t.social.clock.now = max(t.social.clock.now, recheck_at)
    await t.job()
    t.social.clock.advance(hours=24, minutes=1)
    assert (await t.job())["missed"] == 1
    assert (await t.job())["missed"] == 0
    [disputed] = await t.social.events(PlacementDisputed.event_type)
    assert disputed["reporter"] == "SYSTEM" and disputed["bidId"] == str(bid)
    late = await t.answer(bid)  # the recheck is missed, but the dispute can still be answered within 48 h
    assert late.status_code == 200 and late.json()["dispute"]["answeredAt"] is not None


@pytest.mark.parametrize("outcome", ["CONTINUE", "REFUND_UNEARNED", "REFUND_ALL"])
async def test_app_pin_reported_answered_then_decided(t, outcome):
    bid = await t.pinned(duration=7)
    t.social.clock.advance(hours=5)
    dispute_id = (await t.report(bid)).json()["dispute"]["id"]
    t.social.clock.advance(hours=72)
    assert (await t.job())["accepted"] == 0  # a reported placement is never accepted by silence
    t.social.clock.advance(hours=-50)
    assert (await t.answer(bid, note="Still pinned")).status_code == 200
    decided = await t.decide(dispute_id, outcome, reason="The screenshots disagree with the post.")
    assert decided.status_code == 200 and decided.json()["status"] == "DECIDED"
    async with t.social.service.db.transaction() as session:
        emitted = [r[0] for r in (await session.execute(text("SELECT type FROM outbox ORDER BY seq"))).all()]
    trust_types = [x for x in emitted if x.startswith(("social.placement.", "social.dispute.", "social.operator."))
                   and x != "social.placement.recheck_requested.v1"]  # its random moment may fall in these hours
    assert trust_types == ["social.placement.disputed.v1", "social.dispute.answered.v1",
                           "social.dispute.decided.v1", "social.operator.acted.v1"] + (
        [] if outcome == "CONTINUE" else ["social.placement.ended.v1"])
    [decided_event] = await t.social.events(DisputeDecided.event_type)
    assert decided_event["outcome"] == outcome and decided_event["reason"] == "The screenshots disagree with the post."
    view = (await t.trust(bid)).json()
    assert view["dispute"]["decisionReason"] == "The screenshots disagree with the post."
    status = (await t.social.sql("SELECT status FROM placements WHERE bid_id = :b", b=bid))[0][0]
    ended = await t.social.events(PlacementEnded.event_type)
    if outcome == "CONTINUE":
        assert status == "PINNED" and ended == [] and view["ended"] is False
        assert (view["acceptance"]["status"], view["acceptance"]["acceptedBy"]) == ("ACCEPTED", None)
        assert (await t.accept(bid)).status_code == 409
        assert await t.social.events(PlacementAccepted.event_type) == []
        assert (await t.report(bid, "Unpinned again")).status_code == 200  # a new report may follow
    else:
        assert status == "ENDED" and view["ended"] is True
        assert view["endReason"] == ENDED_BY[outcome] and outcome not in view["endReason"]  # in words
        [end] = ended
        assert (end["method"], end["bidId"]) == ("MANUAL", str(bid))
        t.social.clock.advance(days=2)
        assert (await t.social.service.state["tracker"].run_once()).checked == 0  # no more tracking
        late = await t.report(bid)
        assert late.status_code == 409 and late.json()["code"] == "placement_ended"


async def test_a_full_refund_ends_a_session_placement_and_unpins_it_once(t):
    await t.world.login()
    bid = await t.world.bid(comment_text="Pinned by Pinbid")
    comment_id = (await t.world.pin(bid)).json()["commentId"]
    refund = PaymentRefunded(payment_id=uuid.uuid4(), bid_id=bid, buyer_id=t.world.buyer, creator_id=t.world.creator,
                             amount_cents=4000, reason="operator_refund")
    await t.social.deliver(refund)
    await t.social.deliver(refund)  # redelivered: nothing twice
    [end] = await t.social.events(PlacementEnded.event_type)
    assert (end["method"], end["reason"]) == ("SESSION", "Refunded in full by Pinbid.")
    assert await t.social.sql("SELECT status, unpin_pending FROM placements WHERE bid_id = :b", b=bid) == [
        ("ENDED", True)]
    assert (await t.job())["unpinned"] == 1
    pinned = await t.social.sql("SELECT id FROM sandbox_comments WHERE id = :c AND pinned_at IS NOT NULL",
                                c=comment_id)
    assert pinned == []
    assert (await t.job())["unpinned"] == 0
    t.social.clock.advance(days=1)
    assert (await t.social.service.state["tracker"].run_once()).checked == 0


async def test_a_full_refund_closes_the_open_dispute_on_its_placement(t):
    bid = await t.pinned()
    dispute_id = (await t.report(bid)).json()["dispute"]["id"]
    refund = PaymentRefunded(payment_id=uuid.uuid4(), bid_id=bid, buyer_id=t.world.buyer, creator_id=t.world.creator,
                             amount_cents=4000, reason="operator_refund")
    await t.social.deliver(refund)
    await t.social.deliver(refund)
    detail = (await t.social.http.get(f"/ops/disputes/{dispute_id}", headers=t.ops())).json()
    assert (detail["status"], detail["outcome"], detail["decisionReason"]) == (
        "DECIDED", "REFUND_ALL", "Refunded in full by Pinbid.")
    assert [h["by"] for h in detail["history"]] == ["BRAND", "PAYMENTS"]
    assert (await t.social.http.get("/ops/disputes?status=OPEN", headers=t.ops())).json() == []
    assert await t.social.events(DisputeDecided.event_type) == []  # the money is already back: nothing to move
    late = await t.decide(dispute_id, "CONTINUE")
    assert late.status_code == 409 and late.json()["code"] == "already_decided"


async def test_a_refund_before_the_pin_ends_the_placement_quietly(t):
    bid = await t.manual_bid()
    await t.social.deliver(PaymentRefunded(payment_id=uuid.uuid4(), bid_id=bid, buyer_id=t.world.buyer,
                                           creator_id=t.world.creator, amount_cents=4000, reason="pin deadline"))
    assert await t.social.events(PlacementEnded.event_type) == []
    refused = await t.confirm(bid, shot())
    assert refused.status_code == 409
    assert await t.social.sql("SELECT count(*) FROM evidence") == [(0,)] and await t.stored_files() == []


async def test_an_answer_with_nothing_to_answer_is_409(t):
    bid = await t.pinned()
    answer = await t.answer(bid)
    assert answer.status_code == 409 and answer.json()["code"] == "nothing_to_answer"
    assert await t.stored_files() and await t.social.sql("SELECT kind FROM evidence") == [("PIN",)]


async def test_malformed_forms_are_clear_422s_and_strangers_cannot_report(t):
    bid = await t.manual_bid()
    for content_type, body in [("multipart/form-data", b"garbage"), ("multipart/form-data; boundary=x", b"garbage"),
                               ("multipart/form-data; boundary=x", b"--x\r\nContent-Disposition: form-data\r\n\r\n"),
                               ("application/json", b'{"screenshot": "aGVsbG8="}')]:
        response = await t.social.http.post(f"/influencer/pin-comment/{bid}/confirm", content=body,
                                            headers={**t.creator(), "Content-Type": content_type})
        assert response.status_code == 422, (content_type, body, response.text)
    two = await t.confirm(bid, [("screenshot", ("a.png", png(), "image/png")),
                                ("screenshot", ("b.png", png(), "image/png"))])
    assert two.status_code == 422
    pinned = await t.pinned()
    stranger = await t.social.user("BUYER", name="Other Brand")
    refused = await t.social.http.post(f"/buyer/placements/{pinned}/report", headers=t.social.auth(stranger, "BUYER"),
                                       json={"reason": "not mine"})
    assert refused.status_code == 404 and await t.social.events(PlacementDisputed.event_type) == []
    assert (await t.social.http.get(f"/ops/disputes/{uuid.uuid4()}", headers=t.ops())).status_code == 404
