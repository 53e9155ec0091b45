"""Broken screenshots and odd link spellings for the property-based tests of both input routes: real small images
of each accepted format (with and without EXIF, ICC and text chunks) taken apart the ways files break or are made to
break: truncated, bit-flipped, spliced, given bad chunks or a second end marker, the wrong magic, or a header that
claims huge dimensions. Also the concrete inputs that once answered 500 or passed when they should not."""

import io
import struct
import zlib

from hypothesis import strategies as st
from PIL import Image, PngImagePlugin


def png_chunk(kind: bytes, body: bytes, *, crc: int | None = None) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) if crc is None
                                                                     else crc)


def image(kind: str, size=(24, 16), mode="RGB", **save) -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, (200, 30, 90, 255)[: len(mode)] if mode in ("RGB", "RGBA") else 128).save(out, kind, **save)
    return out.getvalue()


def png_with(*chunks: bytes, size=(24, 16)) -> bytes:
    """A PNG with these chunks just before its IEND."""
    data = image("PNG", size)
    end = data.rfind(b"IEND") - 4
    return data[:end] + b"".join(chunks) + data[end:]


def png_claiming(width: int, height: int) -> bytes:
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", zlib.compress(b"\0" * 64)) + \
        png_chunk(b"IEND", b"")


def jpeg_claiming(width: int, height: int) -> bytes:
    """A small JPEG whose SOF header claims another size."""
    data = bytearray(image("JPEG"))
    sof = data.find(b"\xff\xc0")
    data[sof + 5:sof + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def webp_claiming(width: int, height: int) -> bytes:
    """A small lossless WebP whose VP8L header claims another size (14 bits each, so at most 16384)."""
    data = bytearray(image("WEBP", lossless=True))
    at = data.find(b"VP8L") + 9
    bits = struct.unpack("<I", data[at:at + 4])[0] & ~0x0FFFFFFF
    data[at:at + 4] = struct.pack("<I", bits | ((width - 1) & 0x3FFF) | (((height - 1) & 0x3FFF) << 14))
    return bytes(data)


# --- the concrete inputs found by the probes (each answered 500 or passed before) -------------------------

MALFORMED_EXIF = b"garbage, not a TIFF header"
PNG_BAD_EXIF = png_with(png_chunk(b"eXIf", MALFORMED_EXIF))
PNG_TRUNCATED_EXIF = png_with(png_chunk(b"eXIf", b"MM\x00*\x00\x00\x00\x08\x00\x05\x01\x12"))
WEBP_BAD_EXIF = image("WEBP", exif=MALFORMED_EXIF)
JPEG_BAD_EXIF = image("JPEG", exif=b"Exif\x00\x00" + MALFORMED_EXIF)
PNG_TWO_IENDS = png_with(png_chunk(b"IEND", b"")) + b"<?xml nothing to see?>"  # a file between two IENDs
PNG_SECOND_IEND_AFTER = image("PNG") + b"PK\x03\x04 a zip rides along" + png_chunk(b"IEND", b"")
JPEG_SECOND_EOI = image("JPEG") + b"PK\x03\x04 a zip rides along\xff\xd9"
PNG_SHORT_ICCP = png_with(png_chunk(b"iCCP", b"\x00"))  # Pillow 13 raised IndexError reading it (found by fuzzing)
WEBP_TOO_WIDE_TO_REENCODE = webp_claiming(16384, 2441)  # decodes; libwebp's encoder refused it (ValueError)
WEBP_SECOND_IMAGE = (lambda one, two: b"RIFF" + struct.pack("<I", len(one) - 8 + len(two) - 12) + one[8:] + two[12:])(
    image("WEBP"), image("WEBP", lossless=True))

ACCEPTED_WITH_JUNK_METADATA = {"png-bad-exif": PNG_BAD_EXIF, "png-truncated-exif": PNG_TRUNCATED_EXIF,
                               "webp-bad-exif": WEBP_BAD_EXIF, "jpeg-bad-exif": JPEG_BAD_EXIF}
POLYGLOTS = {"png-two-iends": PNG_TWO_IENDS, "png-second-iend-after": PNG_SECOND_IEND_AFTER,
             "jpeg-second-eoi": JPEG_SECOND_EOI, "webp-second-image": WEBP_SECOND_IMAGE}

# short-link spellings that answered 500 or were stored before
FOUND_URLS = ["https://brand.com／evil", "https://a／b.brand.com/x", "https://brand.com＃frag", "https://brand＃.com/",
              "https://[brand.com/", "https://brand.com]/", "https://[brand.com]/", "https://brand.com:abc/",
              "https://brand.com:99999/", "https://brand.com:0/", "https://brand.com:/", "https://brand.com:+443/",
              "https://brand.com:٤٤٣/", "https://brand.com:25/", "https://brand.com:443:80/",
              "https://lınkedin.com/jobs", "https://ȧpple.com/", "https://paypa1.com/", "https://arnazon.com/deal",
              "https://instagrarn.com/p/1", "https://@brand.com/", "https://user:pw@brand.com/"]


# --- strategies ------------------------------------------------------------------------------------------------


@st.composite
def seed_images(draw) -> bytes:
    """A real small image: each format, with or without metadata (random EXIF, ICC and text included)."""
    kind = draw(st.sampled_from(["PNG", "JPEG", "WEBP"]))
    mode = draw(st.sampled_from(["RGB", "RGBA", "L"] if kind != "JPEG" else ["RGB", "L"]))
    size = (draw(st.integers(1, 40)), draw(st.integers(1, 40)))
    save = {}
    if draw(st.booleans()):
        save["exif"] = draw(st.sampled_from([b"", b"Exif\x00\x00", b"MM\x00*", b"II*\x00"])) + draw(
            st.binary(max_size=64))
    if draw(st.booleans()):
        save["icc_profile"] = draw(st.binary(min_size=1, max_size=64))
    if kind == "PNG" and draw(st.booleans()):
        info = PngImagePlugin.PngInfo()
        info.add_text(draw(st.sampled_from(["Comment", "Author", "XML:com.adobe.xmp"])),
                      draw(st.text(max_size=40)))
        save["pnginfo"] = info
    return image(kind, size, mode, **save)


def _truncate(data: bytes, draw) -> bytes:
    return data[: draw(st.integers(0, max(len(data) - 1, 0)))]


def _flip(data: bytes, draw) -> bytes:
    if not data:
        return data
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(out) - 1))
        out[at] ^= 1 << draw(st.integers(0, 7))
    return bytes(out)


