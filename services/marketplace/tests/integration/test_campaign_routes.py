"""The brand's campaign routes (issue 36): create, list, read, edit, pause, resume, end, and their bad input."""

import asyncio
import uuid
from datetime import timedelta

from pinbid_kit.events import campaigns as ce
from pinbid_testing import outbox_events


def campaign_body(world, **fields) -> dict:
    return {"name": "Fitness push", "filters": {"category": "fitness", "maxPrice": 80}, "budget": 2000,
            "maxPerSlot": 80, "commentText": "Try our protein bars", "endsAt":
            (world.clock.now + timedelta(days=30)).isoformat(), **fields}


async def create(world, buyer, **fields):
    return await world.http.post("/buyer/campaigns", json=campaign_body(world, **fields), headers=buyer)


async def test_a_campaign_is_created_as_a_draft_and_read_back(world):
    buyer = await world.buyer()
    response = await create(world, buyer)
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["status"] == "DRAFT" and body["version"] == 1
    assert body["budget"] == 2000 and body["maxPerSlot"] == 80 and body["funded"] == 0
    assert body["committed"] == 0 and body["available"] == 0
    assert body["filters"] == {"category": "fitness", "minPrice": None, "maxPrice": 80, "minViews": None,
                               "verified": None, "minKeptPercent": None, "timeLeft": None, "search": None}
    assert body["counts"] == {"bidding": 0, "leading": 0, "outbid": 0, "won": 0, "pinned": 0}
    listed = (await world.http.get("/buyer/campaigns", headers=buyer)).json()
    assert [c["id"] for c in listed] == [body["id"]]
    detail = (await world.http.get(f"/buyer/campaigns/{body['id']}", headers=buyer)).json()
    assert detail["bids"] == [] and detail["skipped"] == [] and detail["spendOverTime"][-1]["spent"] == 0
    events = await outbox_events(world.service.db, ce.CampaignUpdated.event_type)
    assert events[-1]["status"] == "DRAFT" and events[-1]["budgetCents"] == 200000 and events[-1]["version"] == 1


async def test_another_brands_campaign_is_not_found(world):
    owner, other = await world.buyer(), await world.buyer("Other")
    campaign = (await create(world, owner)).json()
    for call in (world.http.get(f"/buyer/campaigns/{campaign['id']}", headers=other),
                 world.http.patch(f"/buyer/campaigns/{campaign['id']}", json={"name": "x"}, headers=other),
                 world.http.post(f"/buyer/campaigns/{campaign['id']}/pause", headers=other),
                 world.http.post(f"/buyer/campaigns/{campaign['id']}/end", headers=other)):
        response = await call
        assert response.status_code == 404 and response.json()["code"] == "not_found", response.text
    assert (await world.http.get(f"/buyer/campaigns/{uuid.uuid4()}", headers=owner)).status_code == 404
    assert (await world.http.get("/buyer/campaigns", headers=other)).json() == []


async def test_bad_input_is_refused_with_the_field(world):
    buyer = await world.buyer()
    past = (world.clock.now - timedelta(hours=1)).isoformat()
    cases = [
        ({"budget": 0}, "budget"),
        ({"budget": 10_000_000}, "budget"),
        ({"budget": "12"}, "budget"),
        ({"budget": 50, "maxPerSlot": 80}, "budget"),
        ({"maxPerSlot": 10.001}, "maxPerSlot"),
        ({"endsAt": past}, "endsAt"),
        ({"startsAt": (world.clock.now + timedelta(days=40)).isoformat()}, "endsAt"),
        ({"name": "   "}, "name"),
        ({"name": "a\u0000b"}, "name"),
        ({"commentText": ""}, "commentText"),
        ({"filters": {"category": "knitting"}}, "filters.category"),
        ({"filters": {"minPrice": 90, "maxPrice": 10}}, "filters.minPrice"),
        ({"filters": {"minPrice": 100}}, "maxPerSlot"),
        ({"filters": {"timeLeft": "2d"}}, "filters.timeLeft"),
        ({"filters": {"minViews": "many"}}, "filters.minViews"),
        ({"filters": {"sortBy": "newest"}}, "filters.sortBy"),
    ]
    for fields, field in cases:
        response = await create(world, buyer, **fields)
        assert response.status_code == 422, (fields, response.text)
        body = response.json()
        assert field in [e["field"] for e in body["errors"]], (fields, body)
    assert (await world.http.get("/buyer/campaigns", headers=buyer)).json() == []


async def test_a_question_is_read_into_the_filters_and_the_answer_says_which(world):
    buyer = await world.buyer()
    response = await create(world, buyer, filters={"maxPrice": 60}, ask="verified fitness creators under $40 "
                            "with home workouts")
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["filters"]["category"] == "fitness" and body["filters"]["verified"] is True
    assert body["filters"]["maxPrice"] == 60  # the brand's own filter wins over the question's
    assert set(body["understood"]["filters"]) == {"category", "verified"}
    assert any("home workouts" in i["phrase"] for i in body["understood"]["ignored"])
    assert body["ask"] == "verified fitness creators under $40 with home workouts"


