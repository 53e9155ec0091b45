"""Whether a link's host is a public website a person can be sent to: not an IP address in any spelling a browser
accepts, not a single-label or reserved name, and not a name that can pass for another (Unicode's UTS #39 rules as
browsers apply them to internationalised names: one script per label, or an allowed East Asian mix; no label
written wholly in letters that look Latin under a Latin top-level domain). Pure: the link's reputation is checked
elsewhere (ports.LinkReputation)."""

import ipaddress
import re
import unicodedata
from collections import defaultdict
from functools import cache
from importlib import resources
from urllib.parse import unquote

import idna
from confusable_homoglyphs import categories, confusables

# RFC 2606, 6761, 6762, 8375, 9476 and the names clusters and companies use inside their networks
RESERVED_SUFFIXES = ("localhost", "local", "internal", "intranet", "private", "corp", "home", "lan", "localdomain",
                     "svc", "cluster.local", "test", "example", "invalid", "onion", "alt", "home.arpa", "arpa",
                     "xn--zckzah", "xn--0zwm56d")  # the last two: "test" and "example" in Japanese and Chinese
RESERVED_NAMES = ("example.com", "example.net", "example.org")
# the script mixes browsers allow in one label (Chrome's IDN policy, after UTS #39's "highly restrictive")
ALLOWED_MIXES = ({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}, {"LATIN", "HAN", "BOPOMOFO"}, {"LATIN", "HAN", "HANGUL"})
NEUTRAL = {"COMMON", "INHERITED"}
_NUMBER = re.compile(r"^(0x[0-9a-f]*|[0-9]+)$", re.IGNORECASE)
_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")


class BadHost(ValueError):
    """Why the host is not a public website, in words for the brand."""


def public_host(host: str) -> str:
    """The host in its ASCII (IDNA) form if it names a public website; raises BadHost otherwise."""
    host = unquote((host or "").strip())  # browsers decode %-escapes in a host before anything else
    if host.startswith("[") or ":" in host:
        raise BadHost("The link must use your website's name, not an IP address.")
    name = host.rstrip(".").lower()  # "localhost." is localhost
    if not name or ".." in name:
        raise BadHost("The link's address has no website name.")
    try:  # first, as browsers do: full-width digits and dots become ASCII ones here
        ascii_name = idna.encode(name, uts46=True, transitional=False).decode("ascii").rstrip(".")
    except (idna.IDNAError, UnicodeError):
        raise BadHost("The link's website name is not a valid domain name.") from None
    # the URL standard reads a host whose last label is a number (decimal, 0x hex, or octal with a leading 0) as an
    # IPv4 address in any of its spellings: 2130706433, 0177.0.0.1, 0x7f.1, 127.1
    if _NUMBER.match(ascii_name.split(".")[-1]) or _is_ip(ascii_name):
        raise BadHost("The link must use your website's name, not an IP address.")
    ascii_labels = ascii_name.split(".")
    if len(ascii_labels) < 2 or not all(_LABEL.match(label) for label in ascii_labels):
        raise BadHost("The link must go to a public website, with a full domain name (like yourbrand.com).")
    if any(ascii_name == s or ascii_name.endswith("." + s) for s in RESERVED_SUFFIXES + RESERVED_NAMES):
        raise BadHost("The link must go to a public website, not a local, internal or reserved name.")
    unicode_labels = [idna.decode(label) if label.startswith("xn--") else label for label in ascii_labels]
    top = unicode_labels[-1]
    for label in unicode_labels:
        _check_scripts(label, top)
    for label in unicode_labels:
        _check_trusted(label)
    return ascii_name


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def scripts_of(label: str) -> set[str]:
    return {categories.alias(ch) for ch in label} - NEUTRAL


def _check_scripts(label: str, top: str) -> None:
    scripts = scripts_of(label)
    if len(scripts) > 1 and not any(scripts <= allowed for allowed in ALLOWED_MIXES):
        raise BadHost(f"The link's website name mixes alphabets ({', '.join(sorted(s.title() for s in scripts))}) "
                      "in a way used to imitate other websites.")
    if len(scripts) == 1 and scripts != {"LATIN"} and scripts_of(top) <= {"LATIN"}:
        letters = [ch for ch in label if categories.alias(ch) not in NEUTRAL]
        if letters and all(_looks_latin(ch) for ch in letters):
            raise BadHost("The link's website name is written in letters that imitate Latin ones, as used to "
                          "pass for another website.")


def _looks_latin(ch: str) -> bool:
    found = confusables.is_confusable(ch, preferred_aliases=["latin"], greedy=True) or []
    return any(h["n"].startswith("LATIN") for f in found for h in f["homoglyphs"])


def _bare(text: str) -> str:
    return text.replace("\u200e", "").replace("\u200f", "")  # the data wraps right-to-left letters in marks


@cache
def _prototypes() -> dict[str, str]:
    """Each character of a confusable class → the class's prototype, from UTS #39's confusables.txt as
    `confusable-homoglyphs` ships it. The package keeps each `source → prototype` line as a link both ways, so
    each class is a star: its prototype (a character or a sequence such as "rn") is the one linked to all the
    others. A class of two single characters has no centre; either one serves, as only equality matters: the
    ASCII one, else the lower code point."""
    links: dict[str, set[str]] = defaultdict(set)
    for char, homoglyphs in confusables.confusables_data.items():
        for homoglyph in homoglyphs:
            a, b = _bare(char), _bare(homoglyph["c"])
            links[a].add(b)
            links[b].add(a)
    prototypes = {}
    for char, others in links.items():
        if len(char) != 1 or len(others) > 1:
            continue  # a sequence, or a class's centre: its own prototype
        (other,) = others
        if len(links[other]) > 1 or len(other) > 1:
            prototypes[char] = other
        elif not char.isascii() and (other.isascii() or other < char):
            prototypes[char] = other
    return prototypes


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character replaced by its confusable prototype, NFD again. Two strings that
    look alike have the same skeleton (`paypa1` and `paypal`, `arnazon` and `amazon`)."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def look_alike_key(label: str) -> str:
    """The skeleton with combining marks set aside (`ȧpple` → `apple`, `ø` → `o`), as Chromium's spoof check does
    before comparing a name with the sites people know: a dot or a stroke is easy to miss."""
    bare = "".join(ch for ch in skeleton(label) if unicodedata.category(ch) != "Mn")
    return skeleton(bare)


@cache
def trusted_labels() -> dict[str, tuple[str, str]]:
    """The look-alike key of each trusted name's first label → (that label, the name), from the packaged
    `trusted_hosts.txt`."""
    text = resources.files("pinbid_social").joinpath("trusted_hosts.txt").read_text("utf-8")
    found = {}
    for line in text.splitlines():
        name = line.split("#", 1)[0].strip().lower()
        if name:
            label = name.split(".")[0]
            found.setdefault(look_alike_key(label), (label, name))
    return found


def _check_trusted(label: str) -> None:
    trusted = trusted_labels().get(look_alike_key(label))
    if trusted is not None and label != trusted[0]:
        raise BadHost(f"The link's website name imitates {trusted[1]} with letters that look the same, as used to "
                      "pass for another website; use your own website's name.")
