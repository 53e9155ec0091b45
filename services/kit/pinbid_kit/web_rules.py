"""The rules the web app shows before it asks, taken from the code and the settings the services enforce them with:
the platform fee, the ad disclosure, the handle and a comment's limits (`instagram_rules`), the product's limits
(`product_rules`: a password, a reason, a screenshot, a slot's choices, "Bid Again"), the bid increment and the trust
windows. The gateway serves them in /runtime-config.json with the settings as set; `make contracts` writes them with
the defaults to web/src/api/rules.json, the web's fallback when the runtime config cannot be read.

A value a service reads from a setting is served from the same variable: the gateway reads it too (`*_VARIABLE`),
so the web shows what is enforced as long as both are given the same value (one ConfigMap key)."""

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from . import instagram_rules as ig
from . import product_rules as pr

DEFAULT_PLATFORM_FEE_PERCENT = 10
# The one setting of the fee: payments charges it, the gateway shows it (both read this variable).
PLATFORM_FEE_PERCENT_VARIABLE = "PAYMENTS_PLATFORM_FEE_PERCENT"
# Marketplace's proxy increment (a leader's own amount is this far above the runner-up's maximum), the web's
# suggested raise over the current bid.
DEFAULT_BID_STEP = Decimal("1.00")
BID_STEP_VARIABLE = "MARKETPLACE_BID_STEP"
# Social's trust windows: the brand's acceptance, the creator's answer to a fresh-screenshot request, to a dispute.
DEFAULT_ACCEPTANCE_HOURS = 72
ACCEPTANCE_HOURS_VARIABLE = "SOCIAL_ACCEPTANCE_HOURS"
DEFAULT_RECHECK_ANSWER_HOURS = 24
RECHECK_ANSWER_HOURS_VARIABLE = "SOCIAL_RECHECK_ANSWER_HOURS"
DEFAULT_DISPUTE_ANSWER_HOURS = 48
DISPUTE_ANSWER_HOURS_VARIABLE = "SOCIAL_DISPUTE_ANSWER_HOURS"


@dataclass(frozen=True)
class ServedSettings:
    """The services' settings the web shows, as this run has them (the defaults unless set)."""

    platform_fee_percent: int = DEFAULT_PLATFORM_FEE_PERCENT
    bid_increment: Decimal = DEFAULT_BID_STEP
    acceptance_hours: int = DEFAULT_ACCEPTANCE_HOURS
    recheck_answer_hours: int = DEFAULT_RECHECK_ANSWER_HOURS
    dispute_answer_hours: int = DEFAULT_DISPUTE_ANSWER_HOURS


def _amount(value: Decimal) -> float:
    """An amount as the API sends money: a JSON number with at most two decimals."""
    return float(value.quantize(Decimal("0.01")))


def web_rules(settings: ServedSettings | None = None) -> dict[str, Any]:
    """JSON for the web (with the defaults unless `settings`); the patterns are written for JavaScript's
    RegExp(source, flags)."""
    settings = settings or ServedSettings()
    return {
        "platformFeePercent": settings.platform_fee_percent,
        "disclosureStart": {"source": ig.DISCLOSURE_START.pattern, "flags": "i"},
        "handlePattern": ig.HANDLE.pattern,
        "maxCommentLength": ig.MAX_COMMENT_LENGTH,
        "maxNewCommentLength": ig.MAX_NEW_COMMENT_LENGTH,
        "maxHashtags": ig.MAX_HASHTAGS,
        "maxMentions": ig.MAX_MENTIONS,
        "passwordMinLength": pr.PASSWORD_MIN_LENGTH,
        "reasonMaxLength": pr.REASON_MAX_LENGTH,
        "askMaxLength": pr.ASK_MAX_LENGTH,
        "screenshot": {"types": [{"type": t, "name": n} for t, n in pr.SCREENSHOT_TYPES.items()],
                       "maxBytes": pr.SCREENSHOT_MAX_BYTES},
        "bidIncrement": _amount(settings.bid_increment),
        "bidAgainIncrement": _amount(pr.BID_AGAIN_INCREMENT),
        "auctionLengthHours": {"choices": list(pr.AUCTION_LENGTH_HOURS), "default": pr.DEFAULT_AUCTION_LENGTH_HOURS},
        "pinDurationDays": {"choices": list(pr.PIN_DURATION_DAYS), "default": pr.DEFAULT_PIN_DURATION_DAYS},
        "timeLeftHours": dict(pr.TIME_LEFT_HOURS),
        "trustWindowHours": {"acceptance": settings.acceptance_hours, "recheckAnswer": settings.recheck_answer_hours,
                             "disputeAnswer": settings.dispute_answer_hours},
    }
