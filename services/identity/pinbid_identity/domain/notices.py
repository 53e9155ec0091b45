"""What a person is told about events elsewhere: one function per notice, naming its user, its preference
category, the screen it points to and the words. The handlers only choose the function.

In-app notices are always kept; the category decides only whether the notice also goes by mail.
Categories (spec section 3, issue 11): newBids covers bid activity (a new bid on your slot, you were
outbid, the auction ended unsold); approvals covers the approval, payment and pin steps (won, approve the
winner, approved and pay by, reminders, expired, declined, pinned, refunded); payouts covers a creator's
money (payment received, earnings released or refunded, payouts). Marketing is never used for activity."""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from enum import StrEnum
from uuid import UUID

from pinbid_kit.events.trust import CONTINUE, REFUND_ALL, REFUND_UNEARNED
from pinbid_kit.web_rules import DEFAULT_ACCEPTANCE_HOURS, DEFAULT_DISPUTE_ANSWER_HOURS


class Category(StrEnum):
    NEW_BIDS = "newBids"
    APPROVALS = "approvals"
    PAYOUTS = "payouts"
    MARKETING = "marketing"


DEFAULT_PREFERENCES = {Category.NEW_BIDS: True, Category.APPROVALS: True, Category.PAYOUTS: True,
                       Category.MARKETING: False}

# The categories a role can receive anything in: a brand never gets payout mail (its refunds are a payment
# step), so its settings leave that switch out.
ROLE_CATEGORIES = {
    "INFLUENCER": (Category.NEW_BIDS, Category.APPROVALS, Category.PAYOUTS, Category.MARKETING),
    "BUYER": (Category.NEW_BIDS, Category.APPROVALS, Category.MARKETING),
}

PAYMENT_REMINDER_BEFORE = timedelta(hours=6)
PIN_REMINDER_BEFORE = timedelta(hours=24)
# social's defaults (SOCIAL_ACCEPTANCE_HOURS, SOCIAL_DISPUTE_ANSWER_HOURS), for an event that does not say its own
ACCEPTANCE_WINDOW = timedelta(hours=DEFAULT_ACCEPTANCE_HOURS)
DISPUTE_ANSWER_WINDOW = timedelta(hours=DEFAULT_DISPUTE_ANSWER_HOURS)

# Web screens the notices point to (paths of the web app, under the public URL).
MY_BIDS = "/my-bids"
APPROVALS = "/approvals"
EARNINGS = "/earnings"
DASHBOARD = "/dashboard"
POST_MANAGER = "/post-manager"
SETTINGS = "/settings"
HOME = "/"


@dataclass(frozen=True)
class Notice:
    user_id: UUID
    category: Category
    kind: str
    title: str
    message: str
    link: str
    action: str  # the label of the mail's button, e.g. "Bid again"
    # What the notice is about (a slot, else a payment, bid or payout): mails of one kind about one topic
    # are coalesced.
    topic: UUID | None = None
    # about the account itself (a suspension): mailed whatever the preferences say
    always_mail: bool = False


def money(cents: int, currency: str = "USD") -> str:
    amount = Decimal(cents) / 100
    symbol = {"USD": "$", "GBP": "£", "EUR": "€"}.get(currency.upper())
    return f"{symbol}{amount:,.2f}" if symbol else f"{amount:,.2f} {currency.upper()}"


def when(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%b %d, %H:%M} UTC"


def new_bid(creator_id: UUID, buyer_name: str, slot_id: UUID, slot_title: str, current_bid_cents: int,
            currency: str) -> Notice:
    return Notice(creator_id, Category.NEW_BIDS, "bid.placed", "New bid on your pin slot",
                  f"{buyer_name} bid on “{slot_title}”. The current bid is {money(current_bid_cents, currency)}.",
                  DASHBOARD, "See your slots", slot_id)


def outbid(buyer_id: UUID, slot_id: UUID, slot_title: str, current_bid_cents: int, currency: str) -> Notice:
    return Notice(buyer_id, Category.NEW_BIDS, "bid.outbid", "You were outbid",
                  f"Someone outbid you on “{slot_title}”. The current bid is "
                  f"{money(current_bid_cents, currency)}. Bid again before the auction ends.",
                  MY_BIDS, "Bid again", slot_id)


