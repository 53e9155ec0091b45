"""What marketplace keeps from other services' events: users, creator profiles and posts (read models),
and the later life of a winning bid (payment, pin). Handlers tolerate duplicates and out-of-order events:
read models are upserts, and a bid moves only along its state machine (anything else is ignored).

Module-level handlers in one map (`HANDLERS`, event type -> its handlers); each adds the events it causes to
`delivery.events`, written once when it returns (pinbid_kit.inbox.Delivery)."""

import logging
from dataclasses import dataclass

from pinbid_kit import inbox
from pinbid_kit.clock import Clock
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import campaigns as ce
from pinbid_kit.events import identity as i
from pinbid_kit.events import marketplace as m
from pinbid_kit.events import payments as p
from pinbid_kit.events import social as s
from pinbid_kit.events.trust import AccountSignal as Signal
from pinbid_kit.events.trust import ends_placement
from sqlalchemy import func, or_, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from . import campaigns, events_out, flags, offer_ends, reliability, second_chance, suspensions
from .campaign_bidding import CampaignBidding
from .domain import campaigns as campaign_rules
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


@dataclass(frozen=True)
class Dependencies:
    settings: MarketplaceSettings
    clock: Clock
    campaign_bidding: CampaignBidding | None = None
    second_chance: "second_chance.SecondChance | None" = None


Delivery = inbox.Delivery[Dependencies]


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


async def keep_registered_user(session: AsyncSession, d: i.UserRegistered, delivery: Delivery) -> None:
    await upsert(session, User, {"id": d.user_id, "name": d.name, "email": d.email, "role": d.role,
                                 "business_name": d.business_name, "instagram_handle": d.instagram_handle}, "id")
    await session.execute(update(Slot).where(Slot.creator_id == d.user_id).values(creator_name=d.name))


async def keep_updated_user(session: AsyncSession, d: i.UserUpdated, delivery: Delivery) -> None:
    await upsert(session, User, {"id": d.user_id, "name": d.name, "email": d.email, "role": d.role}, "id")
    await session.execute(update(Slot).where(Slot.creator_id == d.user_id).values(creator_name=d.name))


async def keep_creator_profile(session: AsyncSession, d: s.AccountConnected, delivery: Delivery) -> None:
    profile = {"followers": d.profile.followers, "avg_views": d.profile.avg_views,
               "avg_engagement": d.profile.avg_engagement, "verified": d.profile.verified}
    await upsert(session, CreatorProfile, {"user_id": d.user_id, "instagram_id": d.instagram_id,
                                           "username": d.username, "connected": True, **profile}, "user_id")
    await session.execute(update(Slot).where(Slot.creator_id == d.user_id)
                          .values(creator_handle=d.username, **profile))


async def read_named_comments_again(session: AsyncSession, d: s.AccountConnected, delivery: Delivery) -> None:
    """Social reads a named comment with the creator's connection: the bids on this creator's slots whose
    comment it could not read meanwhile are announced again, so it reads them now."""
    waiting = (await session.scalars(
        select(Bid).join(Slot, Slot.id == Bid.slot_id)
        .where(Slot.creator_id == d.user_id, Bid.comment_id.is_not(None), Bid.comment_read_at.is_(None),
               Bid.status.in_(COMMENT_UNREAD_MATTERS)))).all()
    delivery.events.extend(events_out.comment_changed_event(bid) for bid in waiting)


async def forget_connection(session: AsyncSession, d: s.AccountDisconnected, delivery: Delivery) -> None:
    await session.execute(update(CreatorProfile).where(CreatorProfile.user_id == d.user_id)
                          .values(connected=False))


async def keep_posts(session: AsyncSession, d: s.MediaSynced, delivery: Delivery) -> None:
    for post in d.posts:
        values = {"id": post.id, "user_id": d.user_id, "media_type": post.media_type,
                  "media_url": post.media_url, "permalink": post.permalink, "caption": post.caption,
                  "views": post.views, "like_count": post.like_count, "comments_count": post.comments_count,
                  "posted_at": post.posted_at}
        caption_before = await session.scalar(select(Post.caption).where(Post.id == post.id))
        await upsert(session, Post, values, "id")
        await session.execute(update(Slot).where(Slot.post_id == post.id, Slot.creator_id == d.user_id)
                              .values(media_type=post.media_type, media_url=post.media_url,
                                      permalink=post.permalink))
        if caption_before is not None and caption_before != post.caption:
            # the slot's meaning is made again, with the new caption, by the search index's job (meaning.py)
            await session.execute(update(Slot).where(Slot.post_id == post.id, Slot.status == "ACTIVE")
                                  .values(meaning=None, word_meaning=None, sentence_meaning=None))


