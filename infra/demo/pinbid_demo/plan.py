"""The demo world of the embedded default: who lives in it and what has happened to each pin slot.

One deterministic plan, seeded service by service through each one's own code paths (this package's
`identity.py`, `social.py`, `marketplace.py` and `payments.py`: identity registers the people, social connects
them to the sandbox Instagram and pins, marketplace lists and runs the auctions, payments takes the money and
pays out). Items are found again by natural
keys (emails, slot titles), so seeding twice, after an interrupted run, or after someone changed or deleted
demo items, adds only what is missing. Times are relative to the moment of seeding: a slot's history
(listed, bids, closed, approved, paid, pinned, each kept day, completed, paid out) is replayed "as of" those
past moments through the use cases' injectable clocks, inside `pinbid_kit.clock.as_of`, so what each step causes
in the other services (notices, payment requests, ledger transactions) is dated then too.
"""

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from enum import StrEnum
from typing import TypeVar

T = TypeVar("T")
Item = TypeVar("Item")

PASSWORD = "pinbid-demo"
DOMAIN = "demo.pinbid.app"
CREATOR = f"creator@{DOMAIN}"  # the demo creator a visitor signs in as
BRAND = f"brand@{DOMAIN}"  # the demo brand a visitor signs in as
CATEGORIES = ("fashion", "tech", "fitness", "food", "travel", "gaming")


def at(moment: datetime) -> Callable[[], datetime]:
    """A clock stopped at `moment`: how a use case records something "as of" a past date."""
    return lambda: moment


@dataclass(frozen=True)
class Post:
    caption: str
    age_days: float  # how long before seeding it was posted


@dataclass(frozen=True)
class Creator:
    email: str
    name: str
    handle: str
    followers: int
    account_type: str  # MEDIA_CREATOR, BUSINESS or PERSONAL, as Instagram reports it
    like_rate_percent: Decimal  # likes per view on their posts
    posts: tuple[Post, ...]  # newest first


@dataclass(frozen=True)
class Brand:
    email: str
    name: str
    business_name: str
    handle: str
    # the sponsored line they ask to pin, by the category of the post: a brand bids only where it has one
    comments: dict[str, str]
    bids_in_background: bool = True  # the demo brand a visitor uses never bids on its own

    def fits(self, category: str) -> bool:
        return category in self.comments

    def comment_for(self, category: str) -> str:
        return self.comments[category]


class Stage(StrEnum):
    OPEN = "open, no bids yet"
    BIDDING = "open, competing bids and auto-bids"
    ENDING = "ending within the hour"
    AWAITING_APPROVAL = "closed, awaiting the creator's approval"
    AWAITING_PAYMENT = "approved, awaiting payment"
    AWAITING_PIN = "paid, awaiting the pin"
    LIVE = "pinned and live"
    COMPLETED = "completed"
    REFUNDED = "paid, not pinned in time, refunded"


OPEN_STAGES = frozenset({Stage.OPEN, Stage.BIDDING, Stage.ENDING})
APPROVED = frozenset({Stage.AWAITING_PAYMENT, Stage.AWAITING_PIN, Stage.LIVE, Stage.COMPLETED, Stage.REFUNDED})
PAID = frozenset({Stage.AWAITING_PIN, Stage.LIVE, Stage.COMPLETED, Stage.REFUNDED})
PINNED = frozenset({Stage.LIVE, Stage.COMPLETED})
LISTED_FOR = timedelta(days=3)  # how long a closed slot's auction ran


@dataclass(frozen=True)
class Bid:
    brand: str  # email
    amount: Decimal
    max_auto_bid: Decimal | None = None


