"""The one rule for text people send us (names, titles, comments, emails, search strings): no character that
breaks storage or hides what a reader sees. Pure, so domain code may use it too."""

import unicodedata

LINE_BREAKS_AND_TABS = frozenset("\n\r\t")
# Format characters that writing needs: the zero-width non-joiner and joiner (several scripts, emoji
# sequences) and the tag characters of subdivision flags. Every other one (bidi embeddings, overrides and
# isolates, zero-width spaces, byte order marks, soft hyphens) can hide or reorder what a reader sees.
_NEEDED_FORMAT_CHARACTERS = frozenset("\u200c\u200d")
_FLAG_TAGS = range(0xE0020, 0xE0080)
# control characters (NUL among them, which PostgreSQL cannot store), lone surrogates (not encodable),
# and the Unicode line and paragraph separators
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


def unsafe_character(text: str, *, multiline: bool = False) -> str | None:
    """The first character of `text` that may not be stored, or None. `multiline` allows \\n, \\r and tabs."""
    for ch in text:
        if multiline and ch in LINE_BREAKS_AND_TABS:
            continue
        category = unicodedata.category(ch)
        if category in _REFUSED_CATEGORIES:
            return ch
        if category == "Cf" and ch not in _NEEDED_FORMAT_CHARACTERS and ord(ch) not in _FLAG_TAGS:
            return ch
    return None
