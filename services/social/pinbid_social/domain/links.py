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
_PORT = re.compile(r"^[0-9]{1,5}$")  # ASCII digits only: str.isdigit() takes "٣"
# the Fetch standard's bad ports (https://fetch.spec.whatwg.org/#port-blocking): browsers refuse to load them
BAD_PORTS = frozenset({1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
                       103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
                       512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
                       995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
                       6669, 6679, 6697, 10080})
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
    (domain/hosts.py), no user name or password, and no port but one a browser opens."""
    url = url.strip()
    if not url or len(url) > MAX_URL or any(ord(c) < 33 or ord(c) == 127 for c in url):
        raise BadLink(f"Enter the full address of your page (https://…), at most {MAX_URL} characters.", "url")
    try:  # Python refuses a host that NFKC turns into "/", "?", "#", "@" or ":" (full-width ／ ＃), and lone [ or ]
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:
        raise BadLink("The link is not a valid web address: its website name holds a character that cannot be "
                      "in one (such as ／, ＃, [ or ]).", "url") from None
    if parts.scheme != "https" or not host or "@" in parts.netloc:
        raise BadLink("The link must be an https:// address of your page, for example https://yourbrand.com/offer.",
                      "url")
    _check_port(parts.netloc)
    try:
        public_host(host)
    except BadHost as bad:
        raise BadLink(str(bad), "url") from None
    return url


def _check_port(netloc: str) -> None:
    """A port, when the address names one, is a number from 1 to 65535 that browsers open (the Fetch standard
    blocks some for safety, e.g. 25 for mail): `:abc`, `:99999`, `:0` and a bare `:` are not."""
    hostport = netloc.rpartition("@")[2]
    if hostport.startswith("["):  # an IPv6 literal: refused by its host
        return
    _, colon, port = hostport.partition(":")
    if not colon:
        return
    if not _PORT.match(port) or not 1 <= int(port) <= 65535:
        raise BadLink("The link's port is not a valid one: leave it out (https://yourbrand.com/offer) or give a "
                      "number from 1 to 65535.", "url")
    if int(port) in BAD_PORTS:
        raise BadLink(f"Browsers refuse to open web pages on port {int(port)}; use your page's usual address.", "url")


def followable(url: str) -> bool:
    """Whether a stored target still passes the rule: `/go/` never sends anyone to one that does not (a row
    stored before a rule was added)."""
    try:
        destination(url)
    except BadLink:
        return False
    return True


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