@dataclass(frozen=True)
class Slot:
    title: str
    creator: str  # email
    post: int  # index into the creator's posts
    category: str
    min_bid: Decimal
    duration_days: int
    stage: Stage
    bids: tuple[Bid, ...] = ()
    buy_now_price: Decimal | None = None
    days_ago: float = 0.0  # closed stages: when the auction closed
    ends_in_hours: float = 0.0  # open stages: when the auction ends
    decided_after_hours: float = 2.0  # approved stages: how long the creator took to approve the winner

    def listed_at(self, now: datetime) -> datetime:
        if self.stage is Stage.ENDING:
            return now - timedelta(minutes=30)
        if self.stage in OPEN_STAGES:
            return now - timedelta(hours=20)
        return self.closed_at(now) - LISTED_FOR

    def auction_end(self, now: datetime) -> datetime:
        if self.stage in OPEN_STAGES:
            return now + timedelta(hours=self.ends_in_hours)
        return self.closed_at(now)

    def bid_at(self, now: datetime, index: int) -> datetime:
        """Bids come in spread over the auction's life (open ones: over the hours before seeding)."""
        start = self.listed_at(now)
        span = (min(self.auction_end(now), now) - start) * 0.9
        return start + span * (index + 1) / (len(self.bids) + 1)

    def closed_at(self, now: datetime) -> datetime:
        return now - timedelta(days=self.days_ago)

    def approved_at(self, now: datetime) -> datetime:
        return self.closed_at(now) + timedelta(hours=self.decided_after_hours)

    def paid_at(self, now: datetime) -> datetime:
        return self.approved_at(now) + timedelta(hours=3)

    def pinned_at(self, now: datetime) -> datetime:
        return self.closed_at(now) + timedelta(days=1)

    @property
    def winner(self) -> str | None:
        """The brand with the highest ceiling (the first to reach it on a tie) wins a closed auction."""
        if not self.bids:
            return None
        best = max(self.bids, key=lambda b: (b.max_auto_bid or b.amount, -self.bids.index(b)))
        return best.brand


def _posts(*pairs: tuple[str, float]) -> tuple[Post, ...]:
    return tuple(Post(caption, age) for caption, age in pairs)


def _d(value: str) -> Decimal:
    return Decimal(value)


# Each brand's voice about its own product, written for the posts it bids on (Pinbid adds the "Ad · @brand:"
# disclosure in front when it posts the comment). A coffee roaster fits a kitchen, a desk or a long night of
# games; a luggage maker a trip, a wardrobe, a laptop or a console; a game studio only games and gadgets.
BRANDS = (
    Brand(BRAND, "Leo Brand", "Northwind Coffee", "northwind.coffee", {
        "food": "Our new single-origin roast pairs perfectly with this ☕",
        "fitness": "Pre-workout, the simple way: a shot of Northwind espresso ☕",
        "travel": "Pack a bag of Northwind beans: good coffee wherever you land ☕",
        "tech": "Every good desk setup needs a good cup: Northwind's desk blend ☕",
        "fashion": "A slow morning pour-over goes with every outfit. Northwind's autumn roast is out ☕",
        "gaming": "Late-night sessions run on Northwind cold brew 🎮☕",
    }, bids_in_background=False),
    Brand(f"aurora@{DOMAIN}", "Hanna Lee", "Aurora Sportswear", "aurora.sportswear", {
        "fitness": "Train in it, live in it: Aurora's new collection is out 🏃",
        "fashion": "Athleisure that goes from the studio to the street: Aurora's autumn drop 🏃",
        "travel": "Aurora's packable layers: light enough for every trail on this trip 🏔️",
    }),
    Brand(f"pixelforge@{DOMAIN}", "Marco Diaz", "PixelForge Games", "pixelforge.games", {
        "gaming": "Play the PixelForge summer update free this weekend 🎮",
        "tech": "Built a new rig? Test it on PixelForge's latest release, free this weekend 🎮",
    }),
    Brand(f"wanderly@{DOMAIN}", "Elif Kaya", "Wanderly Luggage", "wanderly.luggage", {
        "travel": "Carry-on that fits everything you saw here ✈️",
        "fashion": "A weekender as well made as this wardrobe: meet the Wanderly Classic ✈️",
        "tech": "The Wanderly tech sleeve: a padded home for the laptop, every cable in its place 🎒",
        "food": "Eat your way through a city, bring the good stuff home: Wanderly's carry-on has room ✈️",
        "gaming": "The Wanderly console case: your whole setup, ready for co-op nights away from home 🎒",
    }),
    Brand(f"glow@{DOMAIN}", "Ruth Mensah", "Glow Botanics", "glow.botanics", {
        "fashion": "The finishing touch for any look: Glow's plant-based skincare 🌿",
        "fitness": "Post-workout skin, sorted: Glow's plant-based recovery balm 🌿",
        "travel": "Travel-size, plant-based skincare for every time zone 🌿",
        "food": "Good food, good skin: Glow's plant-based skincare, made from a kitchen garden 🌿",
    }),
)
NORTHWIND, AURORA, PIXELFORGE, WANDERLY, GLOW = (b.email for b in BRANDS)