async def payment_requested(session: AsyncSession, d: p.PaymentRequested, delivery: Delivery) -> None:
    bid = await locked_bid(session, d.bid_id)
    if bid is None:
        return
    if await advance(bid, BidStatus.AWAITING_PAYMENT, delivery.envelope) or bid.payment_status is None:
        bid.payment_id, bid.payment_status, bid.payment_expires_at = d.payment_id, "PENDING", d.expires_at


async def payment_completed(session: AsyncSession, d: p.PaymentCompleted, delivery: Delivery) -> None:
    bid = await locked_bid(session, d.bid_id)
    if bid is None or not await advance(bid, BidStatus.WON, delivery.envelope):
        return
    bid.payment_id, bid.payment_status, bid.pin_deadline_at = d.payment_id, "COMPLETED", d.pin_deadline_at
    bid.paid_at = delivery.deps.clock()  # moments after the payment (as of it, when the demo replays its history)
    slot = await session.get(Slot, bid.slot_id)
    assert slot is not None
    delivery.events.append(events_out.bid_awarded(slot, bid, await session.get(User, bid.buyer_id),
                                                  delivery.deps.settings.currency))


async def payment_expired(session: AsyncSession, d: p.PaymentExpired, delivery: Delivery) -> None:
    bid = await locked_bid(session, d.bid_id)
    if bid is None or not await advance(bid, BidStatus.EXPIRED, delivery.envelope):
        return
    bid.payment_status = "EXPIRED"
    slot = await session.get(Slot, bid.slot_id, with_for_update=True)
    assert slot is not None
    slot.outcome = "UNSOLD"
    delivery.events.append(events_out.slot_updated_event(slot, delivery.deps.settings.currency))


async def payment_refunded(session: AsyncSession, d: p.PaymentRefunded, delivery: Delivery) -> None:
    """Everything the brand paid is back (whatever a partial refund gave before): set, not added, so a
    redelivery or a partial refund delivered after it changes nothing."""
    await session.execute(update(Bid).where(Bid.id == d.bid_id).values(
        payment_status="REFUNDED", refunded=from_cents(d.amount_cents)))


async def payment_partially_refunded(session: AsyncSession, d: p.PaymentPartiallyRefunded, delivery: Delivery) -> None:
    """The unearned share went back (one per payment): never below what a full refund already set."""
    await session.execute(update(Bid).where(Bid.id == d.bid_id).values(
        refunded=func.greatest(Bid.refunded, from_cents(d.refund_cents))))


async def comment_pinned(session: AsyncSession, d: s.CommentPinned, delivery: Delivery) -> None:
    bid = await locked_bid(session, d.bid_id)
    if bid is None or not await advance(bid, BidStatus.PINNED, delivery.envelope):
        return
    bid.pinned_comment_id, bid.pinned_text, bid.pinned_at = d.comment_id, d.comment_text, d.pinned_at
    bid.pinned_status = bid.pinned_status or "ACTIVE"  # an end delivered before this pin stays the end
    await session.flush()
    await reliability.refresh(session, d.creator_id)


async def comment_metrics(session: AsyncSession, d: s.CommentMetricsUpdated, delivery: Delivery) -> None:
    # clicks only grow: a late, older event does not take any back
    await session.execute(update(Bid).where(Bid.id == d.bid_id).values(
        likes=d.likes, replies=d.replies, clicks=func.greatest(Bid.clicks, d.clicks)))


async def comment_unpinned(session: AsyncSession, d: s.CommentUnpinned, delivery: Delivery) -> None:
    await session.execute(update(Bid).where(Bid.id == d.bid_id, NOT_ENDED_YET).values(pinned_status="UNPINNED"))
    await reliability.refresh(session, d.creator_id)


async def placement_completed(session: AsyncSession, d: s.PlacementCompleted, delivery: Delivery) -> None:
    await session.execute(update(Bid).where(Bid.id == d.bid_id, NOT_ENDED_YET).values(pinned_status="COMPLETED"))
    await reliability.refresh(session, d.creator_id)


