"""The rules the web app shows before it asks (the platform fee, the ad disclosure, the handle and a comment's
limits), taken from the code the services enforce them with. The gateway serves them in /runtime-config.json
with the fee as set; `make contracts` writes them with the default fee to web/src/api/rules.json, the web's
fallback when the runtime config cannot be read."""

from typing import Any

from . import instagram_rules as ig

DEFAULT_PLATFORM_FEE_PERCENT = 10
# The one setting of the fee: payments charges it, the gateway shows it (both read this variable).
PLATFORM_FEE_PERCENT_VARIABLE = "PAYMENTS_PLATFORM_FEE_PERCENT"


def web_rules(platform_fee_percent: int) -> dict[str, Any]:
    """JSON for the web; the patterns are written for JavaScript's RegExp(source, flags)."""
    return {
        "platformFeePercent": platform_fee_percent,
        "disclosureStart": {"source": ig.DISCLOSURE_START.pattern, "flags": "i"},
        "handlePattern": ig.HANDLE.pattern,
        "maxCommentLength": ig.MAX_COMMENT_LENGTH,
        "maxNewCommentLength": ig.MAX_NEW_COMMENT_LENGTH,
        "maxHashtags": ig.MAX_HASHTAGS,
        "maxMentions": ig.MAX_MENTIONS,
    }
