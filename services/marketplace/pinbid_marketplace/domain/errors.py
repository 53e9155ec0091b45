"""What the rules refuse. The application layer turns these into the API's 422 and 409."""


class RuleBroken(ValueError):
    """Bad input for this rule (422). `field` names the input at fault."""

    def __init__(self, message: str, field: str = "", code: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code


class StateConflict(Exception):
    """The action does not fit the current state (409): auction ended, bid in the wrong status."""

    def __init__(self, message: str, code: str = "conflict"):
        super().__init__(message)
        self.message = message
        self.code = code
