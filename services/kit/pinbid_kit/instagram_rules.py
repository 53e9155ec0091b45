"""Instagram's rules for a sponsored comment, in one place for every service: the disclosure that must open
it, and the platform's limits on a comment (checked before anything is posted or a bid is accepted).

Pure functions, no framework: marketplace checks a bid's comment with them, social checks again right
before it posts or pins, and both refuse with the same sentences."""

import re
import unicodedata

MAX_COMMENT_LENGTH = 2200  # characters in one comment
MAX_HASHTAGS = 30  # hashtags in one comment or caption
MAX_MENTIONS = 5  # @mentions in one comment; more and Instagram refuses it as spam
MAX_PINNED_PER_POST = 3  # pinned comments on one post

DISCLOSURE_WORD = "Ad"
# What counts as a clear disclosure at the start of a brand's own comment (case-insensitive), for example
# "Ad · @brand: …", "#ad …", "Sponsored: …", "Paid partnership with @brand …". Only the opening counts:
# a trailing "#ad" is what the FTC calls easy to miss.
DISCLOSURE_START = re.compile(
    r"^\s*(?:#?ad\b|#?advertisement\b|#?sponsored\b|paid\s+partnership\b|#?partner(?:ed|ship)?\b)",
    re.IGNORECASE)
_HASHTAG = re.compile(r"(?<![\w&])#\w+", re.UNICODE)
_MENTION = re.compile(r"(?<![\w.])@[A-Za-z0-9._]{1,30}")
HANDLE = re.compile(r"^[A-Za-z0-9._]{1,30}$")


def brand_label(instagram_handle: str | None, business_name: str | None, name: str | None) -> str:
    """How a disclosure names the brand: its Instagram handle when it has one, else its business name."""
    handle = (instagram_handle or "").strip().removeprefix("@")
    if handle and HANDLE.match(handle):
        return f"@{handle}"
    label = " ".join((business_name or name or "").split())
    return label or "a brand partner"


def disclosure_prefix(brand: str) -> str:
    """The opening of every comment Pinbid posts for a brand, e.g. "Ad · @northwind: "."""
    return f"{DISCLOSURE_WORD} · {brand}: "


# a new text leaves room for the longest disclosure ("Ad · @" and a 30-character handle)
MAX_NEW_COMMENT_LENGTH = MAX_COMMENT_LENGTH - len(disclosure_prefix("@" + "x" * 30))


def disclosed(text: str, brand: str) -> str:
    """A new comment as it will be posted: the disclosure first, then the brand's words (spaces tidied)."""
    words = " ".join(text.split())
    if starts_with_disclosure(words):
        return words  # the brand disclosed it already; a second "Ad ·" would read as a mistake
    return disclosure_prefix(brand) + words


def starts_with_disclosure(text: str) -> bool:
    return bool(DISCLOSURE_START.match(unicodedata.normalize("NFKC", text)))


def hashtags(text: str) -> int:
    return len(_HASHTAG.findall(text))


def mentions(text: str) -> int:
    return len(_MENTION.findall(text))


def limit_problems(text: str) -> list[str]:
    """Why Instagram would refuse this comment (sentences for a person), or nothing."""
    problems = []
    if not text.strip():
        problems.append("A comment cannot be empty.")
    if len(text) > MAX_COMMENT_LENGTH:
        problems.append(f"A comment can have at most {MAX_COMMENT_LENGTH} characters on Instagram "
                        f"(this one has {len(text)}).")
    if hashtags(text) > MAX_HASHTAGS:
        problems.append(f"A comment can have at most {MAX_HASHTAGS} hashtags on Instagram "
                        f"(this one has {hashtags(text)}).")
    if mentions(text) > MAX_MENTIONS:
        problems.append(f"A comment can mention at most {MAX_MENTIONS} accounts on Instagram "
                        f"(this one mentions {mentions(text)}).")
    return problems


MISSING_DISCLOSURE = ("Your comment must begin with a clear ad disclosure, for example \"Ad · @yourbrand: …\" or "
                      "\"#ad …\". Edit the comment on Instagram so it starts with the disclosure, or write a new "
                      "comment here and Pinbid will add it for you.")