MAYA = Creator(CREATOR, "Maya Creator", "maya.makes", 48_200, "MEDIA_CREATOR", _d("4.8"), _posts(
    ("Morning routine reel: 6 am run, oat latte, journaling", 1),
    ("Latte art close-up: the tulip finally worked", 2),
    ("Weekend in Lisbon: pastel de nata tour and tram 28", 4),
    ("Sourdough starter day 30: first open crumb", 6),
    ("Home workout, no equipment: 20 minute full body", 8),
    ("Farmers market haul and a week of lunches", 11),
    ("Cold brew at home, three ways", 16),
    ("Porto sunset from the Dom Luís bridge", 24),
    ("Meal prep Sunday: five bowls under 30 minutes", 40),
    ("Yoga flow by the sea in Ericeira", 55),
    ("Autumn pantry: jams, pickles and a spice shelf", 110),
    ("My desk coffee corner tour", 120),
))

CREATORS = (
    MAYA,
    Creator(f"ines@{DOMAIN}", "Ines Moreau", "ines.threads", 182_000, "MEDIA_CREATOR", _d("3.4"), _posts(
        ("Capsule wardrobe for autumn: 12 pieces, 30 outfits", 1), ("Thrift flip: a 1990s blazer, tailored", 3),
        ("Paris fashion week street style diary", 9), ("How I style one white shirt five ways", 34))),
    Creator(f"theo@{DOMAIN}", "Theo Stitch", "theo.stitches", 8_400, "MEDIA_CREATOR", _d("5.5"), _posts(
        ("Hand-sewn linen shirt, start to finish", 2), ("Visible mending: my favourite jeans", 5),
        ("Sewing room tour and fabric stash", 12), ("Pattern hack: a boxy summer top", 40))),
    Creator(f"ravi@{DOMAIN}", "Ravi Patel", "ravi.builds", 96_500, "MEDIA_CREATOR", _d("2.9"), _posts(
        ("Desk setup 2026: the cable management episode", 1), ("Building a split keyboard from a kit", 4),
        ("Home lab: a mini server rack under my desk", 10), ("Phone camera shoot-out at night", 45))),
    Creator(f"mina@{DOMAIN}", "Mina Cho", "mina.bytes", 31_000, "PERSONAL", _d("3.1"), _posts(
        ("Coding vlog: shipping my first app", 2), ("Minimal laptop bag essentials", 6),
        ("Studying with a focus timer: my routine", 13), ("Unboxing my new e-reader", 38))),
    Creator(f"jonas@{DOMAIN}", "Jonas Berg", "jonas.lifts", 240_000, "BUSINESS", _d("2.1"), _posts(
        ("Deadlift day: new 250 kg personal best", 1), ("Mobility routine for desk workers", 3),
        ("What I eat in a day on a cut", 8), ("Marathon prep week 6 long run", 52))),
    Creator(f"ada@{DOMAIN}", "Ada Okafor", "ada.moves", 14_300, "MEDIA_CREATOR", _d("0.6"), _posts(
        ("Dance cardio: 15 minutes, no jumping", 2), ("Pilates for beginners at home", 5),
        ("Stretching after a long run", 11), ("My gym bag essentials", 36))),
    Creator(f"lucia@{DOMAIN}", "Lucia Romano", "lucia.cucina", 67_800, "MEDIA_CREATOR", _d("5.6"), _posts(
        ("Fresh pasta by hand: tagliatelle for two", 1), ("Nonna's Sunday ragù", 4),
        ("Lemon tiramisu for summer", 9), ("A Roman street-food crawl", 30))),
    Creator(f"kenji@{DOMAIN}", "Kenji Watanabe", "kenji.wanders", 128_000, "MEDIA_CREATOR", _d("2.6"), _posts(
        ("Kyoto at dawn: temples before the crowds", 1), ("48 hours in Seoul on a budget", 4),
        ("Packing list for two weeks, carry-on only", 10), ("Night train across the Alps", 48))),
    Creator(f"sofia@{DOMAIN}", "Sofia Lind", "sofia.roams", 5_900, "PERSONAL", _d("6.0"), _posts(
        ("Island hopping in the Stockholm archipelago", 2), ("Cabin weekend with no signal", 6),
        ("Northern lights chase in Abisko", 14), ("Cycling the Göta canal", 42))),
    Creator(f"nate@{DOMAIN}", "Nate Rivera", "nate.plays", 310_000, "MEDIA_CREATOR", _d("2.2"), _posts(
        ("Speedrun attempt: sub 20 minutes live", 1), ("Streaming setup tour 2026", 3),
        ("Co-op night with my subscribers", 9), ("Retro console restoration", 60))),
    Creator(f"priya@{DOMAIN}", "Priya Shah", "priya.speedruns", 22_500, "MEDIA_CREATOR", _d("3.6"), _posts(
        ("Indie game gems of the month", 2), ("Controller vs keyboard: the rematch", 5),
        ("Cosy games for rainy evenings", 12), ("Tournament weekend recap", 33))),
)

