"""In-app notifications: what a person is told about events elsewhere, and which preference governs it.

Preferences (spec section 3): newBids covers bid activity (a new bid on your slot, outbid, won,
auction ended); approvals covers the approval and payment steps; payouts covers money received
and payouts. Marketing is never used for activity."""

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from uuid import UUID


class Category(StrEnum):
    NEW_BIDS = "newBids"
    APPROVALS = "approvals"
    PAYOUTS = "payouts"
    MARKETING = "marketing"


DEFAULT_PREFERENCES = {Category.NEW_BIDS: True, Category.APPROVALS: True, Category.PAYOUTS: True,
                       Category.MARKETING: False}


@dataclass(frozen=True)
class Notice:
    user_id: UUID
    category: Category
    kind: str
    title: str
    message: str


def money(cents: int, currency: str = "USD") -> str:
    amount = Decimal(cents) / 100
    symbol = {"USD": "$", "GBP": "£", "EUR": "€"}.get(currency.upper())
    return f"{symbol}{amount:,.2f}" if symbol else f"{amount:,.2f} {currency.upper()}"


def new_bid(creator_id: UUID, buyer_name: str, slot_title: str, current_bid_cents: int, currency: str) -> Notice:
    return Notice(creator_id, Category.NEW_BIDS, "bid.placed", "New bid on your pin slot",
                  f"{buyer_name} bid on “{slot_title}”. The current bid is {money(current_bid_cents, currency)}.")


def outbid(buyer_id: UUID, slot_title: str, current_bid_cents: int, currency: str) -> Notice:
    return Notice(buyer_id, Category.NEW_BIDS, "bid.outbid", "You were outbid",
                  f"Someone outbid you on “{slot_title}”. The current bid is "
                  f"{money(current_bid_cents, currency)}. Bid again before the auction ends.")


def auction_won(winner_id: UUID, slot_title: str, price_cents: int, currency: str) -> Notice:
    return Notice(winner_id, Category.NEW_BIDS, "auction.won", "You won the auction",
                  f"You won “{slot_title}” at {money(price_cents, currency)}. "
                  "The creator will now review your bid.")


def approve_winner(creator_id: UUID, slot_title: str, price_cents: int, currency: str) -> Notice:
    return Notice(creator_id, Category.APPROVALS, "auction.approve", "Approve the winning bid",
                  f"“{slot_title}” sold for {money(price_cents, currency)}. Review and approve the winning bid.")


def auction_unsold(creator_id: UUID, slot_title: str) -> Notice:
    return Notice(creator_id, Category.NEW_BIDS, "auction.unsold", "Auction ended without a sale",
                  f"The auction for “{slot_title}” ended with no bids. You can list the post again.")


def payment_due(buyer_id: UUID, amount_cents: int, currency: str, expires_at: datetime) -> Notice:
    return Notice(buyer_id, Category.APPROVALS, "payment.requested", "Your bid was approved",
                  f"Pay {money(amount_cents, currency)} by {expires_at:%b %d, %H:%M} UTC to secure your "
                  "pinned comment.")


def bid_rejected(buyer_id: UUID, slot_title: str) -> Notice:
    return Notice(buyer_id, Category.APPROVALS, "bid.rejected", "Your bid was declined",
                  f"The creator declined your winning bid on “{slot_title}”. You have not been charged.")


def payment_received(creator_id: UUID, amount_cents: int, currency: str) -> Notice:
    return Notice(creator_id, Category.PAYOUTS, "payment.completed", "Payment received",
                  f"A brand paid {money(amount_cents, currency)}. Pin their comment to release your earnings.")


def payout_sent(creator_id: UUID, net_cents: int, currency: str, period: str) -> Notice:
    return Notice(creator_id, Category.PAYOUTS, "payout.paid", "Payout sent",
                  f"We sent you {money(net_cents, currency)} for {period}.")


def wanted(notice: Notice, preferences: dict[Category, bool]) -> bool:
    return preferences.get(notice.category, DEFAULT_PREFERENCES[notice.category])
