"""What a brand's plain-English question says in the listing's own filters ("fitness creators under $30, ending
today"), and what is left of it to rank by meaning ("home workouts"). Only what is written is read: a phrase that
cannot be a filter (a negative price, an impossible range, a category the marketplace has not) is set aside with
the reason, never turned into a filter of its own."""

import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from .listing import CATEGORIES

# what a question can set, in the listing's parameter names and in the order its chips are shown
PARAMETERS = ("category", "minPrice", "maxPrice", "timeLeft", "minViews", "verified", "minKeptPercent", "noBids",
              "sortBy")
RELIABLE_KEPT_PERCENT = 80  # "reliable": the listing's own first step of the record (80%+ placements kept)
MAX_PRICE = Decimal("999999999.99")

# category -> the words that name it (the category itself, its plain plural and adjective forms)
CATEGORY_WORDS = {
    "fashion": ("fashion", "fashionable"),
    "tech": ("tech", "technology", "techie", "techies"),
    "fitness": ("fitness",),
    "food": ("food", "foodie", "foodies"),
    "travel": ("travel", "travels", "traveller", "travellers", "traveler", "travelers"),
    "gaming": ("gaming", "gamer", "gamers"),
}
SORT_PHRASES = (
    (r"cheapest|lowest[- ]price[sd]?|least expensive|cheap|budget|affordable|inexpensive|low[- ]cost", "price-low",
     "cheapest first"),
    (r"most expensive|highest[- ]price[sd]?|priciest|premium", "price-high", "most expensive first"),
    (r"ending soon(?:est)?|ends? soon(?:est)?|closing soon(?:est)?|soonest", "ending-soon", "ending soonest first"),
    (r"newest|latest|most recent|just listed", "newest", "newest first"),
    (r"most popular|most bids|most bid on|popular", "popular", "most bids first"),
    (r"most views|most viewed|lots of views|many views|big audiences?|large audiences?|huge audiences?",
     "most-views", "most views first"),
    (r"most reliable|most trusted", "most-reliable", "most reliable first"),
)
STOP_WORDS = frozenset(
    "a an the and or for with of to in on at by from me my our we i you your some any all show find looking look "
    "want need give get please who that which is are be creators creator influencers influencer slots slot posts "
    "post pins pin comment comments accounts account brands brand people someone something category content "
    "ideas about who what while as into like first".split())

_NUMBER = r"\$?\s*(-?\s*\d[\d,]*(?:\.\d+)?)\s*([km])?\b"
_CURRENCY = r"(?:\$|usd\b|dollars?\b|bucks\b)"


@dataclass(frozen=True)
class Ignored:
    phrase: str
    reason: str


@dataclass(frozen=True)
class Understood:
    """`filters` in the listing's parameter names; `labels` one chip per filter; `rest` what meaning ranks."""

    filters: dict[str, object] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    ignored: list[Ignored] = field(default_factory=list)
    rest: str = ""

    @property
    def sentence(self) -> str:
        return " · ".join(self.labels.values())

    def without(self, keys: set[str]) -> "Understood":
        """The same reading with the filters the brand removed (or set itself) left out."""
        return Understood(filters={k: v for k, v in self.filters.items() if k not in keys},
                          labels={k: v for k, v in self.labels.items() if k not in keys},
                          ignored=self.ignored, rest=self.rest)


class _Reading:
    """The question being read: each phrase taken is blanked out so nothing is read twice."""

    def __init__(self, text: str):
        self.text = " ".join(text.lower().split())
        self.filters: dict[str, object] = {}
        self.labels: dict[str, str] = {}
        self.ignored: list[Ignored] = []

    def take(self, pattern: str) -> list[re.Match]:
        found = list(re.finditer(pattern, self.text))
        for match in reversed(found):
            self.text = self.text[:match.start()] + " " * (match.end() - match.start()) + self.text[match.end():]
        return found

    def apply(self, key: str, value: object, label: str, phrase: str) -> None:
        if key in self.filters:
            if self.filters[key] != value:
                self.ignored.append(Ignored(phrase, f"{self.labels[key]} was read first; one {key} at a time."))
            return
        self.filters[key], self.labels[key] = value, label

    def ignore(self, phrase: str, reason: str) -> None:
        self.ignored.append(Ignored(phrase.strip(), reason))


def amount(number: str, suffix: str | None) -> Decimal | None:
    """'30' -> 30, '1.5k' -> 1500, '2,000' -> 2000; None when it is no number."""
    try:
        value = Decimal(re.sub(r"[\s,]", "", number))
    except InvalidOperation:
        return None
    return value * {"k": 1_000, "m": 1_000_000}.get(suffix or "", 1)


