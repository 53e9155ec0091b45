"""Pinning a won bid's comment: the buyer's own comments on a slot's post, and
`PUT /influencer/pin-comment/{bidId}`: post the text the creator approved if it is new (the disclosure first), or
check that the brand's own comment still says exactly what was approved and opens with a disclosure; then pin.
The creator's pinning login and pin method are `pin_login.py`'s."""

import logging
import random
import uuid
from dataclasses import KW_ONLY, dataclass, field
from datetime import timedelta

from pinbid_kit import instagram_rules as ig
from pinbid_kit import outbox
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import BadGateway, Conflict, InstagramUnauthorized, NotFound, NotYet
from pinbid_kit.objects import ObjectStore
from pinbid_kit.secrets import SecretBox
from sqlalchemy import delete, or_, update

from . import SERVICE, events_out
from .adapters import Providers
from .connections import connection_of, provider_call
from .domain.placement import MANUAL, SESSION, Status, can_pin, ends_at
from .domain.trust import Acceptance, recheck_time
from .evidence import evidence_row, store_screenshot
from .models import BidComment, Connection, PinSession, Placement, Post, Slot
from .ports import Comment, MediaRef, ProviderError, SessionExpired
from .screenshots import Screenshot

log = logging.getLogger("pinbid.social.pins")

CLAIM_TIMEOUT = timedelta(minutes=2)  # a pin that crashed half-way may be retried after this
NEEDS_LOGIN = "Log in to Instagram to pin comments."
AWAITING_MANUAL_PIN = "AWAITING_MANUAL_PIN"
NOT_APPROVED = ("Approve the brand's comment first: Pinbid posts or pins exactly the text you approved, and the brand "
                "changed it since.")
PINNED_BY_PINBID = ("Pinbid pins this comment itself with your Instagram login: press Pin comment. \"I pinned it\" "
                    "is for placements paid while you pinned in the Instagram app.")
CHANGED = ("The brand's comment on Instagram no longer says what you approved. Ask the brand to restore it, or to "
           "choose a new comment for you to approve.")


@dataclass(frozen=True)
class Pinned:
    bid_id: uuid.UUID
    comment_id: str
    comment_text: str
    status: str


