"""Second chance (issue 36, item 5): the creator offers a slot whose winner fell through to the runner-up, at the
runner-up's own last amount; the brand accepts or declines within the window (a job lapses it), and a campaign's
bid is answered by its campaign at once, within its budget. The rules are `domain/second_chance.py`'s.

Locks, always in this order: the campaign (when the bid is a campaign's), then the slot, then its bids. The slot's
lock serialises every offer and answer on one slot (two offers at once: the second sees the first's OFFERED bid);
the conditional status (OFFERED) makes a second answer, or an answer after the lapse, a 409. The lapse job and the
suspension handler (offer_ends.py) lock only the offered bid, never a slot, so they cannot deadlock an answer."""

import logging
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from pinbid_kit import outbox
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import Conflict, NotFound
from pinbid_kit.events import EventData
from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, campaigns, events_out
from .approvals import approve_comment_as_it_is
from .associates import shared_hard_signal
from .domain import second_chance as rules
from .domain.listing import MAX_PINNED_PER_POST, check_room_on_post
from .domain.states import BidStatus, check_move
from .models import Bid, Campaign, Slot, User
from .offer_ends import expire_offer
from .queries import BidView
from .rules import as_api_errors
from .settings import MarketplaceSettings
from .slots import placements_on_post

log = logging.getLogger("pinbid.marketplace.second_chance")


@dataclass
class SlotBids:
    """A slot (locked) with every bid it had, each with its brand and the facts the offer's rules need."""

    slot: Slot
    rows: dict[uuid.UUID, Bid]
    buyers: dict[uuid.UUID, User | None]
    standing: dict[uuid.UUID, rules.Standing]


@dataclass(frozen=True)
class SecondChanceView:
    """A fallen winner on one of the creator's slots, with who the slot can go to now (the Approvals screen)."""

    fallen: BidView
    runner_up: BidView | None  # the bid an offer would go to, when none is open
    open_offer: BidView | None  # the offer waiting for its brand's answer


def _standing(bid: Bid, suspended: bool, tied: bool) -> rules.Standing:
    return rules.Standing(id=bid.id, buyer_id=bid.buyer_id, status=BidStatus(bid.status), ceiling=bid.ceiling,
                          seq=bid.seq, final_price=bid.final_price, payment_status=bid.payment_status,
                          offered_before=bid.offer_expires_at is not None, suspended=suspended, tied=tied,
                          released=bid.released_at is not None)


def _bids_of_slots(slot_ids: list[uuid.UUID]):
    """Every bid of the slots, with its brand and whether that brand is suspended or tied to the slot's creator."""
    return (select(Bid, User, User.suspended_at.is_not(None).label("suspended"),
                   shared_hard_signal(Bid.buyer_id, Slot.creator_id).label("tie"))
            .join(Slot, Slot.id == Bid.slot_id).outerjoin(User, User.id == Bid.buyer_id)
            .where(Bid.slot_id.in_(slot_ids)).order_by(Bid.seq, Bid.id))


def _collect(slots: list[Slot], rows) -> dict[uuid.UUID, SlotBids]:
    found = {slot.id: SlotBids(slot=slot, rows={}, buyers={}, standing={}) for slot in slots}
    for bid, user, suspended, tie in rows:
        entry = found[bid.slot_id]
        entry.rows[bid.id] = bid
        entry.buyers[bid.id] = user
        entry.standing[bid.id] = _standing(bid, bool(suspended), tie is not None)
    return found


async def _slot_bids(session: AsyncSession, slot: Slot) -> SlotBids:
    """Every bid of a locked slot, FOR UPDATE."""
    rows = (await session.execute(_bids_of_slots([slot.id]).with_for_update(of=Bid))).all()
    return _collect([slot], rows)[slot.id]


def _view(found: SlotBids, bid_id: uuid.UUID) -> BidView:
    return BidView(bid=found.rows[bid_id], slot=found.slot, buyer=found.buyers[bid_id])


def _chance(found: SlotBids) -> SecondChanceView:
    """What the creator can do now with a slot whose winner fell through."""
    assert found.slot.winning_bid_id is not None
    fallen = found.standing[found.slot.winning_bid_id]
    offered = next((b for b in found.standing.values() if b.status is BidStatus.OFFERED), None)
    next_one = None if offered else rules.runner_up(fallen, list(found.standing.values()))
    return SecondChanceView(fallen=_view(found, fallen.id), runner_up=_view(found, next_one.id) if next_one else None,
                            open_offer=_view(found, offered.id) if offered else None)


async def _lock_slot_of_bid(session: AsyncSession, bid_id: uuid.UUID, *, creator_id: uuid.UUID | None = None,
                            buyer_id: uuid.UUID | None = None) -> SlotBids | None:
    """The slot of `bid_id` FOR UPDATE (when the bid is the creator's slot's, or the buyer's own), then every bid of
    it FOR UPDATE with its brand."""
    owner = Slot.creator_id == creator_id if creator_id is not None else Bid.buyer_id == buyer_id
    slot = await session.scalar(select(Slot).join(Bid, Bid.slot_id == Slot.id).where(Bid.id == bid_id, owner)
                                .with_for_update(of=Slot))
    if slot is None:
        return None
    return await _slot_bids(session, slot)