async def placement_ended(session: AsyncSession, d: s.PlacementEnded, delivery: Delivery) -> None:
    """Ended on a refund (an operator's REFUND_* decision, a full refund in payments), also after it completed:
    no longer live on anyone's screen, and no longer holding one of the post's pins."""
    ending = or_(NOT_ENDED_YET, Bid.pinned_status == "COMPLETED")
    await session.execute(update(Bid).where(Bid.id == d.bid_id, ending).values(pinned_status="ENDED"))
    await reliability.refresh(session, d.creator_id)


async def keep_account_signal(session: AsyncSession, d: Signal, delivery: Delivery) -> None:
    """A hard tie, once known, also withdraws the tied brand's live bids on the creator's open slots."""
    settings = delivery.deps.settings
    await flags.record_signal(session, d, now=delivery.deps.clock(), rules=auction_rules(settings), settings=settings)


async def review_bidders(session: AsyncSession, d: m.AuctionClosed, delivery: Delivery) -> None:
    await flags.review_closed_slot(session, d.slot_id, delivery.envelope.occurred_at)


async def withdraw_suspended(session: AsyncSession, d: i.UserSuspended, delivery: Delivery) -> None:
    settings = delivery.deps.settings
    # a suspended brand's campaigns end first: campaign locks before slot locks (campaign_bidding.py)
    ended = await campaigns.lock_campaigns_of(session, d.user_id)
    for row in ended:
        await _change_campaign(session, row.id, delivery, lambda life, now: campaign_rules.end(
            life, campaign_rules.Reason.SUSPENDED))
    withdrawn, closed = await suspensions.withdraw_everything_of(
        session, d.user_id, now=d.suspended_at, rules=auction_rules(settings), settings=settings)
    for row in ended:  # with its bids withdrawn, nothing may be left outstanding: settled now
        figures = (await campaigns.figures_of(session, [row.id]))[row.id]
        if campaigns.settles(row, figures):
            delivery.events.extend(campaigns.changed(row, figures, delivery.deps.clock(), settings.currency))
    log.info("user %s suspended: %d bids withdrawn, %d slots closed", d.user_id, withdrawn, closed)


async def keep_suspension(session: AsyncSession, d: i.UserSuspended, delivery: Delivery) -> None:
    """A suspended user is offered no second chance, and the offers open to it or on its slots are withdrawn."""
    await session.execute(update(User).where(User.id == d.user_id).values(suspended_at=d.suspended_at))
    delivery.events.extend(await offer_ends.withdraw_offers_of(
        session, d.user_id, now=delivery.deps.clock(), currency=delivery.deps.settings.currency))


async def lift_suspension(session: AsyncSession, d: i.UserRestored, delivery: Delivery) -> None:
    """Only a suspension older than the restoration is lifted: a restoration delivered late leaves a newer one."""
    await session.execute(update(User).where(User.id == d.user_id, User.suspended_at <= d.restored_at)
                          .values(suspended_at=None))


async def campaign_answers_offer(session: AsyncSession, d: m.BidOffered, delivery: Delivery) -> None:
    """A campaign's bid offered a slot is answered by its campaign at once, within its budget."""
    if d.campaign_id is None or delivery.deps.second_chance is None:
        return
    delivery.events.extend(await delivery.deps.second_chance.answer_for_campaign(session, d.bid_id))


async def count_dispute(session: AsyncSession, d: s.DisputeDecided, delivery: Delivery) -> None:
    if not ends_placement(d.outcome):
        return
    await session.execute(update(Bid).where(Bid.id == d.bid_id).values(dispute_outcome=d.outcome))
    await reliability.refresh(session, d.creator_id)


async def fill_named_comment(session: AsyncSession, d: s.BidCommentResolved, delivery: Delivery) -> None:
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
        delivery.events.append(events_out.comment_changed_event(bid))


async def bid_for_campaigns(session: AsyncSession, d: m.SlotCreated, delivery: Delivery) -> None:
    """A new slot is matched against every ACTIVE campaign, in this delivery's transaction: the campaigns' bids
    commit with its inbox row (docs/decisions/campaigns.md)."""
    if delivery.deps.campaign_bidding is not None:
        await delivery.deps.campaign_bidding.bid_on_new_slot(session, d.slot_id)


async def campaign_cancels_outbid(session: AsyncSession, d: ce.CampaignBidOutbid, delivery: Delivery) -> None:
    if delivery.deps.campaign_bidding is not None:
        await delivery.deps.campaign_bidding.release_outbid(session, d.bid_id)


