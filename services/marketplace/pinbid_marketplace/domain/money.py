"""Money is Decimal with two places inside, integer cents in events."""

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
MAX_AMOUNT = Decimal("1000000.00")


def to_cents(amount: Decimal) -> int:
    return int((amount / CENT).to_integral_value(rounding=ROUND_HALF_UP))


def from_cents(cents: int) -> Decimal:
    return (Decimal(cents) * CENT).quantize(CENT)


def dollars(amount: Decimal) -> str:
    """How a price reads in a message: $1,234.50."""
    return f"${amount.quantize(CENT):,}"
