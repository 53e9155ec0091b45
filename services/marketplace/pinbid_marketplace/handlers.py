"""What marketplace keeps from other services' events: users, creator profiles and posts (read models),
and the later life of a winning bid (payment, pin). Handlers tolerate duplicates and out-of-order events:
read models are upserts, and a bid moves only along its state machine (anything else is ignored)."""

import logging

from pinbid_kit import outbox
from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import identity as i
from pinbid_kit.events import marketplace as m
from pinbid_kit.events import payments as p
from pinbid_kit.events import social as s
from pinbid_kit.events.trust import AccountSignal as Signal
from pinbid_kit.inbox import Consumers
from sqlalchemy import func, or_, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, events_out, flags, reliability, suspensions
from .domain.money import from_cents
from .domain.states import BidStatus, can_move
from .models import Bid, CreatorProfile, Post, Slot, User
from .rules import auction_rules
from .settings import MarketplaceSettings

log = logging.getLogger("pinbid.marketplace.handlers")
# A placement's end (unpinned, completed, ended on a refund) may be delivered before its pin (a redelivery out of
# order): it is kept then too, and the late pin does not make the placement live again.
# a named comment not read yet matters while the bid may still be approved or pinned
COMMENT_UNREAD_MATTERS = [BidStatus.ACTIVE, BidStatus.OUTBID, BidStatus.PENDING_INFLUENCER_APPROVAL,
                          BidStatus.APPROVED, BidStatus.AWAITING_PAYMENT, BidStatus.WON]
NOT_ENDED_YET = or_(Bid.pinned_status.is_(None), Bid.pinned_status == "ACTIVE")


async def upsert(session: AsyncSession, model, values: dict, key: str) -> None:
    statement = insert(model).values(**values)
    await session.execute(statement.on_conflict_do_update(
        index_elements=[key], set_={k: statement.excluded[k] for k in values if k != key}))


async def locked_bid(session: AsyncSession, bid_id) -> Bid | None:
    return await session.get(Bid, bid_id, with_for_update=True)


async def advance(bid: Bid, target: BidStatus, envelope: Envelope) -> bool:
    if bid.status == target:
        return False
    if not can_move(BidStatus(bid.status), target):
        log.warning("ignoring %s for bid %s: it is %s", envelope.type, bid.id, bid.status)
        return False
    bid.status = target.value
    return True


