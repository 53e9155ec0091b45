"""What social keeps from other services' events: users (names, business names), slots (pinSlots on
posts), and the bids it must pin. Every handler is an upsert guarded by the event's time, so a
redelivered or late event changes nothing.

Module-level handlers in one map (`HANDLERS`, event type -> its handlers); each adds the events it causes to
`delivery.events`, written once when it returns (pinbid_kit.inbox.Delivery)."""

import logging
from dataclasses import dataclass

from pinbid_kit import inbox
from pinbid_kit.envelope import Envelope
from pinbid_kit.errors import ApiError
from pinbid_kit.events import identity as i
from pinbid_kit.events import marketplace as m
from pinbid_kit.events import payments as pay
from pinbid_kit.events import social as s
from sqlalchemy import bindparam, func, or_
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from .connections import connection_of
from .disputes import close_disputes_on_refund, end_placement
from .domain.placement import Status
from .domain.trust import refund_reason
from .models import BidComment, Placement, Slot, User
from .pins import Pins

log = logging.getLogger("pinbid.social.handlers")


@dataclass(frozen=True)
class Dependencies:
    pins: Pins


Delivery = inbox.Delivery[Dependencies]


async def resolve_named_comment(session: AsyncSession, d: m.BidCommentChanged, delivery: Delivery) -> None:
    """A bid names an existing comment: tell marketplace its text and author, as Instagram has them."""
    if not d.comment_id:
        return
    try:
        found = await delivery.deps.pins.comment_on_slot(d.slot_id, d.comment_id)
    except ApiError as unreadable:
        log.warning("cannot read comment %s of bid %s: %s", d.comment_id, d.bid_id, unreadable)
        if unreadable.code == "creator_not_connected":
            return  # nothing to read it with; the bid keeps what the brand sent
        raise  # delivered again later (the slot's event may not be here yet, Instagram may be down)
    delivery.events.append(s.BidCommentResolved(
        bid_id=d.bid_id, comment_id=d.comment_id, found=found is not None,
        text=found.text if found else None, username=found.username if found else None,
        read_at=delivery.envelope.occurred_at))


async def keep_user(session: AsyncSession, d: i.UserRegistered, delivery: Delivery) -> None:
    values = dict(email=d.email, name=d.name, role=d.role, business_name=d.business_name,
                  instagram_handle=d.instagram_handle, last_event_at=delivery.envelope.occurred_at)
    await session.execute(insert(User).values(user_id=d.user_id, **values).on_conflict_do_update(
        index_elements=[User.user_id], set_=values, where=User.last_event_at <= delivery.envelope.occurred_at))


async def keep_user_changes(session: AsyncSession, d: i.UserUpdated, delivery: Delivery) -> None:
    values = dict(email=d.email, name=d.name, role=d.role, last_event_at=delivery.envelope.occurred_at)
    await session.execute(insert(User).values(user_id=d.user_id, **values).on_conflict_do_update(
        index_elements=[User.user_id], set_=values, where=User.last_event_at <= delivery.envelope.occurred_at))


async def keep_slot(session: AsyncSession, d: m.SlotCreated, delivery: Delivery) -> None:
    fixed = dict(title=d.title, category=d.category, min_bid_cents=d.min_bid_cents,
                 duration_days=d.duration_days, currency=d.currency)
    await session.execute(insert(Slot).values(
        slot_id=d.slot_id, creator_id=d.creator_id, post_id=d.post_id, status="ACTIVE", bid_count=0,
        auction_end=d.auction_end, last_event_at=delivery.envelope.occurred_at, **fixed,
    ).on_conflict_do_update(index_elements=[Slot.slot_id], set_=fixed))  # an update may have come first


def _slot_upsert():
    """Built once: a slot's change is the same statement for every delivery, only its values differ (building the
    ORM insert for each was a quarter of a slot.updated delivery's CPU). Guarded by the event's time: an older
    change than the one kept changes nothing (hence LATEST_OF below); a `bidder_count` of None (a marketplace that
    predates it) leaves what social has."""
    slots = Slot.__table__
    moving = ("status", "current_bid_cents", "bid_count", "auction_end", "last_event_at")
    upsert = insert(slots).values({c: bindparam(c) for c in ("slot_id", "creator_id", "post_id", "currency",
                                                             "bidder_count", *moving)})
    return upsert.on_conflict_do_update(
        index_elements=[slots.c.slot_id],
        set_={**{c: upsert.excluded[c] for c in moving},
              "bidder_count": func.coalesce(upsert.excluded.bidder_count, slots.c.bidder_count)},
        where=slots.c.last_event_at <= upsert.excluded.last_event_at)


_KEEP_SLOT = _slot_upsert()