def _overwrite(data: bytes, draw) -> bytes:
    if not data:
        return data
    at = draw(st.integers(0, len(data) - 1))
    junk = draw(st.binary(min_size=1, max_size=16))
    return data[:at] + junk + data[at + len(junk):]


def _chunk(data: bytes, draw) -> bytes:
    """A chunk or segment of the format's own kind, with any body and a right or wrong checksum, before the end."""
    body = draw(st.binary(max_size=48))
    if data.startswith(b"\x89PNG"):
        kind = draw(st.sampled_from([b"eXIf", b"iCCP", b"tEXt", b"zTXt", b"iTXt", b"IDAT", b"IHDR", b"PLTE",
                                     b"tRNS", b"acTL", b"fcTL", b"pHYs", b"zzZz"]))
        chunk = png_chunk(kind, body, crc=draw(st.none() | st.integers(0, 2**32 - 1)))
        end = data.rfind(b"IEND") - 4
        return data[:end] + chunk + data[end:] if end > 0 else data + chunk
    if data.startswith(b"\xff\xd8"):
        marker = draw(st.sampled_from([b"\xff\xe1", b"\xff\xe2", b"\xff\xfe", b"\xff\xdb", b"\xff\xc4",
                                       b"\xff\xdd", b"\xff\xc0"]))
        length = draw(st.sampled_from([len(body) + 2, 0, 1, 0xFFFF]))
        return data[:2] + marker + struct.pack(">H", length) + body + data[2:]
    kind = draw(st.sampled_from([b"EXIF", b"ICCP", b"XMP ", b"ALPH", b"ANIM", b"VP8X", b"JUNK"]))
    length = draw(st.sampled_from([len(body), 0, 0xFFFFFFF0]))
    inner = data[12:] + kind + struct.pack("<I", length) + body + b"\0" * (len(body) & 1)
    return b"RIFF" + struct.pack("<I", len(inner) + 4) + b"WEBP" + inner