def auction_won(winner_id: UUID, slot_id: UUID, slot_title: str, price_cents: int, currency: str) -> Notice:
    return Notice(winner_id, Category.APPROVALS, "auction.won", "You won the auction",
                  f"You won “{slot_title}” at {money(price_cents, currency)}. "
                  "The creator will now review your bid.", MY_BIDS, "View your bids", slot_id)


def approve_winner(creator_id: UUID, slot_id: UUID, slot_title: str, price_cents: int, currency: str) -> Notice:
    return Notice(creator_id, Category.APPROVALS, "auction.approve", "Approve the winning bid",
                  f"“{slot_title}” sold for {money(price_cents, currency)}. Review and approve the winning bid.",
                  APPROVALS, "Review the bid", slot_id)


def auction_unsold(creator_id: UUID, slot_id: UUID, slot_title: str) -> Notice:
    return Notice(creator_id, Category.NEW_BIDS, "auction.unsold", "Auction ended without a sale",
                  f"The auction for “{slot_title}” ended with no bids. You can list the post again.",
                  POST_MANAGER, "List it again", slot_id)


def payment_due(buyer_id: UUID, payment_id: UUID, amount_cents: int, currency: str, expires_at: datetime) -> Notice:
    return Notice(buyer_id, Category.APPROVALS, "payment.requested", "Your bid was approved",
                  f"Pay {money(amount_cents, currency)} by {when(expires_at)} to secure your pinned comment.",
                  MY_BIDS, "Pay now", payment_id)


def payment_reminder(buyer_id: UUID, payment_id: UUID, amount_cents: int, currency: str,
                     expires_at: datetime) -> Notice:
    return Notice(buyer_id, Category.APPROVALS, "payment.reminder", "Your pay window closes soon",
                  f"Pay {money(amount_cents, currency)} by {when(expires_at)}, or the slot goes back to the "
                  "creator.", MY_BIDS, "Pay now", payment_id)


def pay_window_expired(buyer_id: UUID, payment_id: UUID) -> Notice:
    return Notice(buyer_id, Category.APPROVALS, "payment.expired", "Your pay window expired",
                  "The time to pay for your approved bid ran out. You have not been charged.",
                  MY_BIDS, "View your bids", payment_id)


def buyer_did_not_pay(creator_id: UUID, payment_id: UUID) -> Notice:
    return Notice(creator_id, Category.APPROVALS, "payment.expired", "The brand did not pay in time",
                  "The pay window of a bid you approved ran out unpaid. The slot can be listed again.",
                  POST_MANAGER, "List it again", payment_id)


def bid_rejected(buyer_id: UUID, slot_id: UUID, slot_title: str) -> Notice:
    return Notice(buyer_id, Category.APPROVALS, "bid.rejected", "Your bid was declined",
                  f"The creator declined your winning bid on “{slot_title}”. You have not been charged.",
                  MY_BIDS, "Find another slot", slot_id)


def approval_card(bid_id: UUID) -> str:
    """The sale's own card on Approvals: its pin buttons and the link to the post on Instagram (where a comment
    posted for the creator is pinned in the app)."""
    return f"{APPROVALS}#bid-{bid_id}"


def payment_received(creator_id: UUID, payment_id: UUID, bid_id: UUID, amount_cents: int, currency: str,
                     pin_deadline: datetime | None) -> Notice:
    by = f" by {when(pin_deadline)}" if pin_deadline else ""
    return Notice(creator_id, Category.PAYOUTS, "payment.completed", "Payment received",
                  f"A brand paid {money(amount_cents, currency)}. Pin their comment{by} to release your earnings; "
                  "its card on Approvals opens the post on Instagram.",
                  approval_card(bid_id), "Pin the comment", payment_id)


def pin_reminder(creator_id: UUID, bid_id: UUID, pin_deadline: datetime) -> Notice:
    return Notice(creator_id, Category.APPROVALS, "pin.reminder", "Pin the winning comment",
                  f"Pin the brand's comment by {when(pin_deadline)}, or the brand is refunded and the earnings "
                  "are lost. Its card on Approvals opens the post on Instagram.", approval_card(bid_id),
                  "Pin the comment", bid_id)


def comment_pinned(buyer_id: UUID, slot_id: UUID, comment_text: str) -> Notice:
    return Notice(buyer_id, Category.APPROVALS, "comment.pinned", "Your comment is pinned",
                  f"Your comment “{comment_text}” is now pinned on the creator's post.", MY_BIDS, "See it live",
                  slot_id)


