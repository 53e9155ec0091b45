"""The sandbox Instagram's world, generated deterministically from a seed: accounts with
followers, posts with views and likes that grow with time, and the crowd who comments."""

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
    "We'd love to feature this! ☕", "This pairs perfectly with our new roast", "Big fan of your work!",
)


def _rng(*parts: object) -> random.Random:
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


@dataclass(frozen=True)
class AccountSeed:
    username: str
    full_name: str
    followers: int
    account_type: str


@dataclass(frozen=True)
class PostSeed:
    index: int
    media_type: str
    caption: str
    base_views: int
    base_likes: int
    age: timedelta  # how long before the account's creation it was posted


def account_seed(seed: int, username: str, full_name: str | None = None, *, professional: bool = True) -> AccountSeed:
    rng = _rng(seed, "account", username)
    return AccountSeed(username=username, full_name=full_name or username.replace(".", " ").title(),
                       followers=rng.randint(12_000, 240_000) if professional else rng.randint(300, 4_000),
                       account_type="MEDIA_CREATOR" if professional else "PERSONAL")


def post_seeds(seed: int, username: str, followers: int, count: int) -> list[PostSeed]:
    posts = []
    for i in range(count):
        rng = _rng(seed, "post", username, i)
        reach = rng.uniform(0.25, 1.6)
        views = max(50, int(followers * reach))
        posts.append(PostSeed(index=i, media_type="VIDEO" if i % 4 == 1 else "IMAGE",
                              caption=CAPTIONS[rng.randrange(len(CAPTIONS))],
                              base_views=views, base_likes=max(5, int(views * rng.uniform(0.02, 0.07))),
                              age=timedelta(days=2 * i + 1, hours=rng.randrange(24))))
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