def _second_end(data: bytes, draw) -> bytes:
    middle = draw(st.sampled_from([b"", b"PK\x03\x04zip", b"<svg onload=alert(1)>", b"\x00\x00"]))
    end = draw(st.sampled_from([png_chunk(b"IEND", b""), b"\xff\xd9", data[:12]]))
    return data + middle + end


def _magic(data: bytes, draw) -> bytes:
    magic = draw(st.sampled_from([b"GIF89a", b"BM", b"%PDF-1.7", b"PK\x03\x04", b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff",
                                  b"RIFF\x00\x00\x00\x00WEBP", b"<svg", b""]))
    return magic + data[draw(st.integers(0, min(len(data), 12))):]


MUTATIONS = [_truncate, _flip, _overwrite, _chunk, _second_end, _magic]


@st.composite
def broken_images(draw) -> bytes:
    """A real image taken apart one to three ways, or a header claiming a huge size, or plain bytes."""
    choice = draw(st.integers(0, 9))
    if choice == 0:
        claim = draw(st.sampled_from([png_claiming, jpeg_claiming, webp_claiming]))
        side = st.sampled_from([1, 5001, 8000, 16383, 16384, 2**16 - 1]) | st.integers(1, 2**16 - 1)
        return claim(draw(side), draw(side))
    if choice == 1:
        return draw(st.binary(max_size=256))
    data = draw(seed_images())
    for _ in range(draw(st.integers(1, 3))):
        data = draw(st.sampled_from(MUTATIONS))(data, draw)
    return data


# how people (and attackers) spell a link: schemes, hosts in any script and width, IP spellings, ports, brackets
_HOSTS = st.sampled_from(["brand.com", "shop.northwind.coffee", "bücher.de", "москва.рф", "lınkedin.com", "ȧpple.com",
                          "pаypal.com", "localhost", "127.0.0.1", "[::1]", "0x7f.1", "xn--80ak6aa92e.com",
                          "example.com", "brand．com", "ｂｒａｎｄ.com", "brand.com.", "a..b", "-x-.com", ""])
_PORTS = st.sampled_from(["", ":", ":443", ":8443", ":0", ":65536", ":99999", ":abc", ":٤٤٣", ":+1", ": 1", ":25"])
_ODD = st.sampled_from(["／", "＃", "[", "]", "@", ":", "%", "%2e", "%00", "\\", "?", "#", "＠", "：", "．", "\u200b",
                        "\u202e", "ı", "ȧ", "ℓ", "ⓐ", "ß", "\ufeff", " ", "\t"])


@st.composite
def link_spellings(draw) -> str:
    """Mostly https addresses (so the host and port rules are reached), with odd characters, ports, user info,
    other schemes, and now and then any text at all."""
    scheme = draw(st.sampled_from(["https://"] * 8 + ["http://", "HTTPS://", "https:/", "https:", "javascript:",
                                                     "//", ""]))
    host = draw(_HOSTS)
    if draw(st.booleans()):  # an odd character somewhere in the host
        at = draw(st.integers(0, len(host)))
        host = host[:at] + draw(_ODD) + host[at:]
    tail = draw(st.sampled_from(["", "/", "/offer?x=1", "/a#b", "?q=[", "/%zz"]))
    user = draw(st.sampled_from([""] * 8 + ["user@", "@", "a:b@"]))
    url = scheme + user + host + draw(_PORTS) + tail
    if draw(st.integers(0, 7)) == 0:
        url = draw(st.text(max_size=60)) if draw(st.booleans()) else url + draw(st.text(max_size=20))
    return url