# the category each creator's slots are listed in (Maya lists in several)
CATEGORY = {"ines": "fashion", "theo": "fashion", "ravi": "tech", "mina": "tech", "jonas": "fitness",
            "ada": "fitness", "lucia": "food", "kenji": "travel", "sofia": "travel", "nate": "gaming",
            "priya": "gaming"}


def _dollars(value: Decimal) -> Decimal:
    return value.quantize(Decimal(1))


def _bids(stage: Stage, base: Decimal, brands: tuple[str, ...]) -> tuple[Bid, ...]:
    """Bids for one slot. Open: the second brand leads with an auto-bid. Closed: the last brand listed wins
    (it has the highest ceiling) and pays the runner-up's 130% of the minimum."""
    if stage is Stage.OPEN:
        return ()
    if stage in (Stage.BIDDING, Stage.ENDING):
        first, second, *rest = brands
        bids = [Bid(first, _dollars(base * Decimal("1.1"))),
                Bid(second, _dollars(base * Decimal("1.15")), _dollars(base * Decimal("1.6")))]
        if rest:
            bids.append(Bid(rest[0], _dollars(base * Decimal("1.3"))))
        return tuple(bids)
    return (Bid(brands[0], _dollars(base * Decimal("1.3"))),
            Bid(brands[-1], _dollars(base * Decimal("1.4")), _dollars(base * Decimal("1.9"))))


def _decision_hours(title: str) -> float:
    """How long a creator took to approve a winner: between half an hour and 9 hours, fixed per slot (a
    stable checksum of the title, so every seeding has the same history)."""
    return 0.5 + sum(title.encode()) % 17 / 2


def _slot(creator: Creator, post: int, title: str, category: str, stage: Stage, brands: tuple[str, ...], *,
          days_ago: float = 0, ends_in_hours: float = 0, duration: int = 14, buy_now: bool = False) -> Slot:
    base = max(Decimal(15), (Decimal(creator.followers) / 3000).quantize(Decimal(1)) * 5)  # ~ $5 per 3,000
    return Slot(title=title, creator=creator.email, post=post, category=category, min_bid=base,
                duration_days=duration, stage=stage, bids=_bids(stage, base, brands),
                buy_now_price=base * 4 if buy_now else None, days_ago=days_ago, ends_in_hours=ends_in_hours,
                decided_after_hours=_decision_hours(title))


