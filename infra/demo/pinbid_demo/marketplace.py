"""The demo world's pin slots (the plan: `plan.py`), made through marketplace's own use cases.

Each planned slot is replayed in time order "as of" its moments (listed, each bid, closed), with the use
cases' clocks stopped at those moments, then the winner is approved when the plan has it approved. A slot
that exists (found by its creator and title) is taken up where it stands: bids already placed, auctions
already closed and decisions already taken are skipped, and a refusal (someone changed the slot) is logged
and the next slot seeded. So seeding twice, after an interrupted run or after changes adds only what is
missing. An open auction of the plan that has since ended on its own is listed again on a later run, so the
marketplace stays alive days later. Payments, social and their events take each slot further (paid, pinned,
completed, refunded)."""

import logging
import uuid
from datetime import datetime

from pinbid_kit.clock import as_of, utcnow
from pinbid_kit.errors import ApiError
from pinbid_kit.runtime import Job, Service
from pinbid_marketplace.approvals import Approvals
from pinbid_marketplace.bidding import Bidding, Offer
from pinbid_marketplace.closing import Closer
from pinbid_marketplace.domain.comments import Comment
from pinbid_marketplace.domain.listing import NewSlot
from pinbid_marketplace.domain.states import BidStatus
from pinbid_marketplace.models import Bid, CreatorProfile, Post, Slot, User
from pinbid_marketplace.rules import auction_rules
from pinbid_marketplace.settings import MarketplaceSettings
from pinbid_marketplace.slots import Slots
from sqlalchemy import select

from . import plan as demo
from .bidding import DemoBidders

log = logging.getLogger("pinbid.demo.marketplace")
WAIT_SECONDS = 120.0  # an upper bound: each wait ends as soon as what it waits for arrived
BACKGROUND_BID_SECONDS = 20.0


class _World:
    """What marketplace knows of the demo people: user ids by email, each creator's posts by caption."""

    def __init__(self, users: dict[str, uuid.UUID], posts: dict[tuple[uuid.UUID, str], str]):
        self.users, self.posts = users, posts

    def post_of(self, slot: demo.Slot) -> str | None:
        creator_id = self.users.get(slot.creator)
        caption = demo.creator(slot.creator).posts[slot.post].caption
        return self.posts.get((creator_id, caption)) if creator_id else None


async def _read_world(service: Service) -> _World:
    emails = [c.email for c in demo.CREATORS] + [b.email for b in demo.BRANDS]
    async with service.db.transaction() as session:
        users = dict((await session.execute(select(User.email, User.id).where(User.email.in_(emails)))).all())
        creator_ids = [users[c.email] for c in demo.CREATORS if c.email in users]
        rows = (await session.execute(
            select(Post.user_id, Post.caption, Post.id).join(CreatorProfile, CreatorProfile.user_id == Post.user_id)
            .where(Post.user_id.in_(creator_ids)))).all()
    return _World(users, {(user_id, caption): post_id for user_id, caption, post_id in rows})


async def _wait_for_world(service: Service) -> _World:
    """Identity's users and social's profiles and posts arrive as events: wait for them a little."""
    needed = sum(len(c.posts) for c in demo.CREATORS)

    async def complete() -> _World | None:
        world = await _read_world(service)
        full = len(world.users) == len(demo.CREATORS) + len(demo.BRANDS) and len(world.posts) >= needed
        return world if full else None

    world = await demo.wait_for(complete, seconds=WAIT_SECONDS)
    if world is None:
        world = await _read_world(service)
        log.warning("demo world incomplete in marketplace (%d people, %d posts): seeding what it can",
                    len(world.users), len(world.posts))
    return world


class _Replay:
    """The use cases of one service, each built with a clock stopped at the moment being replayed."""

    def __init__(self, service: Service):
        self.service = service
        self.settings: MarketplaceSettings = service.state["settings"]
        self.rules = auction_rules(self.settings)

    def slots(self, moment: datetime) -> Slots:
        return Slots(self.service.db, self.settings, demo.at(moment))

    def bidding(self, moment: datetime) -> Bidding:
        return Bidding(self.service.db, self.settings, self.rules, demo.at(moment))

    def closer(self, moment: datetime) -> Closer:
        return Closer(self.service.db, self.settings, self.rules, demo.at(moment))


async def seed(service: Service) -> int:
    world = await _wait_for_world(service)
    replay = _Replay(service)
    approvals: Approvals = service.state["approvals"]
    now = utcnow()
    by_post: dict[tuple[str, int], list[demo.Slot]] = {}
    for planned in sorted(demo.SLOTS, key=lambda s: s.listed_at(now)):
        by_post.setdefault((planned.creator, planned.post), []).append(planned)

    async def seed_post(slots: list[demo.Slot]) -> int:
        """The slots of one post, in time order (a post has one open auction at a time)."""
        created = 0
        for planned in slots:
            try:
                created += await _seed_slot(service, replay, approvals, world, planned, now)
            except ApiError as refused:
                log.info("demo slot %r left as it is: %s", planned.title, refused.detail)
        return created

    return await demo.each(by_post.values(), seed_post)


