"""The payout settings rules of SPEC section 5 and their defaults (SPEC section 9)."""

import re
from dataclasses import dataclass, replace
from decimal import Decimal

from .money import dollars
from .schedule import Schedule

METHODS = ("BANK_TRANSFER", "PAYPAL")
CURRENCIES = ("USD", "GBP")
LOWEST_MINIMUM = Decimal(50)  # the FAQ's minimum payout; smaller balances roll over
HIGHEST_MINIMUM = Decimal(100_000)  # a bound that catches a slip of the keyboard ("1250" for 12.50 is still allowed)
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_SORT_CODE = re.compile(r"^(\d{6}|\d{2}-\d{2}-\d{2})$")

INVALID_PAYPAL_EMAIL = "Invalid PayPal email format."


@dataclass(frozen=True)
class PayoutSettings:
    payout_method: str | None = "BANK_TRANSFER"
    minimum_payout: Decimal | None = Decimal(50)
    schedule: str | None = Schedule.MONTHLY.value
    paypal_email: str | None = None
    bank_account: str | None = None
    currency: str | None = "USD"
    routing_number: str | None = None
    sort_code: str | None = None
    account_name: str | None = None
    tax_form_submitted: bool = False


DEFAULTS = PayoutSettings()


def _blank(value: str | None) -> bool:
    return value is None or not value.strip()


def problems(s: PayoutSettings) -> list[tuple[str, str]]:
    """Every broken rule as (field, message); empty when the settings may be saved."""
    found: list[tuple[str, str]] = []
    if _blank(s.payout_method):
        found.append(("payoutMethod", "Payout method is required."))
    elif s.payout_method not in METHODS:
        found.append(("payoutMethod", "Payout method must be BANK_TRANSFER or PAYPAL."))
    if s.minimum_payout is None or not s.minimum_payout.is_finite() or s.minimum_payout <= 0:
        found.append(("minimumPayout", "Minimum payout must be a positive number."))
    elif s.minimum_payout < LOWEST_MINIMUM:
        found.append(("minimumPayout", f"Minimum payout must be at least {dollars(LOWEST_MINIMUM)}."))
    elif s.minimum_payout > HIGHEST_MINIMUM:
        found.append(("minimumPayout", f"Minimum payout must be at most {dollars(HIGHEST_MINIMUM)}."))
    elif s.minimum_payout.as_tuple().exponent < -2:
        found.append(("minimumPayout", "Minimum payout has at most two decimals."))
    if _blank(s.schedule):
        found.append(("schedule", "Payout schedule is required."))
    elif s.schedule not in Schedule.__members__:
        found.append(("schedule", "Payout schedule must be WEEKLY, MONTHLY or QUARTERLY."))
    if s.payout_method == "PAYPAL":
        if _blank(s.paypal_email):
            found.append(("paypalEmail", "PayPal email is required."))
        elif not _EMAIL.match(s.paypal_email.strip()) or len(s.paypal_email) > 254:
            found.append(("paypalEmail", INVALID_PAYPAL_EMAIL))
    if s.payout_method == "BANK_TRANSFER":
        if _blank(s.account_name):
            found.append(("accountName", "Account holder name is required."))
        if _blank(s.bank_account) or not re.fullmatch(r"\d{8,34}", digits(s.bank_account)):
            found.append(("bankAccount", "Bank account number must be at least 8 digits."))
        if _blank(s.currency):
            found.append(("currency", "Currency is required."))
        elif s.currency not in CURRENCIES:
            found.append(("currency", "Currency must be USD or GBP."))
        elif s.currency == "USD" and (_blank(s.routing_number) or not re.fullmatch(r"\d{9}", s.routing_number)):
            found.append(("routingNumber", "Routing number must be 9 digits."))
        elif s.currency == "GBP" and (_blank(s.sort_code) or not _SORT_CODE.match(s.sort_code.strip())):
            found.append(("sortCode", "Sort code must be 6 digits (or XX-XX-XX)."))
    return found


def digits(value: str | None) -> str:
    """Bank numbers are read without the spaces people type into them."""
    return re.sub(r"[\s-]", "", value or "")


def normalized(s: PayoutSettings) -> PayoutSettings:
    """The form kept once valid: bank numbers as digits, fields of the other method dropped."""
    if s.payout_method == "PAYPAL":
        return replace(s, paypal_email=s.paypal_email.strip().lower(), bank_account=None, routing_number=None,
                       sort_code=None, account_name=s.account_name or None, currency=s.currency or "USD")
    return replace(s, paypal_email=None, bank_account=digits(s.bank_account),
                   routing_number=s.routing_number if s.currency == "USD" else None,
                   sort_code=digits(s.sort_code) if s.currency == "GBP" else None)