async def test_pause_resume_end_and_edits(world):
    buyer = await world.buyer()
    campaign = (await create(world, buyer)).json()
    url = f"/buyer/campaigns/{campaign['id']}"
    paused = (await world.http.post(url + "/pause", headers=buyer)).json()
    assert paused["status"] == "PAUSED" and paused["reason"] == "paused" and paused["version"] == 2
    resumed = (await world.http.post(url + "/resume", headers=buyer)).json()
    assert resumed["status"] == "DRAFT" and resumed["version"] == 3  # not funded yet
    edited = await world.http.patch(url, json={"budget": 1500, "name": "Fitness, less", "version": 3}, headers=buyer)
    assert edited.status_code == 200 and edited.json()["budget"] == 1500 and edited.json()["version"] == 4
    stale = await world.http.patch(url, json={"budget": 1400, "version": 3}, headers=buyer)
    assert stale.status_code == 409 and stale.json()["code"] == "campaign_changed"
    below = await world.http.patch(url, json={"budget": 10}, headers=buyer)
    assert below.status_code == 422 and below.json()["errors"][0]["field"] == "budget"  # under the most per comment
    ended = (await world.http.post(url + "/end", headers=buyer)).json()
    assert ended["status"] == "ENDED" and ended["reason"] == "ended_by_brand"
    again = await world.http.post(url + "/resume", headers=buyer)
    assert again.status_code == 409 and again.json()["code"] == "campaign_ended"
    assert (await world.http.patch(url, json={"name": "x"}, headers=buyer)).status_code == 409
    settled = await outbox_events(world.service.db, ce.CampaignSettled.event_type)
    assert [e["campaignId"] for e in settled] == [campaign["id"]]  # ended with nothing committed: settled once
    await world.http.post(url + "/end", headers=buyer)
    assert len(await outbox_events(world.service.db, ce.CampaignSettled.event_type)) == 1


async def test_two_edits_at_once_both_apply_one_after_the_other(world):
    buyer = await world.buyer()
    campaign = (await create(world, buyer)).json()
    url = f"/buyer/campaigns/{campaign['id']}"
    answers = await asyncio.gather(world.http.patch(url, json={"name": "One"}, headers=buyer),
                                   world.http.patch(url, json={"budget": 1900}, headers=buyer))
    assert all(a.status_code == 200 for a in answers)
    assert sorted(a.json()["version"] for a in answers) == [2, 3]
    now = (await world.http.get(url, headers=buyer)).json()
    assert now["name"] == "One" and now["budget"] == 1900 and now["version"] == 3
    versions = [e["version"] for e in await outbox_events(world.service.db, ce.CampaignUpdated.event_type)]
    assert versions == [1, 2, 3]


async def test_fifty_copies_of_one_pause_change_it_once(world):
    buyer = await world.buyer()
    campaign = (await create(world, buyer)).json()
    url = f"/buyer/campaigns/{campaign['id']}/pause"
    answers = await asyncio.gather(*[world.http.post(url, headers=buyer) for _ in range(50)])
    assert {a.status_code for a in answers} == {200} and {a.json()["version"] for a in answers} == {2}
    events = await outbox_events(world.service.db, ce.CampaignUpdated.event_type)
    assert [(e["status"], e["version"]) for e in events] == [("DRAFT", 1), ("PAUSED", 2)]


async def test_odd_input_is_refused(world):
    buyer = await world.buyer()
    good = {"name": "x", "budget": 100, "maxPerSlot": 10, "commentText": "hi", "endsAt": "2030-01-01T00:00Z"}
    for fields in ({"endsAt": "tomorrow"}, {"ask": "fitness\u202e under $5"}, {"status": "ACTIVE"},
                   {"filters": {"minPrice": -1}}, {"commentText": "a\u0007b"}, {"maxPerSlot": True}):
        response = await world.http.post("/buyer/campaigns", json={**good, **fields}, headers=buyer)
        assert response.status_code == 422, (fields, response.text)
    huge = await world.http.post("/buyer/campaigns", headers={**buyer, "content-type": "application/json"},
                                 content=b'{"name": "x", "budget": 1e400, "maxPerSlot": 10, "commentText": "hi", '
                                         b'"endsAt": "2030-01-01T00:00Z"}')
    assert huge.status_code == 422, huge.text
    assert (await world.http.patch("/buyer/campaigns/not-a-uuid", json={"name": "x"}, headers=buyer)).status_code \
        == 422
    creator, _ = await world.creator(posts=0)
    assert (await world.http.get("/buyer/campaigns", headers=creator)).status_code == 403
    assert (await world.http.get("/buyer/campaigns", headers=buyer)).json() == []