def earnings_released(creator_id: UUID, slot_id: UUID) -> Notice:
    return Notice(creator_id, Category.PAYOUTS, "comment.pinned", "Comment pinned",
                  "The winning comment is pinned. A quarter of its earnings is available for your next payout now; "
                  "the rest is released day by day while the comment stays pinned.",
                  EARNINGS, "See your earnings", slot_id)


_BECAUSE = {"not_pinned_in_time": ": the comment was not pinned in time.",
            "operator_refund": " by Pinbid's support team.",
            "dispute_refund_all": " after Pinbid decided the brand's dispute."}


def _because(reason: str) -> str:
    return _BECAUSE.get(reason, ".")


def refund_made(buyer_id: UUID, payment_id: UUID, amount_cents: int, refund_cents: int, currency: str,
                reason: str) -> Notice:
    """`refund_cents`: what this refund gave back; less than `amount_cents` when part came back before."""
    whole = (f"We refunded {money(refund_cents, currency)} in full" if refund_cents == amount_cents else
             f"We refunded {money(refund_cents, currency)}, the rest of the {money(amount_cents, currency)} you paid")
    return Notice(buyer_id, Category.APPROVALS, "payment.refunded", "You were refunded",
                  f"{whole}{_because(reason)}", MY_BIDS, "View your bids", payment_id)


def payment_refunded(creator_id: UUID, payment_id: UUID, amount_cents: int, currency: str, reason: str) -> Notice:
    return Notice(creator_id, Category.PAYOUTS, "payment.refunded", "A payment was refunded",
                  f"The brand was refunded {money(amount_cents, currency)}{_because(reason)}",
                  EARNINGS, "See your earnings", payment_id)


_FOUND = {"HIDDEN": "hidden", "DELETED": "deleted", "UNPINNED": "unpinned"}


def placement_ended_early_buyer(buyer_id: UUID, payment_id: UUID, amount_cents: int, refund_cents: int,
                                currency: str, reason: str) -> Notice:
    return Notice(buyer_id, Category.APPROVALS, "payment.partially_refunded", "Part of your payment was refunded",
                      f"After your dispute was decided, we refunded {money(refund_cents, currency)} of the "
                      f"{money(amount_cents, currency)} you paid: the share not yet earned.", MY_BIDS,
                      "View your bids", payment_id)
    return Notice(buyer_id, Category.APPROVALS, "payment.partially_refunded", "Part of your payment was refunded",
                  f"Your pinned comment was {_FOUND.get(reason, 'unpinned')} before its time was up, so we refunded "
                  f"{money(refund_cents, currency)} of the {money(amount_cents, currency)} you paid: the share of "
                  "the days it was not in place.", MY_BIDS, "View your bids", payment_id)


def placement_ended_early_creator(creator_id: UUID, payment_id: UUID, refund_cents: int, currency: str,
                                  reason: str) -> Notice:
    return Notice(creator_id, Category.PAYOUTS, "payment.partially_refunded", "A placement ended early",
                  f"The brand's pinned comment was {_FOUND.get(reason, 'unpinned')} before its time was up, so the "
                  f"brand got back {money(refund_cents, currency)}, the share not yet earned. You keep what was "
                  "released; early ends show on your reliability record.", EARNINGS, "See your earnings", payment_id)


def payout_sent(creator_id: UUID, payout_id: UUID, net_cents: int, currency: str, period: str) -> Notice:
    return Notice(creator_id, Category.PAYOUTS, "payout.paid", "Payout sent",
                  f"We sent you {money(net_cents, currency)} for {period}.", EARNINGS, "See your earnings", payout_id)


def payout_failed(creator_id: UUID, payout_id: UUID, net_cents: int, currency: str, period: str) -> Notice:
    return Notice(creator_id, Category.PAYOUTS, "payout.failed", "Payout failed",
                  f"We could not send your payout of {money(net_cents, currency)} for {period}. The money stays "
                  "in your available balance; check your payout details.", EARNINGS, "Check your payout", payout_id)


def money_owed(creator_id: UUID, recovery_id: UUID, amount_cents: int, owed_cents: int, currency: str) -> Notice:
    return Notice(creator_id, Category.PAYOUTS, "recovery.owed", "Money to pay back",
                  f"A refund took back {money(amount_cents, currency)} that had already been paid out to you. You now "
                  f"owe {money(owed_cents, currency)}: your next earnings pay it back first, before any payout.",
                  EARNINGS, "See your earnings", recovery_id)