def _maya_slots() -> list[Slot]:
    m = MAYA
    return [
        _slot(m, 0, "Morning routine reel: pin your brand first", "fitness", Stage.BIDDING,
              (AURORA, GLOW, NORTHWIND), ends_in_hours=40, duration=14),
        _slot(m, 1, "Latte art close-up: coffee and kitchen brands", "food", Stage.ENDING, (GLOW, NORTHWIND),
              ends_in_hours=0.75, duration=7),
        _slot(m, 2, "Weekend in Lisbon: travel gear spotlight", "travel", Stage.OPEN, (), ends_in_hours=30,
              duration=21, buy_now=True),
        _slot(m, 3, "Sourdough day 30: bakery and flour brands", "food", Stage.AWAITING_APPROVAL,
              (GLOW, NORTHWIND), days_ago=0.1),
        _slot(m, 4, "No-equipment workout: activewear spotlight", "fitness", Stage.AWAITING_PAYMENT,
              (AURORA, NORTHWIND), days_ago=0.9),
        _slot(m, 5, "Market haul: your kitchen brand on top", "food", Stage.AWAITING_PIN, (GLOW, NORTHWIND),
              days_ago=1.5),
        _slot(m, 6, "Cold brew three ways: coffee gear", "food", Stage.LIVE, (GLOW, NORTHWIND), days_ago=5,
              duration=21),
        _slot(m, 7, "Porto sunset: travel and camera brands", "travel", Stage.LIVE, (NORTHWIND, WANDERLY),
              days_ago=18, duration=30),
        _slot(m, 8, "Meal prep Sunday: food storage brands", "food", Stage.COMPLETED, (GLOW, NORTHWIND),
              days_ago=30, duration=14),
        _slot(m, 9, "Seaside yoga flow: wellness brands", "fitness", Stage.COMPLETED, (NORTHWIND, AURORA),
              days_ago=44, duration=7),
        _slot(m, 8, "Meal prep Sunday, second round", "food", Stage.REFUNDED, (GLOW, NORTHWIND), days_ago=12),
        _slot(m, 10, "Autumn pantry: preserves and spices", "food", Stage.COMPLETED, (GLOW, NORTHWIND),
              days_ago=58, duration=7),
        _slot(m, 11, "Desk coffee corner: the morning cup", "food", Stage.COMPLETED, (GLOW, NORTHWIND),
              days_ago=72, duration=14),
        _slot(m, 11, "Desk coffee corner, the encore", "food", Stage.COMPLETED, (NORTHWIND, GLOW),
              days_ago=86, duration=7),
        _slot(m, 10, "Autumn pantry, the first jars", "food", Stage.COMPLETED, (NORTHWIND, GLOW),
              days_ago=100, duration=7),
    ]


# what happens to three of each other creator's posts: two open auctions and one slot past its close; and on
# their oldest post, a placement completed weeks ago (so their cards show a record), except for the creators
# who are new here
_PATTERNS = (
    (Stage.BIDDING, Stage.OPEN, Stage.AWAITING_APPROVAL),
    (Stage.ENDING, Stage.BIDDING, Stage.AWAITING_PAYMENT),
    (Stage.OPEN, Stage.BIDDING, Stage.AWAITING_PIN),
    (Stage.BIDDING, Stage.OPEN, Stage.LIVE),
    (Stage.BIDDING, Stage.ENDING, Stage.REFUNDED),
    (Stage.OPEN, Stage.BIDDING, Stage.LIVE),
)
_CLOSED_DAYS_AGO = {Stage.AWAITING_APPROVAL: 0.2, Stage.AWAITING_PAYMENT: 0.8, Stage.AWAITING_PIN: 1.2,
                    Stage.LIVE: 5, Stage.REFUNDED: 4.5}
_PITCH = {"fashion": "fashion and beauty brands", "tech": "gadgets and apps", "fitness": "activewear and nutrition",
          "food": "kitchen and food brands", "travel": "travel gear and stays", "gaming": "games and gear"}