async def keep_slot_changes(session: AsyncSession, d: m.SlotUpdated, delivery: Delivery) -> None:
    await session.execute(_KEEP_SLOT, dict(
        slot_id=d.slot_id, creator_id=d.creator_id, post_id=d.post_id, currency=d.currency, status=d.status,
        current_bid_cents=d.current_bid_cents, bid_count=d.bid_count, bidder_count=d.bidder_count,
        auction_end=d.auction_end, last_event_at=delivery.envelope.occurred_at))


async def expect_payment(session: AsyncSession, d: m.BidApproved, delivery: Delivery) -> None:
    await session.execute(insert(Placement).values(
        bid_id=d.bid_id, slot_id=d.slot_id, creator_id=d.creator_id, buyer_id=d.buyer_id,
        status=Status.AWAITING_PAYMENT).on_conflict_do_nothing())


async def expect_pin(session: AsyncSession, d: m.BidAwarded, delivery: Delivery) -> None:
    creator = await connection_of(session, d.creator_id)
    facts = dict(slot_id=d.slot_id, creator_id=d.creator_id, buyer_id=d.buyer_id, buyer_name=d.buyer_name,
                 business_name=d.business_name, post_id=d.post_id, duration_days=d.duration_days,
                 price_cents=d.final_price_cents,
                 # the method it is paid under is the method it is pinned under (issue 30)
                 pin_method=creator.pin_method if creator else "SESSION")
    await session.execute(insert(Placement).values(bid_id=d.bid_id, status=Status.AWAITING_PIN, **facts)
                          .on_conflict_do_update(
                              index_elements=[Placement.bid_id],
                              set_={**facts, "status": Status.AWAITING_PIN},
                              where=Placement.status == Status.AWAITING_PAYMENT))
    await _keep_comment(session, d.bid_id, d.comment_id, d.comment_text, delivery.envelope)


async def end_on_refund(session: AsyncSession, d: pay.PaymentRefunded, delivery: Delivery) -> None:
    """A full refund ends the placement everywhere: not tracked, no kept days, unpinned (or the creator told to
    unpin), and a dispute still open on it closed (the money it was about is back with the brand). Redelivered,
    it finds the placement ended and changes nothing."""
    at = delivery.envelope.occurred_at
    delivery.events.extend(await end_placement(session, d.bid_id, refund_reason(d.reason), at))
    await close_disputes_on_refund(session, d.bid_id, refund_reason(d.reason), at)


async def keep_comment(session: AsyncSession, d: m.BidCommentChanged, delivery: Delivery) -> None:
    await _keep_comment(session, d.bid_id, d.comment_id, d.comment_text, delivery.envelope)


async def keep_approved_text(session: AsyncSession, d: m.CommentApproved, delivery: Delivery) -> None:
    values = dict(approved_comment_id=d.comment_id, approved_text=d.text, approved_at=d.approved_at)
    await session.execute(insert(BidComment).values(bid_id=d.bid_id, **values).on_conflict_do_update(
        index_elements=[BidComment.bid_id], set_=values,
        where=or_(BidComment.approved_at.is_(None), BidComment.approved_at <= d.approved_at)))


async def _keep_comment(session: AsyncSession, bid_id, comment_id: str | None, comment_text: str | None,
                        e: Envelope) -> None:
    if not comment_id and not (comment_text or "").strip():
        return
    values = dict(comment_id=comment_id, comment_text=None if comment_id else comment_text, changed_at=e.occurred_at)
    await session.execute(insert(BidComment).values(bid_id=bid_id, **values).on_conflict_do_update(
        index_elements=[BidComment.bid_id], set_=values,
        where=or_(BidComment.changed_at.is_(None), BidComment.changed_at <= e.occurred_at)))


HANDLERS: dict[str, list[inbox.MappedHandler]] = {
    i.UserRegistered.event_type: [keep_user],
    i.UserUpdated.event_type: [keep_user_changes],
    m.SlotCreated.event_type: [keep_slot],
    m.SlotUpdated.event_type: [keep_slot_changes],
    m.BidApproved.event_type: [expect_payment],
    m.BidAwarded.event_type: [expect_pin],
    pay.PaymentRefunded.event_type: [end_on_refund],
    m.BidCommentChanged.event_type: [resolve_named_comment, keep_comment],
    m.CommentApproved.event_type: [keep_approved_text],
}

# a hot slot's changes: those waiting together handled in one transaction, and of several of one slot only the latest
# (keep_slot_changes keeps the latest by the event's time anyway; pinbid_kit.inbox.in_bursts)
IN_BURSTS = (m.SlotUpdated.event_type,)
LATEST_OF = {m.SlotUpdated.event_type: lambda d: d.slot_id}
