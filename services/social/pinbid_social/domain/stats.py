"""Profile statistics published to identity and marketplace.

- followers: as the provider reports them.
- avg_views: mean views of the recent posts, rounded half up to a whole number (0 without posts).
- avg_engagement: mean (likes + comments) per recent post as a percent of followers, two decimals,
  rounded half up (0 without followers or posts).
- verified: a professional (BUSINESS or MEDIA_CREATOR) account with at least `min_followers`
  followers (the FAQ's 10,000) and an engagement of at least `min_engagement` percent.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

PROFESSIONAL = frozenset({"BUSINESS", "MEDIA_CREATOR", "CREATOR"})
CENT = Decimal("0.01")


@dataclass(frozen=True)
class PostFigures:
    views: int
    likes: int
    comments: int


@dataclass(frozen=True)
class ProfileStats:
    followers: int
    avg_views: int
    avg_engagement: Decimal
    verified: bool


def profile_stats(followers: int, posts: Sequence[PostFigures], *, account_type: str, min_followers: int,
                  min_engagement: Decimal) -> ProfileStats:
    followers = max(followers, 0)
    if posts:
        avg_views = int((Decimal(sum(p.views for p in posts)) / len(posts)).quantize(Decimal(1), ROUND_HALF_UP))
        interactions = Decimal(sum(p.likes + p.comments for p in posts)) / len(posts)
    else:
        avg_views, interactions = 0, Decimal(0)
    engagement = (interactions * 100 / followers).quantize(CENT, ROUND_HALF_UP) if followers else Decimal("0.00")
    verified = (account_type.upper() in PROFESSIONAL and followers >= min_followers and engagement >= min_engagement)
    return ProfileStats(followers, avg_views, engagement, verified)