async def _seed_slot(service: Service, replay: _Replay, approvals: Approvals, world: _World, planned: demo.Slot,
                     now: datetime) -> int:
    creator_id, post_id = world.users.get(planned.creator), world.post_of(planned)
    if creator_id is None or post_id is None:
        log.warning("demo slot %r: its creator or post is not known here", planned.title)
        return 0
    async with service.db.transaction() as session:
        latest = (await session.execute(select(Slot.id, Slot.status, Slot.closed_at, Slot.auction_end).where(
            Slot.creator_id == creator_id, Slot.title == planned.title, Slot.is_demo.is_(True))
            .order_by(Slot.created_at.desc()).limit(1))).first()
    slot_id = latest.id if latest else None
    if latest and planned.stage in demo.OPEN_STAGES and _ran_its_course(latest):
        slot_id = None  # a later run: the open auction ended on its own, so the creator lists the post again
    created = 0
    if slot_id is None:
        if planned.stage in demo.OPEN_STAGES and planned.auction_end(now) <= now:
            return 0
        caption = demo.creator(planned.creator).posts[planned.post].caption
        with as_of(planned.listed_at(now)):
            slot_id = await replay.slots(planned.listed_at(now)).create(creator_id, NewSlot(
                post_id=post_id, title=planned.title, description=caption, category=planned.category,
                min_bid=planned.min_bid, buy_now_price=planned.buy_now_price, auction_end=planned.auction_end(now),
                duration_days=planned.duration_days), demo=True)
        created = 1
    await _place_bids(service, replay, world, planned, slot_id, now)
    if planned.stage not in demo.OPEN_STAGES:
        await _close_and_decide(service, replay, approvals, creator_id, planned, slot_id, now)
    return created


def _ran_its_course(slot) -> bool:
    """Closed at its end (not ended early by the creator, whose choice stands)."""
    return slot.status == "CLOSED" and slot.closed_at is not None and slot.closed_at >= slot.auction_end


async def _place_bids(service: Service, replay: _Replay, world: _World, planned: demo.Slot, slot_id: uuid.UUID,
                      now: datetime) -> None:
    async with service.db.transaction() as session:
        slot = await session.get(Slot, slot_id)
        bidders = set(await session.scalars(select(Bid.buyer_id).where(Bid.slot_id == slot_id)))
    if slot is None or slot.status != "ACTIVE":
        return
    for index, bid in enumerate(planned.bids):
        buyer_id = world.users.get(bid.brand)
        if buyer_id is None or buyer_id in bidders:
            continue
        offer = Offer(amount=bid.amount, auto_bid_enabled=bid.max_auto_bid is not None, max_auto_bid=bid.max_auto_bid)
        comment = Comment(text=demo.brand(bid.brand).comment_for(planned.category))
        with as_of(planned.bid_at(now, index)):
            await replay.bidding(planned.bid_at(now, index)).place(buyer_id, slot_id, offer, comment)


async def _close_and_decide(service: Service, replay: _Replay, approvals: Approvals, creator_id: uuid.UUID,
                            planned: demo.Slot, slot_id: uuid.UUID, now: datetime) -> None:
    async with service.db.transaction() as session:
        slot = await session.get(Slot, slot_id)
    if slot.status == "ACTIVE":
        with as_of(planned.closed_at(now)):
            slot, _ = await replay.closer(planned.closed_at(now)).end_early(creator_id, slot_id)
    if planned.stage is demo.Stage.AWAITING_APPROVAL or slot.winning_bid_id is None:
        return
    async with service.db.transaction() as session:
        winner = await session.get(Bid, slot.winning_bid_id)
    if winner is not None and winner.status == BidStatus.PENDING_INFLUENCER_APPROVAL.value:
        with as_of(planned.approved_at(now)):  # the creator's response time is the plan's, not the seeding's
            await approvals.decide(creator_id, winner.id, BidStatus.APPROVED)


def background_jobs(service: Service) -> list[Job]:
    """The demo brands bidding now and then on the demo's open slots, so a visitor sees prices move."""
    settings: MarketplaceSettings = service.state["settings"]
    bidders = DemoBidders(service.db, settings, auction_rules(settings), utcnow)
    return [Job("demo-bidding", bidders.run_once, every_seconds=BACKGROUND_BID_SECONDS)]