async def campaigns_after_own_bid_cancelled(session: AsyncSession, d: ce.OwnBidCancelled, delivery: Delivery) -> None:
    """The brand cancelled its own bid: its campaigns that skipped the slot for it may bid there now."""
    if delivery.deps.campaign_bidding is not None:
        await delivery.deps.campaign_bidding.after_own_bid_cancelled(session, d.buyer_id, d.slot_id)


async def match_active_campaign(session: AsyncSession, d: ce.CampaignUpdated, delivery: Delivery) -> None:
    """An ACTIVE campaign bids on every open slot that fits and it has not considered (a no-op when none is left),
    in this delivery's transaction: the bids commit with its inbox row, so a redelivery has no second effect."""
    if d.status == campaign_rules.CampaignStatus.ACTIVE and delivery.deps.campaign_bidding is not None:
        await delivery.deps.campaign_bidding.match(session, d.campaign_id)


async def campaign_funded(session: AsyncSession, d: ce.CampaignFunded, delivery: Delivery) -> None:
    """What the brand paid in: a draft within its dates becomes ACTIVE (and bids, on its `updated`)."""
    await _change_campaign(session, d.campaign_id, delivery, lambda life, now: campaign_rules.funded(
        life, from_cents(d.funded_cents), now))


async def campaign_funding_reversed(session: AsyncSession, d: ce.CampaignFundingReversed, delivery: Delivery
                                    ) -> None:
    """The provider took a funding payment back: the campaign ends (its live bids run their course)."""
    await _change_campaign(session, d.campaign_id, delivery, lambda life, now: campaign_rules.funding_reversed(
        life, from_cents(d.funded_cents)))


async def _change_campaign(session: AsyncSession, campaign_id, delivery: Delivery, step) -> None:
    row = await campaigns.lock(session, campaign_id)
    if row is None:
        log.warning("%s for campaign %s, which marketplace does not have", delivery.envelope.type, campaign_id)
        return
    before = (row.status, row.reason, row.funded)
    life = campaigns.life_of(row)
    now = delivery.deps.clock()
    step(life, now)
    campaigns.store_life(row, life)
    if (row.status, row.reason, row.funded) != before:
        figures = (await campaigns.figures_of(session, [row.id]))[row.id]
        delivery.events.extend(campaigns.changed(row, figures, now, delivery.deps.settings.currency))


HANDLERS: dict[str, list[inbox.MappedHandler]] = {
    i.UserRegistered.event_type: [keep_registered_user],
    i.UserUpdated.event_type: [keep_updated_user],
    s.AccountUpdated.event_type: [keep_creator_profile],
    s.AccountConnected.event_type: [keep_creator_profile, read_named_comments_again],
    s.AccountDisconnected.event_type: [forget_connection],
    s.MediaSynced.event_type: [keep_posts],
    p.PaymentRequested.event_type: [payment_requested],
    p.PaymentCompleted.event_type: [payment_completed],
    p.PaymentExpired.event_type: [payment_expired],
    p.PaymentRefunded.event_type: [payment_refunded],
    p.PaymentPartiallyRefunded.event_type: [payment_partially_refunded],
    s.CommentPinned.event_type: [comment_pinned],
    s.CommentMetricsUpdated.event_type: [comment_metrics],
    s.CommentUnpinned.event_type: [comment_unpinned],
    s.PlacementCompleted.event_type: [placement_completed],
    s.PlacementEnded.event_type: [placement_ended],
    i.IdentityAccountSignal.event_type: [keep_account_signal],
    p.PaymentsAccountSignal.event_type: [keep_account_signal],
    s.SocialAccountSignal.event_type: [keep_account_signal],
    m.AuctionClosed.event_type: [review_bidders],
    i.UserSuspended.event_type: [withdraw_suspended, keep_suspension],
    i.UserRestored.event_type: [lift_suspension],
    m.BidOffered.event_type: [campaign_answers_offer],
    s.DisputeDecided.event_type: [count_dispute],
    s.BidCommentResolved.event_type: [fill_named_comment],
    m.SlotCreated.event_type: [bid_for_campaigns],
    ce.CampaignBidOutbid.event_type: [campaign_cancels_outbid],
    ce.OwnBidCancelled.event_type: [campaigns_after_own_bid_cancelled],
    ce.CampaignUpdated.event_type: [match_active_campaign],
    ce.CampaignFunded.event_type: [campaign_funded],
    ce.CampaignFundingReversed.event_type: [campaign_funding_reversed],
}


_TOUCH_SLOT_OF_BID = text("""
    UPDATE slots SET version = version FROM bids WHERE bids.id = :bid_id AND slots.id = bids.slot_id""")
