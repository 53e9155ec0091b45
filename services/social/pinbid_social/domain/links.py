"""Vanity links: Instagram comments cannot carry a clickable link, so a placement gets a short one a person can type,
`<host>/go/<code>`, which sends them on to the brand's page with UTM parameters and is counted. Bots and link
previews are not counted, nor the same visitor again within a minute."""

import hashlib
import hmac
import re
import secrets
import string
from datetime import datetime, timedelta
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from .hosts import BadHost, public_host

CODE_ALPHABET = string.ascii_letters + string.digits
CODE_LENGTH = 7
CODE = re.compile(rf"^[A-Za-z0-9]{{{CODE_LENGTH}}}$")
MAX_URL = 2000
PROMO = re.compile(r"^[A-Za-z0-9_-]{3,32}$")
REPEAT_WINDOW = timedelta(minutes=1)
UTM = {"utm_source": "pinbid", "utm_medium": "instagram_pinned_comment"}
# crawlers, link-preview fetchers (chat apps, social networks) and scripts: they follow links nobody clicked
_BOT = re.compile(r"bot|crawl|spider|slurp|preview|facebookexternalhit|meta-externalagent|embedly|whatsapp|telegram|"
                  r"discord|slack|skype|curl|wget|python|httpx|aiohttp|go-http|java/|okhttp|headless|lighthouse",
                  re.IGNORECASE)


class BadLink(ValueError):
    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.message, self.field = message, field


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def destination(url: str) -> str:
    """The brand's page as given, if it is one a person can be sent to safely: https, a public website's name
    (domain/hosts.py)."""
    url = url.strip()
    if not url or len(url) > MAX_URL or any(ord(c) < 33 or ord(c) == 127 for c in url):
        raise BadLink(f"Enter the full address of your page (https://…), at most {MAX_URL} characters.", "url")
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.scheme != "https" or not host or parts.username or parts.password:
        raise BadLink("The link must be an https:// address of your page, for example https://yourbrand.com/offer.",
                      "url")
    try:
        public_host(host)
    except BadHost as bad:
        raise BadLink(str(bad), "url") from None
    return url


def host_of(url: str) -> str:
    """The ASCII (IDNA) host of a URL `destination` accepted."""
    return public_host(urlsplit(url).hostname or "")


def promo_code(code: str | None) -> str | None:
    code = (code or "").strip()
    if not code:
        return None
    if not PROMO.match(code):
        raise BadLink("A promo code has 3 to 32 letters, digits, - or _.", "promoCode")
    return code


def with_utm(url: str, campaign: str) -> str:
    """The brand's URL with Pinbid's UTM parameters added (the brand's own utm_* values are kept)."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    present = {k for k, _ in query}
    query += [(k, v) for k, v in {**UTM, "utm_campaign": campaign}.items() if k not in present]
    return urlunsplit(parts._replace(query=urlencode(query)))


def counts(method: str, user_agent: str) -> bool:
    """Whether a visit can be a person's click: a GET from a browser, not a bot or a preview."""
    return method == "GET" and bool(user_agent.strip()) and not _BOT.search(user_agent)


def visitor(address: str, user_agent: str, key: bytes) -> str:
    """Who followed the link, as far as repeats go: a keyed hash (the address itself is never stored)."""
    return hmac.new(key, f"{address}|{user_agent}".encode(), hashlib.sha256).hexdigest()[:32]


def hour_of(at: datetime) -> datetime:
    return at.replace(minute=0, second=0, microsecond=0)