async def _fresh(session: AsyncSession, view: BidView) -> BidView:
    """Flush and reload the rows the answer shows: columns the database sets (the slot's version, computed price)
    expire on flush, and the answer is built after the commit."""
    await session.flush()
    await session.refresh(view.slot)
    await session.refresh(view.bid)
    return view


class SecondChance:
    def __init__(self, db: Database, settings: MarketplaceSettings, clock: Clock):
        self.db, self.settings, self.clock = db, settings, clock

    @property
    def window(self) -> timedelta:
        return timedelta(hours=self.settings.second_chance_hours)

    # --- the creator ---------------------------------------------------------------------------------------------

    async def offer(self, creator_id: uuid.UUID, fallen_bid_id: uuid.UUID) -> BidView:
        """POST /influencer/bids/{id}/second-chance: offer the slot of the fallen winner `fallen_bid_id` to its
        runner-up. Answers the offered bid."""
        now = self.clock()
        async with self.db.transaction() as session:
            locked = await _lock_slot_of_bid(session, fallen_bid_id, creator_id=creator_id)
            if locked is None:
                raise NotFound("Bid not found.")
            slot = locked.slot
            with as_api_errors():
                chosen = rules.check_can_offer(locked.standing[fallen_bid_id], slot.winning_bid_id,
                                               list(locked.standing.values()))
                check_move(chosen.status, BidStatus.OFFERED)
                check_room_on_post(await placements_on_post(session, slot.post_id))  # relisted and sold meanwhile
            bid = locked.rows[chosen.id]
            bid.status = BidStatus.OFFERED.value
            bid.offer_expires_at = rules.offer_deadline(now, self.window)
            bid.updated_at = now
            await outbox.publish(session, events_out.bid_offered_event(slot, bid, fallen_bid_id,
                                                                       self.settings.currency), source=SERVICE)
            return await _fresh(session, BidView(bid=bid, slot=slot, buyer=locked.buyers[bid.id]))

    async def fallen_winners(self, creator_id: uuid.UUID) -> list[SecondChanceView]:
        """The creator's closed slots whose winner fell through and that are not sold again (the latest 100), each with
        its runner-up (whom an offer would go to) or the offer open now: two statements."""
        fallen_winner = and_(Bid.id == Slot.winning_bid_id, or_(
            Bid.status == BidStatus.REJECTED.value,
            and_(Bid.status == BidStatus.EXPIRED.value, Bid.payment_status == "EXPIRED")))
        async with self.db.transaction() as session:
            slots = (await session.scalars(
                select(Slot).join(Bid, fallen_winner).where(Slot.creator_id == creator_id, Slot.status == "CLOSED")
                .order_by(Slot.closed_at.desc(), Slot.id).limit(100))).all()
            found = _collect(list(slots), (await session.execute(_bids_of_slots([s.id for s in slots]))).all())
            return [_chance(found[slot.id]) for slot in slots]

    # --- the brand -----------------------------------------------------------------------------------------------

    async def accept(self, buyer_id: uuid.UUID, bid_id: uuid.UUID) -> BidView:
        """POST /buyer/bids/{id}/accept-offer. A campaign's bid is taken only within its campaign's budget."""
        async with self.db.transaction() as session:
            view, events = await self._answer(session, bid_id, buyer_id=buyer_id, accept=True)
            await outbox.publish_all(session, events, source=SERVICE)
            return await _fresh(session, view)

    async def decline(self, buyer_id: uuid.UUID, bid_id: uuid.UUID) -> BidView:
        """POST /buyer/bids/{id}/decline-offer."""
        async with self.db.transaction() as session:
            view, events = await self._answer(session, bid_id, buyer_id=buyer_id, accept=False)
            await outbox.publish_all(session, events, source=SERVICE)
            return await _fresh(session, view)

    async def answer_for_campaign(self, session: AsyncSession, bid_id: uuid.UUID) -> list[EventData]:
        """A campaign's bid was offered a slot (its BidOffered event, in the handler's transaction): the campaign
        accepts if its budget takes the price, else declines. A no-op once the offer is answered."""
        campaign_id = await session.scalar(select(Bid.campaign_id).where(Bid.id == bid_id))
        if campaign_id is None:
            return []
        campaign = await campaigns.lock(session, campaign_id)
        locked = await _lock_slot_of_bid(session, bid_id, buyer_id=campaign.buyer_id) if campaign else None
        if locked is None or locked.rows[bid_id].status != BidStatus.OFFERED.value:
            return []
        now = self.clock()
        bid = locked.rows[bid_id]
        standing = locked.standing[bid_id]
        try:
            rules.check_can_answer(standing.status, bid.offer_expires_at, now, suspended=standing.suspended,
                                   tied=standing.tied)
        except rules.StateConflict:
            return []  # lapsed or barred: the lapse job or the suspension handler ends it
        assert campaign is not None
        if await placements_on_post(session, locked.slot.post_id) >= MAX_PINNED_PER_POST:
            return self._declined(locked, bid, rules.WITHDRAWN, now)  # the post's pins were taken meanwhile
        if await self._campaign_takes(session, campaign, bid, now):
            return await self._accepted_for(session, campaign, self._accepted(locked, bid, now), now)
        log.info("campaign %s declines the offer of bid %s: its budget cannot take it", campaign.id, bid.id)
        return self._declined(locked, bid, rules.OVER_BUDGET, now)

    async def _answer(self, session: AsyncSession, bid_id: uuid.UUID, *, buyer_id: uuid.UUID,
                      accept: bool) -> tuple[BidView, list[EventData]]:
        # a campaign's lock comes before the slot's (as when it bids); a bid's campaign never changes, so reading it
        # unlocked first is safe
        campaign_id = await session.scalar(select(Bid.campaign_id).where(Bid.id == bid_id, Bid.buyer_id == buyer_id))
        campaign = await campaigns.lock(session, campaign_id) if campaign_id else None
        locked = await _lock_slot_of_bid(session, bid_id, buyer_id=buyer_id)
        if locked is None:
            raise NotFound("Bid not found.")
        now = self.clock()
        bid, standing = locked.rows[bid_id], locked.standing[bid_id]
        with as_api_errors():
            if accept:
                rules.check_can_answer(standing.status, bid.offer_expires_at, now, suspended=standing.suspended,
                                       tied=standing.tied)
                check_room_on_post(await placements_on_post(session, locked.slot.post_id))
            else:
                rules.check_can_answer(standing.status, bid.offer_expires_at, now)
        if not accept:
            events = self._declined(locked, bid, rules.DECLINED, now)
        else:
            if campaign is not None and not await self._campaign_takes(session, campaign, bid, now):
                raise Conflict(f"The campaign “{campaign.name}” cannot take this price now: its budget (or its "
                               "state) does not allow it.", code="campaign_budget")
            events = await self._accepted_for(session, campaign, self._accepted(locked, bid, now), now)
        return BidView(bid=bid, slot=locked.slot, buyer=locked.buyers[bid_id]), events

    @staticmethod
    async def _campaign_takes(session: AsyncSession, campaign: Campaign, bid: Bid, now: datetime) -> bool:
        """Under the campaign's row lock: its committed total (campaigns.figures_of, counted from its bids) plus
        the price within its limit, while it runs."""
        committed = (await campaigns.figures_of(session, [campaign.id]))[campaign.id].committed
        return rules.campaign_can_take(bid.ceiling, committed=committed, budget=campaign.budget,
                                       funded=campaign.funded, status=campaign.status, ends_at=campaign.ends_at,
                                       now=now)

    async def _accepted_for(self, session: AsyncSession, campaign: Campaign | None, events: list[EventData],
                            now: datetime) -> list[EventData]:
        """A campaign's win by an offer commits its price: the campaign's new figures are announced (a new version
        of `marketplace.campaign.updated.v1`), as after any change of it."""
        if campaign is None:
            return events
        await session.flush()
        figures = (await campaigns.figures_of(session, [campaign.id]))[campaign.id]
        return events + campaigns.changed(campaign, figures, now, self.settings.currency)

    def _accepted(self, locked: SlotBids, bid: Bid, now: datetime) -> list[EventData]:
        """The offered bid becomes the slot's winner, approved at its price, with its comment approved as it is
        (the creator offered it): payments asks for the payment on the BidApproved, as for any approval."""
        slot, buyer = locked.slot, locked.buyers[bid.id]
        check_move(BidStatus(bid.status), BidStatus.APPROVED)
        price = rules.offer_price(locked.standing[bid.id])
        bid.status, bid.final_price = BidStatus.APPROVED.value, price
        # `decided_at` stays unset: it times the creator's decision after a close (the reliability record's response
        # time), and this approval is the brand's answer, not the creator's
        bid.updated_at = now
        slot.winning_bid_id, slot.outcome, slot.current_bid = bid.id, "SOLD", price
        slot.updated_at = now
        currency = self.settings.currency
        events: list[EventData] = [events_out.bid_approved_event(slot, bid, currency)]
        if bid.comment_id is None or (bid.comment_read_at is not None and bid.comment_text):
            # a named comment social has not read yet waits for the creator's own approval, as after any approval
            events += approve_comment_as_it_is(slot, bid, buyer, now)
        events += [events_out.offer_accepted_event(slot, bid, buyer, currency),
                   events_out.slot_updated_event(slot, currency)]
        return events

    def _declined(self, locked: SlotBids, bid: Bid, reason: str, now: datetime) -> list[EventData]:
        return expire_offer(locked.slot, bid, reason, now, self.settings.currency)


__all__ = ["SecondChance", "SecondChanceView"]
