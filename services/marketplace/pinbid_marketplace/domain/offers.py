"""A buyer's offer on a slot: the amount, and the auto-bid maximum that makes its ceiling."""

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Offer:
    amount: Decimal
    auto_bid_enabled: bool = False
    max_auto_bid: Decimal | None = None

    @property
    def ceiling(self) -> Decimal:
        return self.max_auto_bid if self.auto_bid_enabled and self.max_auto_bid is not None else self.amount

    def keeping_ceiling_of(self, auto_bid_enabled: bool, max_auto_bid: Decimal | None) -> "Offer":
        """Bid Again without a maximum keeps the bid's auto-bid maximum when it is higher."""
        if not self.auto_bid_enabled and auto_bid_enabled and max_auto_bid is not None:
            return Offer(self.amount, True, max(self.amount, max_auto_bid))
        return self
