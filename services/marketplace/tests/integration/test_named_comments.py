"""A bid that names an existing comment (commentId) shows that comment's text and author wherever it is shown,
once social has read them on the post (social.bid_comment.resolved.v1): the brand's bids, the creator's approvals,
the creator's bid lists. What a client claimed the comment says gives way to what it says."""

import uuid

from pinbid_kit.events import social as s
from sqlalchemy import text


async def slot_version(world, slot_id) -> int:
    async with world.service.db.autocommit() as conn:
        return await conn.scalar(text("SELECT version FROM slots WHERE id = :s"), {"s": slot_id})


async def test_a_bid_naming_a_comment_shows_its_text_and_author_everywhere_once_social_read_them(world):
    creator, posts = await world.creator()
    brand = await world.buyer()
    slot = await world.slot(creator, posts[0])
    placed = await world.bid(brand, slot["id"], 20, commentId="17890001")
    assert placed.status_code == 201
    assert (placed.json()["comment"], placed.json()["commentUsername"]) == (None, None)  # not read yet
    version = await slot_version(world, slot["id"])

    resolved = s.BidCommentResolved(bid_id=uuid.UUID(placed.json()["id"]), comment_id="17890001", found=True,
                                    text="#ad Our beans, your morning", username="northwind.coffee",
                                    read_at=world.clock.now)
    envelope = await world.deliver(resolved)
    await world.service.consumers.dispatch(envelope, {})
    assert await slot_version(world, slot["id"]) > version  # a batch that read the bid before writes nothing

    [mine] = (await world.http.get("/buyer/bids", headers=brand)).json()
    assert (mine["comment"], mine["commentUsername"], mine["commentId"]) == (
        "#ad Our beans, your morning", "northwind.coffee", "17890001")
    [listed] = (await world.http.get("/influencer/bids", headers=creator)).json()
    assert (listed["comment"], listed["commentUsername"]) == ("#ad Our beans, your morning", "northwind.coffee")
    [active] = (await world.http.get("/influencer/pin-slots/active", headers=creator)).json()
    assert (active["bids"][0]["comment"], active["bids"][0]["commentUsername"]) == (
        "#ad Our beans, your morning", "northwind.coffee")
    others = (await world.http.get(f"/marketplace/slots/{slot['id']}", headers=await world.buyer())).json()
    assert others["bids"][0]["comment"] is None  # other brands see no one's comment

    await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    [approval] = (await world.http.get("/influencer/approvals", headers=creator)).json()
    assert (approval["comment"], approval["commentUsername"]) == ("#ad Our beans, your morning", "northwind.coffee")


async def test_what_the_comment_really_says_replaces_a_claim_and_withdraws_an_approval_of_the_claim(world):
    creator, posts = await world.creator()
    brand = await world.buyer()
    slot = await world.slot(creator, posts[0])
    placed = (await world.bid(brand, slot["id"], 20, commentId="c-1", commentText="#ad Something nice",
                              commentUsername="northwind.coffee")).json()
    await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    await world.http.post(f"/influencer/approvals/{placed['id']}", json={"status": "APPROVED"}, headers=creator)
    approved = await world.http.post(f"/influencer/approvals/{placed['id']}/comment", headers=creator)
    assert approved.status_code == 200 and approved.json()["approvedComment"] == "#ad Something nice"

    await world.deliver(s.BidCommentResolved(bid_id=uuid.UUID(placed["id"]), comment_id="c-1", found=True,
                                             text="#ad Something else entirely", username="someone.else",
                                             read_at=world.clock.now))
    [bid] = (await world.http.get("/buyer/bids", headers=brand)).json()
    assert (bid["comment"], bid["commentUsername"], bid["approvedComment"]) == (
        "#ad Something else entirely", "someone.else", None)
    async with world.service.db.autocommit() as conn:
        changed = (await conn.execute(text("SELECT count(*) FROM outbox WHERE type = "
                                           "'marketplace.bid.comment_changed.v1'"))).scalar()
    assert changed == 2  # the bid's own, and the withdrawal of the approval

    # a resolution for a comment the bid no longer names, or one not found, changes nothing
    await world.deliver(s.BidCommentResolved(bid_id=uuid.UUID(placed["id"]), comment_id="old", found=True,
                                             text="#ad old", username="x", read_at=world.clock.now))
    await world.deliver(s.BidCommentResolved(bid_id=uuid.UUID(placed["id"]), comment_id="c-1", found=False,
                                             read_at=world.clock.now))
    [bid] = (await world.http.get("/buyer/bids", headers=brand)).json()
    assert (bid["comment"], bid["commentUsername"]) == ("#ad Something else entirely", "someone.else")