def money_text(value: Decimal) -> str:
    return f"${value:,.0f}" if value == value.to_integral_value() else f"${value:,.2f}"


def count_text(value: int) -> str:
    if value >= 1_000_000 and value % 100_000 == 0:
        return f"{value / 1_000_000:g}M"
    if value >= 1_000 and value % 100 == 0:
        return f"{value / 1_000:g}k"
    return f"{value:,}"


def read_audience(r: _Reading) -> None:
    """'over 10k followers', '50,000+ views', 'at least 1m views': the listing filters on the creator's average
    views, so a number of followers is read as that many views (and the chip says views)."""
    pattern = (r"(?:(?:over|above|more than|at least|min(?:imum)?|with)\s+)?" + _NUMBER
               + r"\s*\+?\s*(?:average\s+|avg\s+)?(followers?|views?|viewers?|fans?|subscribers?|audience)\b")
    for match in r.take(pattern):
        value = amount(match.group(1), match.group(2))
        if value is None or value < 0:
            r.ignore(match.group(0), "An audience cannot be negative.")
        elif value != value.to_integral_value() or value > 10**12:
            r.ignore(match.group(0), "That is not a number of views the listing can filter on.")
        elif value > 0:
            r.apply("minViews", int(value), f"{count_text(int(value))}+ views", match.group(0))


def read_prices(r: _Reading) -> None:
    between = (r"(?:between|from)\s+" + _NUMBER + r"\s*(?:and|to|-)\s*" + _NUMBER + r"(?:\s*" + _CURRENCY + r")?"
               + r"|" + r"\$\s*(-?\d[\d,]*(?:\.\d+)?)\s*(?:-|to)\s*\$?\s*(-?\d[\d,]*(?:\.\d+)?)")
    for match in r.take(between):
        low_raw, high_raw = (match.group(1), match.group(3)) if match.group(1) else (match.group(5), match.group(6))
        low = amount(low_raw, match.group(2) if match.group(1) else None)
        high = amount(high_raw, match.group(4) if match.group(1) else None)
        if low is None or high is None or low < 0 or high < 0:
            r.ignore(match.group(0), "A price cannot be negative.")
        elif low > high:
            r.ignore(match.group(0), "The lower price is above the higher one: no slot can be in that range.")
        elif high > MAX_PRICE:
            r.ignore(match.group(0), "That price is beyond any bid.")
        else:
            r.apply("minPrice", low, f"from {money_text(low)}", match.group(0))
            r.apply("maxPrice", high, f"up to {money_text(high)}", match.group(0))
    bounds = (("maxPrice", r"under|below|less than|cheaper than|at most|max(?:imum)?|up to|no more than|within",
               "up to"),
              ("minPrice", r"over|above|more than|at least|min(?:imum)?|from|starting at", "from"))
    for key, words, said in bounds:
        pattern = (r"(?:" + words + r")\s+(?:" + _CURRENCY + r"\s*(-?\s*\d[\d,]*(?:\.\d+)?)\s*([km])?\b|"
                   + r"(-?\d[\d,]*(?:\.\d+)?)\s*([km])?\s*" + _CURRENCY + r")")
        for match in r.take(pattern):
            value = amount(match.group(1) or match.group(3), match.group(2) or match.group(4))
            if value is None or value < 0:
                r.ignore(match.group(0), "A price cannot be negative.")
            elif value > MAX_PRICE:
                r.ignore(match.group(0), "That price is beyond any bid.")
            elif key == "minPrice" and value == 0:
                continue
            else:
                r.apply(key, value, f"{said} {money_text(value)}", match.group(0))
    low, high = r.filters.get("minPrice"), r.filters.get("maxPrice")
    if isinstance(low, Decimal) and isinstance(high, Decimal) and low > high:
        r.ignore(f"{r.labels.pop('minPrice')} and {r.labels.pop('maxPrice')}",
                 "The lower price is above the higher one: no slot can be in that range.")
        del r.filters["minPrice"], r.filters["maxPrice"]


def read_time_left(r: _Reading, windows: dict[str, int]) -> None:
    """A span is read as the smallest of the listing's windows that holds it ('in the next 2 hours' -> ending
    within 24 hours), and the chip says the window applied."""
    spans = [(r"(?:ending|ends|closing|closes|finishing)?\s*(?:today|tonight|within (?:a|one) day|in (?:a|one) day)",
              24), (r"(?:ending|ends|closing|closes)?\s*(?:this week|within (?:a|one) week|in (?:a|one) week)", 24 * 7),
             (r"(?:ending|ends|closing|closes)?\s*(?:within|in|in the next|next)\s+(?:an|one|the)\s+hour", 1)]
    for pattern, hours in spans:
        for match in r.take(pattern):
            window(r, windows, hours, match.group(0))
    counted = (r"(?:ending|ends|closing|closes)?\s*(?:within|in|in the next|next|under|less than)\s+"
               r"(-?\d+)\s*(hours?|hrs?|h|days?|d|weeks?)\b")
    for match in r.take(counted):
        number = int(match.group(1))
        unit = match.group(2)[0]
        hours = number * {"h": 1, "d": 24, "w": 24 * 7}[unit]
        if number <= 0:
            r.ignore(match.group(0), "The time left must be more than zero.")
        else:
            window(r, windows, hours, match.group(0))


