"""The world of the pinning and link tests: a creator and a brand, both connected, a slot on the creator's first
post, and bids on it as marketplace announces them."""

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from pinbid_kit import instagram_rules as ig
from pinbid_kit.events.marketplace import BidApproved, BidAwarded, CommentApproved, SlotCreated


class World:
    def __init__(self, social, creator, buyer, post_id, slot_id):
        self.social, self.creator, self.buyer, self.post_id, self.slot_id = social, creator, buyer, post_id, slot_id

    async def bid(self, *, comment_id=None, comment_text=None, paid=True, duration=7, approved=True) -> uuid.UUID:
        bid_id = uuid.uuid4()
        await self.social.deliver(BidApproved(bid_id=bid_id, slot_id=self.slot_id, slot_title="Pin me",
                                              creator_id=self.creator, buyer_id=self.buyer, final_price_cents=4000))
        if paid:
            await self.social.deliver(BidAwarded(
                bid_id=bid_id, slot_id=self.slot_id, creator_id=self.creator, buyer_id=self.buyer,
                buyer_name="Leo Brand", business_name="Northwind Coffee", post_id=self.post_id,
                comment_id=comment_id, comment_text=comment_text, final_price_cents=4000, duration_days=duration))
        if approved and (comment_id or comment_text):
            await self.approve(bid_id, comment_id=comment_id, comment_text=comment_text)
        return bid_id

    async def approve(self, bid_id, *, comment_id=None, comment_text=None) -> str:
        """What marketplace announces when the creator approves: the exact text to post or pin."""
        if comment_id:
            found = await self.social.sql("SELECT text FROM sandbox_comments WHERE id = :c", c=comment_id)
            text = found[0][0] if found else "#ad gone"
        else:
            text = ig.disclosed(comment_text, "@northwind.coffee")
        await self.social.deliver(CommentApproved(bid_id=bid_id, slot_id=self.slot_id, creator_id=self.creator,
                                                  buyer_id=self.buyer, comment_id=comment_id, text=text,
                                                  approved_at=datetime.now(UTC)))
        return text

    async def login(self, password="sandbox", username="maya.makes"):
        return await self.social.http.post("/influencer/instagram-login", headers=self.social.auth(self.creator),
                                           json={"username": username, "password": password})

    async def pin(self, bid_id, user=None):
        return await self.social.http.put(f"/influencer/pin-comment/{bid_id}",
                                          headers=self.social.auth(user or self.creator))

    async def buyer_comment(self) -> str:
        found = await self.social.http.get(f"/instagram/comments/{self.slot_id}",
                                           headers=self.social.auth(self.buyer, "BUYER"))
        return found.json()[0]["id"]


@pytest.fixture
async def world(social) -> World:
    creator = await social.user(handle="maya.makes", name="Maya Creator")
    buyer = await social.user("BUYER", name="Leo Brand", business="Northwind Coffee")
    await social.connect(creator)
    await social.connect(buyer, "BUYER", username="northwind.coffee")
    post = (await social.http.get("/instagram/posts", headers=social.auth(creator))).json()[0]["id"]
    slot_id = uuid.uuid4()
    await social.deliver(SlotCreated(slot_id=slot_id, creator_id=creator, post_id=post, title="Pin me",
                                     category="food", min_bid_cents=2500,
                                     auction_end=datetime.now(UTC) + timedelta(days=1), duration_days=7))
    return World(social, creator, buyer, post, slot_id)