def money_recovered(creator_id: UUID, recovery_id: UUID, amount_cents: int, owed_cents: int,
                    currency: str) -> Notice:
    left = (f"You still owe {money(owed_cents, currency)}." if owed_cents
            else "You owe nothing now; your next earnings are yours again.")
    return Notice(creator_id, Category.PAYOUTS, "recovery.recovered", "Owed money paid back",
                  f"{money(amount_cents, currency)} of your earnings paid back money you owed. {left}",
                  EARNINGS, "See your earnings", recovery_id)


def payout_account_changed(creator_id: UUID, account: str, changed_at: datetime) -> Notice:
    """About where the money goes: mailed whatever the preferences say, with how to undo it."""
    return Notice(creator_id, Category.PAYOUTS, "payout.account_changed", "Your payout account was changed",
                  f"From {when(changed_at)} your payouts go to {account}. If you made this change, there is nothing "
                  "more to do; to undo it, set your earlier payout details again in Settings. If you did not make it, "
                  "someone else is signed in to your account: change your password, turn on two-step sign-in, and "
                  "reply to this mail so that we can hold your payouts.", SETTINGS, "Check your payout details",
                  creator_id, always_mail=True)


def account_suspended(user_id: UUID, reason: str) -> Notice:
    return Notice(user_id, Category.APPROVALS, "account.suspended", "Your account was suspended",
                  f"Pinbid suspended your account: {reason}. You are signed out everywhere, your open bids are "
                  "withdrawn and your open slots closed. Reply to this mail if you think this is a mistake.",
                  HOME, "Contact Pinbid", user_id, always_mail=True)


def account_restored(user_id: UUID, reason: str) -> Notice:
    return Notice(user_id, Category.APPROVALS, "account.restored", "Your account is active again",
                  f"Pinbid lifted the suspension of your account: {reason}. You can sign in again.",
                  HOME, "Sign in", user_id, always_mail=True)


# --- trust (issue 22): a placement pinned in the Instagram app, its acceptance, rechecks and disputes --------

def placement_page(bid_id: UUID) -> str:
    return f"{MY_BIDS}/{bid_id}"


def creator_placement_page(bid_id: UUID) -> str:
    """The creator's page of one placement: the brand's report, the deadline and the answer form."""
    return f"/placements/{bid_id}"


def check_placement(buyer_id: UUID, bid_id: UUID, accept_by: datetime) -> Notice:
    return Notice(buyer_id, Category.APPROVALS, "placement.acceptance_requested", "Check your placement",
                  "The creator pinned your comment in the Instagram app and sent a screenshot. Open the post and "
                  f"the screenshot, then press Looks right or Report a problem by {when(accept_by)}; without an "
                  "answer by then the placement counts as accepted.", placement_page(bid_id), "Check it", bid_id)


def awaiting_acceptance(creator_id: UUID, slot_id: UUID, accept_by: datetime) -> Notice:
    return Notice(creator_id, Category.PAYOUTS, "comment.pinned", "Placement started",
                  "Thanks for pinning the comment. The brand checks your screenshot; your earnings are released "
                  f"once it is accepted (at the latest {when(accept_by)} if the brand says nothing). Keep the comment "
                  "pinned: Pinbid may ask you for a fresh screenshot.", EARNINGS, "See your earnings", slot_id)


def placement_accepted(creator_id: UUID, bid_id: UUID, by: str) -> Notice:
    how = "The brand accepted" if by == "BRAND" else "The brand's time to check ran out, so Pinbid accepted"
    return Notice(creator_id, Category.PAYOUTS, "placement.accepted", "Placement accepted",
                  f"{how} your pinned comment. Your earnings are now released as the days go by.",
                  EARNINGS, "See your earnings", bid_id)


def placement_disputed(creator_id: UUID, bid_id: UUID, reason: str, reporter: str, answer_by: datetime) -> Notice:
    who = "The brand reported a problem" if reporter == "BRAND" else (
        "You did not send the fresh screenshot in time, so Pinbid opened a review")
    return Notice(creator_id, Category.APPROVALS, "placement.disputed", "A placement is under review",
                  f"{who}: “{reason}”. Releases are paused. Answer with a new screenshot of the pinned comment "
                  f"and a note by {when(answer_by)}; an operator then decides.", creator_placement_page(bid_id),
                  "Answer now", bid_id)


