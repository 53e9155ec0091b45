"""A bid that names an existing comment (commentId) shows that comment's text and author wherever it is shown,
once social has read them on the post (social.bid_comment.resolved.v1): the brand's bids, the creator's approvals,
the creator's bid lists. What a client claimed the comment says gives way to what it says."""

import uuid
from decimal import Decimal

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


async def comment_changes(world) -> int:
    async with world.service.db.autocommit() as conn:
        return (await conn.execute(text("SELECT count(*) FROM outbox WHERE type = "
                                        "'marketplace.bid.comment_changed.v1'"))).scalar()


async def test_a_claim_is_never_shown_to_the_creator_nor_approved_before_social_read_the_comment(world):
    """Issue 30: what the brand's client claims a named comment says is not what the creator sees or approves; the
    approval waits for social's reading (409 with Retry-After), then approves what the post says."""
    creator, posts = await world.creator()
    brand = await world.buyer()
    slot = await world.slot(creator, posts[0])
    placed = (await world.bid(brand, slot["id"], 20, commentId="c-1", commentText="#ad Something nice",
                              commentUsername="northwind.coffee")).json()
    assert (placed["comment"], placed["commentUsername"]) == ("#ad Something nice", "northwind.coffee")  # its own
    await world.http.post(f"/influencer/pin-slots/{slot['id']}/end-auction", headers=creator)
    [approval] = (await world.http.get("/influencer/approvals", headers=creator)).json()
    assert (approval["comment"], approval["commentUsername"]) == (None, None)
    early = await world.http.post(f"/influencer/approvals/{placed['id']}", json={"status": "APPROVED"},
                                  headers=creator)
    assert early.status_code == 409 and early.json()["code"] == "comment_not_read"
    assert early.headers["retry-after"] == "2"
    [still] = (await world.http.get("/influencer/approvals", headers=creator)).json()
    assert (still["status"], still["approvedComment"]) == ("PENDING_INFLUENCER_APPROVAL", None)

    await world.deliver(s.BidCommentResolved(bid_id=uuid.UUID(placed["id"]), comment_id="c-1", found=True,
                                             text="#ad Something else entirely", username="someone.else",
                                             read_at=world.clock.now))
    [approval] = (await world.http.get("/influencer/approvals", headers=creator)).json()
    assert (approval["comment"], approval["commentUsername"]) == ("#ad Something else entirely", "someone.else")
    approved = await world.http.post(f"/influencer/approvals/{placed['id']}", json={"status": "APPROVED"},
                                     headers=creator)
    assert approved.status_code == 200 and approved.json()["approvedComment"] == "#ad Something else entirely"
    changes = await comment_changes(world)

    # a resolution for a comment the bid no longer names changes nothing; one that finds no such comment clears
    # the text and withdraws the approval, and a new approval is then refused with the reason
    await world.deliver(s.BidCommentResolved(bid_id=uuid.UUID(placed["id"]), comment_id="old", found=True,
                                             text="#ad old", username="x", read_at=world.clock.now))
    assert await comment_changes(world) == changes
    await world.deliver(s.BidCommentResolved(bid_id=uuid.UUID(placed["id"]), comment_id="c-1", found=False,
                                             read_at=world.clock.now))
    [bid] = (await world.http.get("/buyer/bids", headers=brand)).json()
    assert (bid["comment"], bid["commentUsername"], bid["approvedComment"]) == (None, None, None)
    assert await comment_changes(world) == changes + 1
    missing = await world.http.post(f"/influencer/approvals/{placed['id']}/comment", headers=creator)
    assert missing.status_code == 409 and missing.json()["code"] == "comment_missing"


async def test_a_creator_reconnecting_has_the_comments_it_could_not_read_read_again(world):
    creator, posts = await world.creator()
    brand = await world.buyer()
    slot = await world.slot(creator, posts[0])
    unread = (await world.bid(brand, slot["id"], 20, commentId="c-9")).json()
    before = await comment_changes(world)
    await world.deliver(s.AccountConnected(user_id=uuid.UUID(creator["x-user"]), instagram_id="ig-1", username="maya",
                                           profile=s.CreatorProfile(followers=12000, avg_views=3000,
                                                                    avg_engagement=Decimal("4.2"), verified=False)))
    async with world.service.db.autocommit() as conn:
        again = (await conn.execute(text("SELECT envelope->'data'->>'bidId' FROM outbox WHERE type = "
                                         "'marketplace.bid.comment_changed.v1' ORDER BY seq DESC LIMIT 1"))).scalar()
    assert await comment_changes(world) == before + 1 and again == unread["id"]
