"""The product's limits that a service enforces and the web shows before it asks, one constant each: the service
imports it here and enforces it, and `web_rules` serves it. (Per-run settings are served through the variable the
service reads: see `web_rules`.) Pure, so domain code may use it."""

from decimal import Decimal

# identity: the shortest password taken
PASSWORD_MIN_LENGTH = 8
# every service: the longest reason a person gives (a brand's report, an operator's decision or action)
REASON_MAX_LENGTH = 1000
# marketplace: the longest question the AI search box takes
ASK_MAX_LENGTH = 300

# social: a screenshot (the proof of a pin, an answer) is one of these types, by the name people read, and at most
# this many bytes; Pillow names the same formats in capitals (JPEG, PNG, WEBP)
SCREENSHOT_TYPES = {"image/jpeg": "JPEG", "image/png": "PNG", "image/webp": "WebP"}
SCREENSHOT_MAX_BYTES = 5 * 1024 * 1024

# marketplace: a new slot's auction lengths (hours) and pin durations (days) offered, each with its default. The
# server takes any auction end from MARKETPLACE_MIN_AUCTION_HOURS to MARKETPLACE_MAX_AUCTION_DAYS ahead and any
# duration from the first to the last offered (its settings' defaults), so an API client may choose between them.
AUCTION_LENGTH_HOURS = (24, 48, 72, 168)
DEFAULT_AUCTION_LENGTH_HOURS = 48
PIN_DURATION_DAYS = (7, 14, 21, 30)
DEFAULT_PIN_DURATION_DAYS = 7
# marketplace: the search's "ending within" filter, by its value in the query
TIME_LEFT_HOURS = {"1h": 1, "24h": 24, "7d": 7 * 24}

# marketplace: "Bid Again" offers the current bid plus this (spec: plus 10); the server takes any higher amount
BID_AGAIN_INCREMENT = Decimal("10")