NEW_CREATORS = frozenset({f"sofia@{DOMAIN}", f"priya@{DOMAIN}"})  # no placement finished yet


def bidders_for(category: str) -> tuple[str, ...]:
    """The brands whose product fits a category, background bidders first; the demo brand joins where fewer
    than two others fit (a coffee roaster fits a kitchen and a gaming night)."""
    fitting = tuple(b.email for b in BRANDS if b.bids_in_background and b.fits(category))
    return fitting if len(fitting) >= 2 else (*fitting, NORTHWIND)


def _other_slots(index: int, creator: Creator) -> list[Slot]:
    category = CATEGORY[creator.handle.split(".")[0]]
    pitch = _PITCH[category]
    rivals = bidders_for(category)

    def brands(k: int, winner: str | None = None) -> tuple[str, ...]:
        order = [rivals[(index + k + j) % len(rivals)] for j in range(min(3, len(rivals)))]
        if winner:
            order = [b for b in order if b != winner][:1] + [winner]
        return tuple(order)
    first, second, closed = _PATTERNS[index % len(_PATTERNS)]
    # the demo brand wins some of these, so its own screens have history across creators
    closed_winner = NORTHWIND if closed in (Stage.REFUNDED, Stage.AWAITING_PIN) or index % 4 == 0 else None
    slots = [
        _slot(creator, 0, f"{creator.posts[0].caption}: {pitch}", category, first, brands(0),
              ends_in_hours=0.5 + index % 2 * 0.3 if first is Stage.ENDING else 12 + 9 * index, buy_now=index % 3 == 1),
        _slot(creator, 1, f"{creator.posts[1].caption}: {pitch}", category, second, brands(1),
              ends_in_hours=0.6 if second is Stage.ENDING else 30 + 7 * index),
        _slot(creator, 2, f"{creator.posts[2].caption}: {pitch}", category, closed, brands(2, closed_winner),
              days_ago=_CLOSED_DAYS_AGO[closed], duration=21),
    ]
    if creator.email not in NEW_CREATORS:
        slots.append(_slot(creator, 3, f"{creator.posts[3].caption}: {pitch}", category, Stage.COMPLETED, brands(3),
                           days_ago=16 + index % 4 * 2, duration=7))
    return slots


def _slots() -> tuple[Slot, ...]:
    slots = _maya_slots()
    for index, creator in enumerate(CREATORS[1:]):
        slots.extend(_other_slots(index, creator))
    return tuple(slots)


SLOTS = _slots()


def creator(email: str) -> Creator:
    return next(c for c in CREATORS if c.email == email)


def brand(email: str) -> Brand:
    return next(b for b in BRANDS if b.email == email)


def slot(title: str) -> Slot | None:
    return next((s for s in SLOTS if s.title == title), None)


def payout_days(now: datetime, months: int = 3) -> list[datetime]:
    """The last `months` payout days of the monthly schedule before `now` (the 1st of a month, early morning),
    oldest first."""
    days: list[datetime] = []
    year, month = now.year, now.month
    while len(days) < months:
        day = now.replace(year=year, month=month, day=1, hour=6, minute=0, second=0, microsecond=0)
        if day < now:
            days.append(day)
        year, month = (year - 1, 12) if month == 1 else (year, month - 1)
    return days[::-1]


async def wait_for(check: Callable[[], Awaitable[T]], *, seconds: float, every: float = 0.1) -> T:
    """The first truthy answer of `check`, or its last answer after `seconds`: a service's demo waits for
    the events of the services seeded before it, which arrive asynchronously."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while True:
        found = await check()
        if found or loop.time() >= deadline:
            return found
        await asyncio.sleep(every)


async def each(items: Iterable[Item], work: Callable[[Item], Awaitable[int]], *, at_once: int = 6) -> int:
    """Runs `work` on every item, `at_once` at a time (the demo's independent items, in parallel); the sum
    of the answers."""
    gate = asyncio.Semaphore(at_once)

    async def one(item: Item) -> int:
        async with gate:
            return await work(item)

    return sum(await asyncio.gather(*(one(item) for item in items)))