def placement_reported(buyer_id: UUID, bid_id: UUID) -> Notice:
    return Notice(buyer_id, Category.APPROVALS, "placement.disputed", "Your report was received",
                  "Releases to the creator are paused. The creator has 48 hours to answer; then an operator "
                  "decides and tells you why.", placement_page(bid_id), "See the placement", bid_id)


def recheck_requested(creator_id: UUID, bid_id: UUID, answer_by: datetime) -> Notice:
    return Notice(creator_id, Category.APPROVALS, "placement.recheck_requested", "Send a fresh screenshot",
                  "Pinbid checks placements pinned in the Instagram app from time to time. Send a new screenshot "
                  f"of the pinned comment on your post by {when(answer_by)}, or the placement goes to review.",
                  creator_placement_page(bid_id), "Send the screenshot", bid_id)


# The refund reasons of an operator's decision on a dispute: the decision's own notice (on
# payments.dispute.settled.v1, with every amount) tells of that money, so the refund itself tells no one again.
DISPUTE_REFUNDS = {"DISPUTE", "dispute_refund_all"}
REASON_ON_PAGE = "The operator's reason is on the placement's page."


def dispute_decided_buyer(buyer_id: UUID, bid_id: UUID, outcome: str, refunded_cents: int, currency: str) -> Notice:
    """The brand's one notice of an operator's decision on its report, once its money moved."""
    if outcome == CONTINUE:
        words = "the placement continues and nothing is refunded"
    elif outcome == REFUND_ALL:
        words = f"we refunded {money(refunded_cents, currency)}, everything you paid"
    elif refunded_cents:
        words = (f"we refunded {money(refunded_cents, currency)}, the share not yet earned; the creator keeps what "
                 "was released")
    else:
        words = "the share not yet earned goes back to you, but all of it had been earned, so nothing was refunded"
    return Notice(buyer_id, Category.APPROVALS, "dispute.decided", "Your report was decided",
                  f"An operator decided: {words}. {REASON_ON_PAGE}", placement_page(bid_id), "See the placement",
                  bid_id)


def dispute_decided_creator(creator_id: UUID, bid_id: UUID, outcome: str, *, refunded_cents: int,
                            released_cents: int, recovered_cents: int, owed_cents: int, currency: str) -> Notice:
    """The creator's one notice of an operator's decision on a placement under review, once its money moved."""
    if outcome == CONTINUE:
        words = "the placement continues" + (
            f"; {money(released_cents, currency)} held during the review is released to you now" if released_cents
            else " and releases resume")
    elif outcome == REFUND_UNEARNED:
        words = (f"the brand got back {money(refunded_cents, currency)}, the share not yet earned; you keep what "
                 "was released")
    else:
        words = f"the brand got back {money(refunded_cents, currency)}, everything it paid"
        if recovered_cents:
            words += f"; the {money(recovered_cents, currency)} released to you was taken back"
        if owed_cents:
            words += f", of which {money(owed_cents, currency)} was already paid out and is now owed"
    return Notice(creator_id, Category.PAYOUTS, "dispute.decided", "A review was decided",
                  f"An operator decided: {words}. {REASON_ON_PAGE}", creator_placement_page(bid_id),
                  "See the placement", bid_id)


def unpin_now(creator_id: UUID, bid_id: UUID) -> Notice:
    return Notice(creator_id, Category.APPROVALS, "placement.ended", "Unpin the brand's comment",
                  "This placement ended on a refund. Unpin the brand's comment from your post in the Instagram "
                  "app now.", APPROVALS, "See your placements", bid_id)


# --- campaigns and the second chance (issue 36) ---------------------------------------------------------------

def campaign_page(campaign_id: UUID) -> str:
    return f"/campaigns/{campaign_id}"


def campaign_won(buyer_id: UUID, campaign_id: UUID, campaign_name: str | None, slot_id: UUID, slot_title: str,
                 price_cents: int, currency: str) -> Notice:
    """Instead of "You won the auction" when the winning bid was a campaign's."""
    who = f"Your campaign “{campaign_name}”" if campaign_name else "Your campaign"
    return Notice(buyer_id, Category.APPROVALS, "campaign.won", "Your campaign won a slot",
                  f"{who} won “{slot_title}” at {money(price_cents, currency)}. The creator will now review the "
                  "bid.", campaign_page(campaign_id), "See the campaign", slot_id)


