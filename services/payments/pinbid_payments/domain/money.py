"""How a price is split: the platform keeps its fee, the creator earns the rest. Integer cents only."""

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal


@dataclass(frozen=True)
class Split:
    price_cents: int  # the bid's final price
    fee_cents: int  # the platform's share of the price
    creator_cents: int  # the creator's share of the price
    buyer_fee_cents: int = 0  # added on top of the price, kept by the platform

    @property
    def total_cents(self) -> int:
        """What the buyer pays."""
        return self.price_cents + self.buyer_fee_cents

    @property
    def platform_cents(self) -> int:
        return self.fee_cents + self.buyer_fee_cents


def split(price_cents: int, *, fee_percent: int = 10, buyer_fee_cents: int = 0) -> Split:
    if price_cents <= 0:
        raise ValueError("a price is positive")
    if not 0 <= fee_percent <= 100 or buyer_fee_cents < 0:
        raise ValueError("bad fee settings")
    fee = (price_cents * fee_percent + 50) // 100  # half a cent rounds up, in the platform's favour
    return Split(price_cents, fee, price_cents - fee, buyer_fee_cents)


def to_money(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(Decimal("0.01"))


def to_cents(amount: Decimal) -> int:
    return int((amount * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def dollars(amount: Decimal) -> str:
    """How an amount reads in a message, as every screen shows it: $1,250.00."""
    return f"${amount:,.2f}"
