"""What the rules refuse. The application layer turns these into the API's 422 and 409."""

from decimal import Decimal


class RuleBroken(ValueError):
    """Bad input for this rule (422). `field` names the input at fault."""

    def __init__(self, message: str, field: str = "", code: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code


class AmountTooLow(RuleBroken):
    """The amount is at or below the current bid, or under the minimum. Carries the current bid it had to beat, so
    the answer can say what to offer without reading the slot again."""

    def __init__(self, message: str, current_bid: Decimal | None):
        super().__init__(message, "amount", code="bid_too_low")
        self.current_bid = current_bid


class StateConflict(Exception):
    """The action does not fit the current state (409): auction ended, bid in the wrong status."""

    def __init__(self, message: str, code: str = "conflict"):
        super().__init__(message)
        self.message = message
        self.code = code