def campaign_out_of_budget(buyer_id: UUID, campaign_id: UUID, campaign_name: str, budget_cents: int,
                           committed_cents: int, currency: str) -> Notice:
    return Notice(buyer_id, Category.NEW_BIDS, "campaign.out_of_budget", "Your campaign ran out of budget",
                  f"“{campaign_name}” has committed {money(committed_cents, currency)} of its "
                  f"{money(budget_cents, currency)} budget, so it stopped bidding. It bids again when a bid is "
                  "released; raise the budget to bid on more slots now.", campaign_page(campaign_id),
                  "See the campaign", campaign_id)


_CAMPAIGN_ENDED = {"ends_at": "its end date passed", "ended_by_brand": "you ended it",
                   "funding_reversed": "its funding payment was taken back by the bank",
                   "suspended": "your account was suspended"}


def campaign_ended(buyer_id: UUID, campaign_id: UUID, campaign_name: str, spent_cents: int, currency: str,
                   reason: str | None) -> Notice:
    because = f": {_CAMPAIGN_ENDED[reason]}" if reason in _CAMPAIGN_ENDED else ""
    return Notice(buyer_id, Category.NEW_BIDS, "campaign.ended", "Your campaign ended",
                  f"“{campaign_name}” ended{because}. It spent {money(spent_cents, currency)}; what is left of its "
                  "balance goes back to you once its last bids are settled.", campaign_page(campaign_id),
                  "See the campaign", campaign_id)


def second_chance_offered(buyer_id: UUID, slot_id: UUID, slot_title: str, price_cents: int, currency: str,
                          expires_at: datetime) -> Notice:
    return Notice(buyer_id, Category.APPROVALS, "offer.made", "A second chance at a slot",
                  f"The winner of “{slot_title}” fell through, and the creator offers the slot to you at your own "
                  f"maximum, {money(price_cents, currency)}. Accept or decline by {when(expires_at)}.",
                  MY_BIDS, "Answer the offer", slot_id)


def second_chance_taken_by_campaign(buyer_id: UUID, campaign_id: UUID, slot_id: UUID, slot_title: str,
                                    price_cents: int, currency: str) -> Notice:
    return Notice(buyer_id, Category.APPROVALS, "offer.accepted", "Your campaign took a second chance",
                  f"The winner of “{slot_title}” fell through and the creator offered it to your campaign, which "
                  f"took it within its budget at {money(price_cents, currency)}. It is paid from the campaign's "
                  "balance.", campaign_page(campaign_id), "See the campaign", slot_id)


def offer_accepted(creator_id: UUID, buyer_name: str, bid_id: UUID, slot_id: UUID, slot_title: str,
                   price_cents: int, currency: str) -> Notice:
    return Notice(creator_id, Category.APPROVALS, "offer.accepted", "Your offer was accepted",
                  f"{buyer_name} took “{slot_title}” at {money(price_cents, currency)}. The bid is approved with its "
                  "comment; the brand is now asked to pay.", approval_card(bid_id), "See the sale", slot_id)


_OFFER_ENDED = {"DECLINED": "declined your offer", "LAPSED": "did not answer your offer in time",
                "WITHDRAWN": "can no longer take it", "OVER_BUDGET": "has no budget left for it"}


def offer_declined(creator_id: UUID, slot_id: UUID, slot_title: str, reason: str) -> Notice:
    what = _OFFER_ENDED.get(reason, "did not take your offer")
    return Notice(creator_id, Category.APPROVALS, "offer.declined", "Your offer was not taken",
                  f"The runner-up {what} of “{slot_title}”. You can offer it to the next runner-up on Approvals, "
                  "or list the post again.", APPROVALS, "See Approvals", slot_id)


def wanted(notice: Notice, preferences: dict[Category, bool]) -> bool:
    """Whether the notice also goes by mail."""
    if notice.always_mail:
        return True
    return preferences.get(notice.category, DEFAULT_PREFERENCES[notice.category])


def reminder_due(closes_at: datetime, before: timedelta, now: datetime) -> datetime | None:
    """When to remind of a window closing at `closes_at`; None when that moment has already passed (the
    notice that opened the window already names the deadline)."""
    due = closes_at - before
    return due if due > now else None


def mail_send_after(now: datetime, previous_send_after: datetime | None, window: timedelta) -> datetime:
    """At most one mail of a kind about a topic per `window`: the first goes at once, a later one waits until
    the window after the previous mail (and carries the latest notice by then)."""
    if previous_send_after is None:
        return now
    return max(now, previous_send_after + window)
