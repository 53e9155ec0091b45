"""The sandbox Instagram's world, generated deterministically from a seed: accounts with
followers, posts with views and likes that grow with time, and the crowd who comments.

New accounts are as mixed as Instagram's: personal, creator and business accounts from a few hundred
to a quarter of a million followers, with engagement from weak to strong, so the "verified" rule
(social's domain/stats.py) holds for some and not others. The demo world passes its accounts' figures in.
"""

import hashlib
import random
from dataclasses import dataclass
from datetime import datetime, timedelta

CROWD = ("lena.loops", "tom.travels", "kai.codes", "noor.eats", "ivy.lifts", "sam.snaps", "juno.reads",
         "omar.outdoors", "bea.bakes", "raf.rides")
CAPTIONS = (
    "Morning light and a fresh start ☀️", "New drop is live — which colour is your favourite?",
    "Behind the scenes of today's shoot", "Five things I can't travel without ✈️",
    "Recipe in the comments 🍜", "Leg day done. Who's joining tomorrow?", "Desk setup tour 2026",
    "Sunday reset routine", "Trying the viral trend so you don't have to", "Weekend market finds",
    "Golden hour never misses", "My honest review after 30 days",
)
CROWD_LINES = (
    "Obsessed with this! 😍", "Where is this from?", "Saving this for later", "The colours here 🔥",
    "Need this in my life", "Tutorial please!", "This made my day", "Okay but the vibe ✨",
    "Adding to my list", "Best post this week",
)
BRAND_LINES = (
    # brands disclose at the start, as Pinbid requires of a brand's own comment (instagram_rules)
    "#ad We'd love to feature this! ☕", "Sponsored: this pairs perfectly with our new roast",
    "#ad Big fan of your work!",
)


def _rng(*parts: object) -> random.Random:
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


ACCOUNT_TYPES = ("MEDIA_CREATOR", "BUSINESS", "PERSONAL")
ACCOUNT_TYPE_WEIGHTS = (5, 2, 3)


@dataclass(frozen=True)
class AccountSeed:
    username: str
    full_name: str
    followers: int
    account_type: str
    like_rate_percent: float = 4.0  # likes per view on their posts


@dataclass(frozen=True)
class PlannedPost:
    """A post an account is created with (the demo world's): its caption and age."""

    caption: str
    age: timedelta


@dataclass(frozen=True)
class PostSeed:
    index: int
    media_type: str
    caption: str
    base_views: int
    base_likes: int
    age: timedelta  # how long before the account's creation it was posted


def account_seed(seed: int, username: str, full_name: str | None = None, *, crowd: bool = False) -> AccountSeed:
    """A new account's figures: followers spread evenly on a log scale from 400 to 250,000."""
    rng = _rng(seed, "account", username)
    name = full_name or username.replace(".", " ").title()
    if crowd:
        return AccountSeed(username, name, rng.randint(300, 4_000), "PERSONAL")
    return AccountSeed(username, name, followers=int(10 ** rng.uniform(2.6, 5.4)),
                       account_type=rng.choices(ACCOUNT_TYPES, ACCOUNT_TYPE_WEIGHTS)[0],
                       like_rate_percent=round(rng.uniform(0.5, 7.0), 2))


def post_seeds(seed: int, username: str, followers: int, count: int, *, like_rate_percent: float = 4.0,
               planned: list[PlannedPost] | None = None) -> list[PostSeed]:
    """`planned` posts (newest first) replace the generated captions and ages."""
    posts = []
    for i in range(len(planned) if planned else count):
        rng = _rng(seed, "post", username, i)
        reach = rng.uniform(0.5, 1.3)
        views = max(50, int(followers * reach))
        likes = max(5, int(views * like_rate_percent / 100 * rng.uniform(0.8, 1.2)))
        caption = planned[i].caption if planned else CAPTIONS[rng.randrange(len(CAPTIONS))]
        age = planned[i].age if planned else timedelta(days=2 * i + 1, hours=rng.randrange(24))
        posts.append(PostSeed(index=i, media_type="VIDEO" if i % 4 == 1 else "IMAGE", caption=caption,
                              base_views=views, base_likes=likes, age=age))
    return posts


def commenters(seed: int, media_key: str, *, among: list[str], exclude: str) -> list[tuple[str, str]]:
    """(author, text) pairs of the crowd's comments on one post."""
    rng = _rng(seed, "comments", media_key)
    pool = [u for u in among if u != exclude]
    chosen = rng.sample(pool, k=min(len(pool), rng.randint(3, 6)))
    return [(u, CROWD_LINES[rng.randrange(len(CROWD_LINES))]) for u in chosen]


def comment_line(seed: int, author: str, media_key: str, *, brand: bool) -> str:
    lines = BRAND_LINES if brand else CROWD_LINES
    return lines[_rng(seed, "line", author, media_key).randrange(len(lines))]


def grown(base: int, since: datetime, now: datetime, *, rate_per_day_percent: int) -> int:
    """A figure that grows with time: quickly at first, then slower (square root of the age in hours)."""
    hours = max(int((now - since).total_seconds() // 3600), 0)
    root = int(hours ** 0.5)
    return base + base * rate_per_day_percent * root // 500


def comment_activity(comment_id: str, base_likes: int, base_replies: int, since: datetime,
                     now: datetime) -> tuple[int, int]:
    """Likes and replies of a comment: they keep coming, a few per hour at first, then slower."""
    pace = 1 + _rng("pace", comment_id).randrange(6)
    hours = max(int((now - since).total_seconds() // 3600), 0)
    root = int(hours ** 0.5)
    return base_likes + pace * root, base_replies + pace * root // 4


def palette(key: str) -> tuple[tuple[int, int, int], tuple[int, int, int], int]:
    """Two colours and a pattern number for a post's generated image."""
    rng = _rng("palette", key)
    def colour() -> tuple[int, int, int]:
        return (rng.randrange(40, 230), rng.randrange(40, 230), rng.randrange(40, 230))
    return colour(), colour(), rng.randrange(4)