def register(consumers: Consumers, settings: MarketplaceSettings, clock: Clock = utcnow) -> None:
    on = consumers.on

    @on(i.UserRegistered.event_type)
    async def keep_registered_user(session: AsyncSession, d: i.UserRegistered, _: Envelope) -> None:
        await upsert(session, User, {"id": d.user_id, "name": d.name, "email": d.email, "role": d.role,
                                     "business_name": d.business_name, "instagram_handle": d.instagram_handle}, "id")
        await session.execute(update(Slot).where(Slot.creator_id == d.user_id).values(creator_name=d.name))

    @on(i.UserUpdated.event_type)
    async def keep_updated_user(session: AsyncSession, d: i.UserUpdated, _: Envelope) -> None:
        await upsert(session, User, {"id": d.user_id, "name": d.name, "email": d.email, "role": d.role}, "id")
        await session.execute(update(Slot).where(Slot.creator_id == d.user_id).values(creator_name=d.name))

    @on(s.AccountConnected.event_type)
    @on(s.AccountUpdated.event_type)
    async def keep_creator_profile(session: AsyncSession, d: s.AccountConnected, _: Envelope) -> None:
        profile = {"followers": d.profile.followers, "avg_views": d.profile.avg_views,
                   "avg_engagement": d.profile.avg_engagement, "verified": d.profile.verified}
        await upsert(session, CreatorProfile, {"user_id": d.user_id, "instagram_id": d.instagram_id,
                                               "username": d.username, "connected": True, **profile}, "user_id")
        await session.execute(update(Slot).where(Slot.creator_id == d.user_id)
                              .values(creator_handle=d.username, **profile))

    @on(s.AccountConnected.event_type)
    async def read_named_comments_again(session: AsyncSession, d: s.AccountConnected, _: Envelope) -> None:
        """Social reads a named comment with the creator's connection: the bids on this creator's slots whose
        comment it could not read meanwhile are announced again, so it reads them now."""
        waiting = (await session.scalars(
            select(Bid).join(Slot, Slot.id == Bid.slot_id)
            .where(Slot.creator_id == d.user_id, Bid.comment_id.is_not(None), Bid.comment_read_at.is_(None),
                   Bid.status.in_(COMMENT_UNREAD_MATTERS)))).all()
        await outbox.publish_all(session, [events_out.comment_changed_event(bid) for bid in waiting], source=SERVICE)

    @on(s.AccountDisconnected.event_type)
    async def forget_connection(session: AsyncSession, d: s.AccountDisconnected, _: Envelope) -> None:
        await session.execute(update(CreatorProfile).where(CreatorProfile.user_id == d.user_id)
                              .values(connected=False))

    @on(s.MediaSynced.event_type)
    async def keep_posts(session: AsyncSession, d: s.MediaSynced, _: Envelope) -> None:
        for post in d.posts:
            values = {"id": post.id, "user_id": d.user_id, "media_type": post.media_type,
                      "media_url": post.media_url, "permalink": post.permalink, "caption": post.caption,
                      "views": post.views, "like_count": post.like_count, "comments_count": post.comments_count,
                      "posted_at": post.posted_at}
            await upsert(session, Post, values, "id")
            await session.execute(update(Slot).where(Slot.post_id == post.id, Slot.creator_id == d.user_id)
                                  .values(media_type=post.media_type, media_url=post.media_url,
                                          permalink=post.permalink))

    @on(p.PaymentRequested.event_type)
    async def payment_requested(session: AsyncSession, d: p.PaymentRequested, e: Envelope) -> None:
        bid = await locked_bid(session, d.bid_id)
        if bid is None:
            return
        if await advance(bid, BidStatus.AWAITING_PAYMENT, e) or bid.payment_status is None:
            bid.payment_id, bid.payment_status, bid.payment_expires_at = d.payment_id, "PENDING", d.expires_at

    @on(p.PaymentCompleted.event_type)
    async def payment_completed(session: AsyncSession, d: p.PaymentCompleted, e: Envelope) -> None:
        bid = await locked_bid(session, d.bid_id)
        if bid is None or not await advance(bid, BidStatus.WON, e):
            return
        bid.payment_id, bid.payment_status, bid.pin_deadline_at = d.payment_id, "COMPLETED", d.pin_deadline_at
        bid.paid_at = clock()  # moments after the payment (as of it, when the demo replays its history)
        slot = await session.get(Slot, bid.slot_id)
        assert slot is not None
        awarded = events_out.bid_awarded(slot, bid, await session.get(User, bid.buyer_id), settings.currency)
        await outbox.publish(session, awarded, source=SERVICE)

    @on(p.PaymentExpired.event_type)
    async def payment_expired(session: AsyncSession, d: p.PaymentExpired, e: Envelope) -> None:
        bid = await locked_bid(session, d.bid_id)
        if bid is None or not await advance(bid, BidStatus.EXPIRED, e):
            return
        bid.payment_status = "EXPIRED"
        slot = await session.get(Slot, bid.slot_id, with_for_update=True)
        assert slot is not None
        slot.outcome = "UNSOLD"
        await outbox.publish(session, events_out.slot_updated_event(slot, settings.currency), source=SERVICE)

    @on(p.PaymentRefunded.event_type)
    async def payment_refunded(session: AsyncSession, d: p.PaymentRefunded, _: Envelope) -> None:
        """Everything the brand paid is back (whatever a partial refund gave before): set, not added, so a
        redelivery or a partial refund delivered after it changes nothing."""
        await session.execute(update(Bid).where(Bid.id == d.bid_id).values(
            payment_status="REFUNDED", refunded=from_cents(d.amount_cents)))

    @on(p.PaymentPartiallyRefunded.event_type)
    async def payment_partially_refunded(session: AsyncSession, d: p.PaymentPartiallyRefunded, _: Envelope) -> None:
        """The unearned share went back (one per payment): never below what a full refund already set."""
        await session.execute(update(Bid).where(Bid.id == d.bid_id).values(
            refunded=func.greatest(Bid.refunded, from_cents(d.refund_cents))))

    @on(s.CommentPinned.event_type)
    async def comment_pinned(session: AsyncSession, d: s.CommentPinned, e: Envelope) -> None:
        bid = await locked_bid(session, d.bid_id)
        if bid is None or not await advance(bid, BidStatus.PINNED, e):
            return
        bid.pinned_comment_id, bid.pinned_text, bid.pinned_at = d.comment_id, d.comment_text, d.pinned_at
        bid.pinned_status = bid.pinned_status or "ACTIVE"  # an end delivered before this pin stays the end
        await session.flush()
        await reliability.refresh(session, d.creator_id)

    @on(s.CommentMetricsUpdated.event_type)
    async def comment_metrics(session: AsyncSession, d: s.CommentMetricsUpdated, _: Envelope) -> None:
        # clicks only grow: a late, older event does not take any back
        await session.execute(update(Bid).where(Bid.id == d.bid_id).values(
            likes=d.likes, replies=d.replies, clicks=func.greatest(Bid.clicks, d.clicks)))

    @on(s.CommentUnpinned.event_type)
    async def comment_unpinned(session: AsyncSession, d: s.CommentUnpinned, _: Envelope) -> None:
        await session.execute(update(Bid).where(Bid.id == d.bid_id, NOT_ENDED_YET).values(pinned_status="UNPINNED"))
        await reliability.refresh(session, d.creator_id)

    @on(s.PlacementCompleted.event_type)
    async def placement_completed(session: AsyncSession, d: s.PlacementCompleted, _: Envelope) -> None:
        await session.execute(update(Bid).where(Bid.id == d.bid_id, NOT_ENDED_YET).values(pinned_status="COMPLETED"))
        await reliability.refresh(session, d.creator_id)

    @on(s.PlacementEnded.event_type)
    async def placement_ended(session: AsyncSession, d: s.PlacementEnded, _: Envelope) -> None:
        """Ended on a refund (an operator's REFUND_* decision, a full refund in payments), also after it completed:
        no longer live on anyone's screen, and no longer holding one of the post's pins."""
        ending = or_(NOT_ENDED_YET, Bid.pinned_status == "COMPLETED")
        await session.execute(update(Bid).where(Bid.id == d.bid_id, ending).values(pinned_status="ENDED"))
        await reliability.refresh(session, d.creator_id)

    @on(s.SocialAccountSignal.event_type)
    @on(p.PaymentsAccountSignal.event_type)
    @on(i.IdentityAccountSignal.event_type)
    async def keep_account_signal(session: AsyncSession, d: Signal, _: Envelope) -> None:
        """A hard tie, once known, also withdraws the tied brand's live bids on the creator's open slots."""
        await flags.record_signal(session, d, now=clock(), rules=auction_rules(settings), settings=settings)

    @on(m.AuctionClosed.event_type)
    async def review_bidders(session: AsyncSession, d: m.AuctionClosed, e: Envelope) -> None:
        await flags.review_closed_slot(session, d.slot_id, e.occurred_at)

    @on(i.UserSuspended.event_type)
    async def withdraw_suspended(session: AsyncSession, d: i.UserSuspended, _: Envelope) -> None:
        withdrawn, closed = await suspensions.withdraw_everything_of(
            session, d.user_id, now=d.suspended_at, rules=auction_rules(settings), settings=settings)
        log.info("user %s suspended: %d bids withdrawn, %d slots closed", d.user_id, withdrawn, closed)

    @on(s.DisputeDecided.event_type)
    async def count_dispute(session: AsyncSession, d: s.DisputeDecided, _: Envelope) -> None:
        if d.outcome == "CONTINUE":
            return
        await session.execute(update(Bid).where(Bid.id == d.bid_id).values(dispute_outcome=d.outcome))
        await reliability.refresh(session, d.creator_id)

    @on(s.BidCommentResolved.event_type)
    async def fill_named_comment(session: AsyncSession, d: s.BidCommentResolved, _: Envelope) -> None:
        """The text and author of the comment a bid names, as social read them on the post: shown wherever the bid
        is (what the brand's client sent, if anything, gives way to them). A changed text withdraws an approval
        of the old one, so the creator approves what will be pinned."""
        if not d.found:
            log.info("bid %s names comment %s, which its post does not have", d.bid_id, d.comment_id)
        # a change to a live bid outside a batch bumps its slot's version first (store.py), so a batch that read
        # the bid before does not write the old comment back
        await session.execute(_TOUCH_SLOT_OF_BID, {"bid_id": d.bid_id})
        bid = await locked_bid(session, d.bid_id)
        if bid is None or bid.comment_id != d.comment_id:
            return  # the brand chose another comment since
        bid.comment_read_at = d.read_at
        if (bid.comment_text, bid.comment_username) == (d.text, d.username):
            return
        withdrawn = bid.approved_text is not None and bid.approved_text != d.text and bid.status != BidStatus.PINNED
        bid.comment_text, bid.comment_username = d.text, d.username
        if withdrawn:  # told as a changed comment: social then waits for the new approval before it pins
            bid.approved_text = bid.approved_at = None
            await outbox.publish(session, events_out.comment_changed_event(bid), source=SERVICE)


_TOUCH_SLOT_OF_BID = text("""
    UPDATE slots SET version = version FROM bids WHERE bids.id = :bid_id AND slots.id = bids.slot_id""")
