"""The wording of a comment the creator's account posts for a brand: it names the brand and
carries the #ad disclosure, e.g. "Love this mug! — Partner: Northwind Coffee #ad"."""

import re

MAX_COMMENT = 2200  # Instagram's limit for a comment
_AD_TAG = re.compile(r"(^|\s)#ad\b", re.IGNORECASE)


def sponsored_text(text: str, brand: str) -> str:
    text = " ".join(text.split())
    brand = " ".join(brand.split()) or "a brand partner"
    suffix = f" — Partner: {brand}" + ("" if _AD_TAG.search(text) else " #ad")
    room = MAX_COMMENT - len(suffix)
    if len(text) > room:
        text = text[: room - 1].rstrip() + "…"
    return text + suffix


def is_sponsored(text: str, brand: str) -> bool:
    return bool(_AD_TAG.search(text)) and brand.casefold() in text.casefold()
