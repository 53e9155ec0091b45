"""Which service owns each /api path, and who may call it (ARCHITECTURE.md section 4)."""

from dataclasses import dataclass
from enum import StrEnum


class Access(StrEnum):
    PUBLIC = "public"
    SIGNED_IN = "signed-in"
    INFLUENCER = "INFLUENCER"
    BUYER = "BUYER"
    OPERATOR = "OPERATOR"


@dataclass(frozen=True)
class Route:
    prefix: str
    service: str
    access: Access


# Longest prefix wins. A prefix matches a whole path or a path that continues with "/".
ROUTES = [
    Route("/auth", "identity", Access.SIGNED_IN),
    Route("/auth/login", "identity", Access.PUBLIC),
    Route("/auth/register", "identity", Access.PUBLIC),
    Route("/auth/forgot-password", "identity", Access.PUBLIC),
    Route("/auth/reset-password", "identity", Access.PUBLIC),
    Route("/auth/passkeys/login", "identity", Access.PUBLIC),  # and .../login/options: a passkey alone signs in
    Route("/notifications", "identity", Access.SIGNED_IN),
    Route("/marketplace", "marketplace", Access.SIGNED_IN),
    Route("/influencer/pin-slots", "marketplace", Access.INFLUENCER),
    Route("/influencer/approvals", "marketplace", Access.INFLUENCER),
    Route("/influencer/bids", "marketplace", Access.INFLUENCER),
    Route("/influencer/record", "marketplace", Access.INFLUENCER),
    Route("/buyer/bids", "marketplace", Access.BUYER),
    Route("/buyer/comment-submission", "marketplace", Access.BUYER),
    Route("/buyer/buy-now", "marketplace", Access.BUYER),
    Route("/buyer/campaigns", "marketplace", Access.BUYER),
    Route("/payments", "payments", Access.BUYER),
    Route("/payments/webhook", "payments", Access.PUBLIC),
    Route("/payments/sandbox", "payments", Access.PUBLIC),
    Route("/influencer/earnings", "payments", Access.INFLUENCER),
    Route("/influencer/payouts", "payments", Access.INFLUENCER),
    Route("/influencer/payout-settings", "payments", Access.INFLUENCER),
    Route("/instagram", "social", Access.SIGNED_IN),
    Route("/instagram/callback", "social", Access.PUBLIC),
    Route("/instagram/sandbox", "social", Access.PUBLIC),
    Route("/influencer/instagram-login", "social", Access.INFLUENCER),
    Route("/influencer/pin-comment", "social", Access.INFLUENCER),
    Route("/influencer/placements", "social", Access.INFLUENCER),
    Route("/buyer/placements", "social", Access.BUYER),
    Route("/blog", "content", Access.PUBLIC),
    Route("/newsletter", "content", Access.PUBLIC),
    # the operator's desk: every /ops path needs the OPERATOR role, whichever service answers it
    Route("/ops", "identity", Access.OPERATOR),  # a path no service has: 403 before the 404, for non-operators
    Route("/ops/users", "identity", Access.OPERATOR),
    Route("/ops/audit", "identity", Access.OPERATOR),
    Route("/ops/disputes", "social", Access.OPERATOR),
    Route("/ops/payments", "payments", Access.OPERATOR),
    Route("/ops/flags", "marketplace", Access.OPERATOR),
    Route("/ops/links", "social", Access.OPERATOR),
]


# paths whose requests carry a screenshot (multipart): the gateway lets their bodies be larger
UPLOAD_PREFIXES = ("/influencer/pin-comment", "/influencer/placements")


def route_for(path: str) -> Route | None:
    best: Route | None = None
    for route in ROUTES:
        if path == route.prefix or path.startswith(route.prefix + "/"):
            if best is None or len(route.prefix) > len(best.prefix):
                best = route
    return best