@dataclass(eq=False)
class Pins:
    db: Database
    providers: Providers
    box: SecretBox
    _: KW_ONLY
    sync_interval: timedelta
    clock: Clock
    objects: ObjectStore
    acceptance: timedelta = timedelta(hours=72)
    recheck_answer: timedelta = timedelta(hours=24)
    rng: random.Random = field(default_factory=random.SystemRandom)

    # --- the buyer's comments -------------------------------------------------------------------
    async def buyer_comments(self, buyer_id: uuid.UUID, slot_id: uuid.UUID) -> list[Comment]:
        async with self.db.transaction() as session:
            slot = await session.get(Slot, slot_id)
            if slot is None:
                raise NotFound("This pin slot does not exist.")
            buyer = await connection_of(session, buyer_id)
            creator = await connection_of(session, slot.creator_id)
        if buyer is None:
            raise InstagramUnauthorized("Connect your Instagram account to choose one of your comments.",
                                        code="instagram_not_connected")
        if creator is None:
            raise Conflict("The creator's Instagram account is not connected right now; write a new comment instead.",
                           code="creator_not_connected")
        comments = await self._comments(creator.access_token, slot.post_id)
        return [c for c in comments if handle(c.username) == handle(buyer.username)]

    async def comment_on_slot(self, slot_id: uuid.UUID, comment_id: str) -> Comment | None:
        """The comment `comment_id` on the slot's post, read from Instagram with the creator's connection; None
        when the post has no such comment. Raises when it cannot be read (the slot not known yet, the creator not
        connected, Instagram failing)."""
        async with self.db.transaction() as session:
            slot = await session.get(Slot, slot_id)
            creator = await connection_of(session, slot.creator_id) if slot is not None else None
        if slot is None:
            raise Conflict("The pin slot is not known here yet.", code="slot_unknown")
        if creator is None:
            raise Conflict("The creator's Instagram account is not connected.", code="creator_not_connected")
        return next((c for c in await self._comments(creator.access_token, slot.post_id) if c.id == comment_id),
                    None)

    async def _comments(self, sealed_token: str, post_id: str) -> list[Comment]:
        try:
            return await self.providers.api.comments(self.box.open(sealed_token), post_id)
        except ProviderError as failed:
            raise BadGateway(f"Could not read the post's comments from Instagram: {failed.detail}",
                             code="instagram_error") from None

    # --- pinning ----------------------------------------------------------------------------
    async def _pinnable(self, session, creator_id: uuid.UUID, bid_id: uuid.UUID) -> tuple[Placement, Connection]:
        """The creator's placement waiting for its pin, and the creator's connection."""
        placement = await session.get(Placement, bid_id)
        if placement is None or placement.creator_id != creator_id:
            raise NotFound("This bid does not exist.")
        why_not = can_pin(Status(placement.status))
        if why_not and placement.status == Status.AWAITING_PAYMENT:
            # the creator is offered the pin once marketplace says WON: social hears of the payment a moment later
            raise NotYet(why_not, code="payment_not_heard")
        if why_not:
            raise Conflict(why_not, code="not_pinnable")
        connection = await connection_of(session, creator_id)
        if connection is None:
            raise InstagramUnauthorized("Connect your Instagram account to pin comments.",
                                        code="instagram_not_connected")
        return placement, connection

    async def pin(self, creator_id: uuid.UUID, bid_id: uuid.UUID) -> Pinned:
        async with self.db.transaction() as session:
            placement, connection = await self._pinnable(session, creator_id, bid_id)
            manual = placement.pin_method == MANUAL
            pin_session = None if manual else await session.get(PinSession, creator_id)
            if not manual and pin_session is None:
                raise InstagramUnauthorized(NEEDS_LOGIN, code="instagram_login_required")
            choice = await session.get(BidComment, bid_id)
            if choice is None or not (choice.comment_id or (choice.comment_text or "").strip()):
                raise Conflict("The buyer has not chosen a comment yet.", code="no_comment")
            if choice.approved_text is None:
                raise Conflict(NOT_APPROVED, code="comment_not_approved")
            now = self.clock()
            claimed = await session.execute(
                update(Placement).where(Placement.bid_id == bid_id, Placement.status == Status.AWAITING_PIN,
                                        or_(Placement.pin_claimed_at.is_(None),
                                            Placement.pin_claimed_at < now - CLAIM_TIMEOUT))
                .values(pin_claimed_at=now).returning(Placement.bid_id))
            if claimed.first() is None:
                raise Conflict("This comment is being pinned right now.", code="pin_in_progress")
            post = await session.get(Post, placement.post_id)
            buyer_connection = await connection_of(session, placement.buyer_id)
        media = MediaRef(id=placement.post_id or "", permalink=post.permalink if post else "")
        try:
            comment_id, text = await self._comment_to_pin(placement, choice, connection.access_token,
                                                          buyer_connection.username if buyer_connection else None)
            if pin_session is None:  # MANUAL: the comment is on the post; the creator pins it in the app
                await self._release(bid_id)
                return Pinned(bid_id=bid_id, comment_id=comment_id, comment_text=text, status=AWAITING_MANUAL_PIN)
            await self.providers.pinning.pin(self.box.open(pin_session.session), media, comment_id)
        except SessionExpired:
            await self._release(bid_id, forget_session_of=creator_id)
            raise InstagramUnauthorized("Your Instagram login has expired. Please log in again.",
                                        code="instagram_login_required") from None
        except ProviderError as failed:
            await self._release(bid_id)
            raise BadGateway(f"Instagram could not pin the comment: {failed.detail}", code="instagram_error") from None
        except BaseException:
            await self._release(bid_id)
            raise
        return await self._mark_pinned(placement, comment_id, text)

    async def _comment_to_pin(self, placement: Placement, choice: BidComment, sealed_token: str,
                              buyer_username: str | None) -> tuple[str, str]:
        approved = choice.approved_text or ""
        if choice.approved_comment_id:
            if buyer_username is None:
                raise Conflict("The buyer's Instagram account is not connected, so their comment cannot be checked.",
                               code="buyer_not_connected")
            comments = await self._comments(sealed_token, placement.post_id or "")
            found = next((c for c in comments if c.id == choice.approved_comment_id), None)
            if found is None:
                raise Conflict("The buyer's comment is no longer on this post.", code="comment_missing")
            brands_own_comment(found, buyer_username, approved)
            return found.id, found.text
        problems = ig.limit_problems(approved)
        if problems:
            raise Conflict(f"Instagram would refuse this comment: {problems[0]} Ask the brand for a new one.",
                           code="instagram_limit")
        if placement.posted_comment_id and placement.posted_text == approved:
            return placement.posted_comment_id, approved  # posted by an earlier attempt whose pin failed
        comment_id = await provider_call(
            self.providers.api.post_comment(self.box.open(sealed_token), placement.post_id or "", approved),
            what="post the comment on Instagram")
        async with self.db.transaction() as session:
            await session.execute(update(Placement).where(Placement.bid_id == placement.bid_id)
                                  .values(posted_comment_id=comment_id, posted_text=approved))
        return comment_id, approved

    async def confirmable(self, creator_id: uuid.UUID, bid_id: uuid.UUID) -> None:
        """Whether "I pinned it" may be pressed for this bid, asked before its screenshot is read: the creator's
        own placement, waiting for its pin, paid under "I pin in the app", approved and posted (or named)."""
        async with self.db.transaction() as session:
            placement, _ = await self._pinnable(session, creator_id, bid_id)
            choice = await session.get(BidComment, bid_id)
        self._confirm_target(placement, choice)

    @staticmethod
    def _confirm_target(placement: Placement, choice: BidComment | None) -> str:
        if placement.pin_method != MANUAL:
            raise Conflict(PINNED_BY_PINBID, code="pinned_by_pinbid")
        if choice is None or choice.approved_text is None:
            raise Conflict(NOT_APPROVED, code="comment_not_approved")
        target = choice.approved_comment_id or placement.posted_comment_id
        if target is None:
            raise Conflict("Post the comment first (Post comment on Approvals), then pin it in the Instagram app.",
                           code="not_posted")
        return target

    async def confirm(self, creator_id: uuid.UUID, bid_id: uuid.UUID, screenshot: Screenshot) -> Pinned:
        """POST /influencer/pin-comment/{id}/confirm, "I pinned it", only on a placement paid under "I pin in the
        app", and only with a screenshot: the creator's word and picture, checked through the official API (which
        cannot see pins): the approved comment is on the post, not hidden, says exactly what was approved, and a
        named comment is the brand's own, disclosed. The placement then starts and awaits the brand's acceptance
        (releases wait for it); a fresh-screenshot request is scheduled."""
        async with self.db.transaction() as session:
            placement, connection = await self._pinnable(session, creator_id, bid_id)
            choice = await session.get(BidComment, bid_id)
            buyer = await connection_of(session, placement.buyer_id)
        target = self._confirm_target(placement, choice)
        assert choice is not None and choice.approved_text is not None
        found = next((c for c in await self._comments(connection.access_token, placement.post_id or "")
                      if c.id == target), None)
        if found is None:
            raise Conflict("The comment is not on your post any more. Post it again from Approvals, then pin it "
                           "in the Instagram app.", code="comment_missing")
        if found.hidden:
            raise Conflict("The comment is hidden on your post. Unhide it in the Instagram app, pin it, then press "
                           "I pinned it again.", code="comment_hidden")
        if choice.approved_comment_id:
            if buyer is None:
                raise Conflict("The buyer's Instagram account is not connected, so their comment cannot be checked.",
                               code="buyer_not_connected")
            brands_own_comment(found, buyer.username, choice.approved_text)
        elif " ".join(found.text.split()) != " ".join(choice.approved_text.split()):
            raise Conflict(CHANGED, code="comment_changed")
        key = await store_screenshot(self.objects, bid_id, screenshot)
        try:
            return await self._mark_pinned(placement, found.id, found.text, method=MANUAL,
                                           proof=(key, screenshot, creator_id))
        except BaseException:
            await self.objects.delete(key)  # refused (pinned meanwhile): nothing is kept
            raise

    async def _release(self, bid_id: uuid.UUID, *, forget_session_of: uuid.UUID | None = None) -> None:
        async with self.db.transaction() as session:
            await session.execute(update(Placement).where(Placement.bid_id == bid_id).values(pin_claimed_at=None))
            if forget_session_of is not None:
                await session.execute(delete(PinSession).where(PinSession.user_id == forget_session_of))

    async def _mark_pinned(self, placement: Placement, comment_id: str, text: str, *, method: str = SESSION,
                           proof: tuple[str, Screenshot, uuid.UUID] | None = None) -> Pinned:
        now = self.clock()
        until = ends_at(now, placement.duration_days or 0)
        trust = {} if proof is None else {
            "acceptance": Acceptance.AWAITING, "accept_by": now + self.acceptance,
            "recheck_at": recheck_time(now, until, self.recheck_answer, self.rng)}
        async with self.db.transaction() as session:
            done = await session.execute(
                update(Placement).where(Placement.bid_id == placement.bid_id,
                                        Placement.status == Status.AWAITING_PIN)
                .values(status=Status.PINNED, pinned_comment_id=comment_id, pinned_text=text, pinned_at=now,
                        ends_at=until, next_sync_at=now + self.sync_interval, pin_claimed_at=None,
                        pin_method=method, **trust)
                .returning(Placement.bid_id))
            if done.first() is None:
                raise Conflict("This comment is already pinned.", code="not_pinnable")
            if proof is not None:
                key, shot, by = proof
                session.add(evidence_row(placement.bid_id, "PIN", key, shot, by, now))
            await outbox.publish_all(session, [events_out.comment_pinned(
                placement, comment_id, text, now, method, accept_by=trust.get("accept_by"))], source=SERVICE)
        log.info("pinned the comment of bid %s", placement.bid_id)
        return Pinned(bid_id=placement.bid_id, comment_id=comment_id, comment_text=text, status=Status.PINNED)


def brands_own_comment(found: Comment, buyer_username: str, approved: str) -> None:
    """Only the brand's own comment, opening with the ad disclosure and saying what the creator approved, becomes a
    paid placement (both paths)."""
    if handle(found.username) != handle(buyer_username):
        raise Conflict("The chosen comment was not written by the buyer.", code="comment_not_buyers")
    if not ig.starts_with_disclosure(found.text):
        raise Conflict(ig.MISSING_DISCLOSURE, code="disclosure_missing")
    if " ".join(found.text.split()) != " ".join(approved.split()):
        raise Conflict(CHANGED, code="comment_changed")


def handle(username: str) -> str:
    return username.strip().lstrip("@").casefold()