def window(r: _Reading, windows: dict[str, int], hours: int, phrase: str) -> None:
    fitting = sorted((h, value) for value, h in windows.items() if h >= hours)
    if not fitting:
        r.ignore(phrase, "The listing's longest time-left window is shorter than that; every open slot ends sooner.")
        return
    held, value = fitting[0]
    if held != hours:
        r.ignore(phrase, f"Read as the listing's nearest window, {held} hours: it has no shorter one that holds it.")
    label = f"ending within {held} hour{'s' if held != 1 else ''}" if held < 48 else f"ending within {held // 24} days"
    r.apply("timeLeft", value, label, phrase)


def read_flags(r: _Reading) -> None:
    for match in r.take(r"\b(?:not\s+|un|non[- ]?)verified\b"):
        r.ignore(match.group(0), "The listing can show verified creators only, not leave them out.")
    if r.take(r"\bverified\b"):
        r.apply("verified", True, "verified", "verified")
    for match in r.take(r"\b(?:no bids?(?: yet)?|without (?:any )?bids?|zero bids|nobody (?:has )?bid(?: on)?"
                        r"|not bid on(?: yet)?|unbid)\b"):
        r.apply("noBids", True, "no bids yet", match.group(0))
    for match in r.take(r"\bkept\s+(?:at least\s+)?(-?\d+)\s*%|(-?\d+)\s*%\+?\s+(?:kept|reliab\w*)"):
        percent = int(match.group(1) or match.group(2))
        if not 0 < percent <= 100:
            r.ignore(match.group(0), "A share of placements kept is from 1 to 100%.")
        else:
            r.apply("minKeptPercent", percent, f"{percent}%+ placements kept", match.group(0))
    for match in r.take(r"\b(?:reliable|dependable|trustworthy|trusted|proven)\b"):
        r.apply("minKeptPercent", RELIABLE_KEPT_PERCENT, f"reliable ({RELIABLE_KEPT_PERCENT}%+ placements kept)",
                match.group(0))


def read_sort(r: _Reading) -> None:
    for pattern, value, label in SORT_PHRASES:
        for match in r.take(r"\b(?:" + pattern + r")\b"):
            r.apply("sortBy", value, label, match.group(0))


def read_category(r: _Reading) -> None:
    for match in r.take(r"\b(?:category\s*:?\s*([a-z]+)|([a-z]+)\s+category)\b"):
        named = match.group(1) or match.group(2)
        found = [c for c, words in CATEGORY_WORDS.items() if named in words]
        if found:
            r.apply("category", found[0], found[0].capitalize(), match.group(0))
        else:
            r.ignore(match.group(0), f"There is no '{named}' category: the categories are {', '.join(CATEGORIES)}.")
    for category, names in CATEGORY_WORDS.items():
        for match in r.take(r"\b(?:" + "|".join(names) + r")\b"):
            if "category" in r.filters and r.filters["category"] != category:
                r.ignore(match.group(0), f"{r.labels['category']} was read first; one category at a time.")
            else:
                r.apply("category", category, category.capitalize(), match.group(0))


def rest_of(text: str) -> str:
    """What is left for meaning: the words not taken, without the ones that only hold a question together, each
    word once (a word said a hundred times weighs as one)."""
    seen: list[str] = []
    for word in re.findall(r"[^\W_]+(?:'[^\W_]+)?", text):
        if word not in STOP_WORDS and word not in seen:
            seen.append(word)
    return " ".join(seen)


def understand(question: str, time_left_windows: dict[str, int]) -> Understood:
    """The filters read from `question` (already no longer than the kit's ASK_MAX_LENGTH) and the words left to rank
    by meaning."""
    r = _Reading(question)
    read_audience(r)
    read_prices(r)
    read_time_left(r, time_left_windows)
    read_sort(r)
    read_flags(r)
    read_category(r)
    labels = {key: r.labels[key] for key in PARAMETERS if key in r.labels}
    return Understood(filters=r.filters, labels=labels, ignored=r.ignored, rest=rest_of(r.text))
