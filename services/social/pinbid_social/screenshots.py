"""Screenshots a creator uploads as proof of a pin: read with a hard byte cap before anything is decoded, decoded for
real (whatever the file's name or declared type says), refused when not a JPEG, PNG or WebP, larger than 40
megapixels (a decompression bomb), damaged or truncated, or carrying anything after or beside the image (a script
appended to a PNG, markup inside), then re-encoded from its pixels alone, so no metadata (EXIF, GPS, text chunks,
ICC) and no smuggled byte survives."""

import io
import logging
import re
import struct
import warnings
from collections.abc import AsyncIterator
from dataclasses import dataclass

from PIL import ExifTags, Image, ImageFile, UnidentifiedImageError
from pinbid_kit.errors import ApiError, Invalid
from pinbid_kit.product_rules import REASON_MAX_LENGTH, SCREENSHOT_MAX_BYTES, SCREENSHOT_TYPES
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import Request

MAX_BYTES = SCREENSHOT_MAX_BYTES
MAX_PIXELS = 40_000_000
WEBP_MAX_SIDE = 16383  # libwebp's encoder limit; a lossless header can claim 16384
FORM_OVERHEAD = 64 * 1024  # the multipart boundaries, headers and a note (REASON_MAX_LENGTH)
FORMATS = {name.upper(): content_type for content_type, name in SCREENSHOT_TYPES.items()}  # by Pillow's name
_MARKUP = re.compile(rb"<\s*(script|html|svg|iframe|object|embed|body)\b|<\?php|javascript:", re.IGNORECASE)

DAMAGED = "The image is damaged or incomplete; take the screenshot again."
log = logging.getLogger("pinbid.social.screenshots")

ImageFile.LOAD_TRUNCATED_IMAGES = False  # a truncated image is refused, never padded with grey
Image.MAX_IMAGE_PIXELS = MAX_PIXELS  # Pillow's own bomb guard, behind the check below


class BodyTooLarge(ApiError):
    status = 413
    code = "payload_too_large"


def not_an_image(detail: str) -> Invalid:
    return Invalid(detail, field="screenshot", code="not_an_image")


def too_large(what: str) -> Invalid:
    return Invalid(f"The screenshot is {what}; at most {MAX_PIXELS // 1_000_000} megapixels are accepted.",
                   field="screenshot", code="image_too_large")


@dataclass(frozen=True)
class Screenshot:
    data: bytes  # re-encoded
    content_type: str
    width: int
    height: int


@dataclass(frozen=True)
class Upload:
    screenshot: bytes | None
    note: str | None


async def _capped(request: Request, limit: int) -> AsyncIterator[bytes]:
    seen = 0
    async for chunk in request.stream():
        seen += len(chunk)
        if seen > limit:
            raise BodyTooLarge(f"The upload is larger than {MAX_BYTES // (1024 * 1024)} MB; send a smaller "
                               "screenshot (JPEG, PNG or WebP).")
        yield chunk


async def read_upload(request: Request) -> Upload:
    """The multipart form (`screenshot`, optional `note`), read with a hard cap: a body past the limit is refused
    (413) as soon as it is seen, before it is parsed or kept anywhere."""
    limit = MAX_BYTES + FORM_OVERHEAD
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge(f"The upload is larger than {MAX_BYTES // (1024 * 1024)} MB; send a smaller "
                           "screenshot (JPEG, PNG or WebP).")
    kind = request.headers.get("content-type", "")
    if not kind.startswith("multipart/form-data"):
        return Upload(None, None)  # no form, so no screenshot: the caller says whether one was required
    parser = MultiPartParser(request.headers, _capped(request, limit), max_files=1, max_fields=2,
                             max_part_size=4096)
    try:
        form = await parser.parse()
    except MultiPartException as problem:
        raise Invalid(f"The form could not be read: {problem.message}", field="screenshot",
                      code="bad_form") from None
    try:
        file = form.get("screenshot")
        note = form.get("note")
        data = await file.read() if isinstance(file, UploadFile) else None
    finally:
        await form.close()
    if isinstance(note, UploadFile):
        raise Invalid("The note is text, not a file.", field="note")
    note = (note or "").strip() or None
    if note is not None and len(note) > REASON_MAX_LENGTH:
        raise Invalid(f"The note is longer than {REASON_MAX_LENGTH} characters.", field="note")
    if data is not None and len(data) > MAX_BYTES:
        raise BodyTooLarge(f"The screenshot is larger than {MAX_BYTES // (1024 * 1024)} MB.")
    return Upload(data or None, note)


def _png_end(data: bytes) -> int | None:
    """Where a PNG ends as a decoder reads it: chunk by chunk from the signature to the FIRST IEND (a second IEND
    or anything after the first is not part of the image). None when the chunks do not fit the file."""
    at = 8
    while at + 12 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        at += 12 + length
        if kind == b"IEND":
            return at
    return None


_STANDALONE = frozenset(range(0xD0, 0xDA)) | {0x01}  # RSTn, SOI, EOI and TEM carry no length


def _jpeg_end(data: bytes) -> int | None:
    """Where a JPEG ends as a decoder reads it: marker segment by segment (their lengths skip over an EXIF
    thumbnail's own EOI), through the entropy-coded data after each SOS (where 0xFF is followed by 0x00 or a
    restart marker), to the FIRST EOI. None when the markers do not fit the file."""
    if not data.startswith(b"\xff\xd8"):
        return None
    at, size = 2, len(data)
    while at < size:
        if data[at] != 0xFF:
            return None  # a byte where a marker must be
        while at < size and data[at] == 0xFF:  # fill bytes before a marker
            at += 1
        if at >= size:
            return None
        marker = data[at]
        at += 1
        if marker == 0xD9:
            return at
        if marker in _STANDALONE:
            continue
        if at + 2 > size:
            return None
        at += struct.unpack(">H", data[at:at + 2])[0]
        if marker == 0xDA:  # start of scan: the coded data runs to the next marker that is not a stuffed or RST byte
            while True:
                at = data.find(b"\xff", at)
                if at < 0 or at + 1 >= size:
                    return None
                if data[at + 1] == 0x00 or 0xD0 <= data[at + 1] <= 0xD7 or data[at + 1] == 0xFF:
                    at += 1 if data[at + 1] == 0xFF else 2
                    continue
                break
    return None


_WEBP_CHUNKS = {b"VP8 ", b"VP8L", b"VP8X", b"ALPH", b"ANIM", b"ANMF", b"ICCP", b"EXIF", b"XMP "}


def _webp_end(data: bytes) -> int | None:
    """Where a WebP ends: its RIFF size, if the chunks inside fill it exactly, are all WebP's own and hold one
    bitstream. None otherwise (a second image, or a chunk of something else, is not part of a screenshot)."""
    if len(data) < 12:
        return None
    end = struct.unpack("<I", data[4:8])[0] + 8
    at, bitstreams = 12, 0
    while at + 8 <= min(end, len(data)):
        kind, length = data[at:at + 4], struct.unpack("<I", data[at + 4:at + 8])[0]
        if kind not in _WEBP_CHUNKS:
            return None
        bitstreams += kind in (b"VP8 ", b"VP8L")
        at += 8 + length + (length & 1)  # chunks are padded to an even size
    return end if at == end and bitstreams <= 1 else None


def _trailing_bytes(data: bytes, kind: str) -> bool:
    """Whether the file holds anything beyond the image a decoder reads: past PNG's first IEND, JPEG's first EOI
    (trailing zero padding, which some cameras write, aside) or WebP's RIFF size, or a structure that does not add
    up. A polyglot with a second end marker (two IENDs, two EOIs with a file between them) is caught as the first."""
    if kind == "PNG":
        return _png_end(data) != len(data)
    if kind == "JPEG":
        end = _jpeg_end(data)
        return end is None or data[end:].strip(b"\x00") != b""
    if kind == "WEBP":
        return _webp_end(data) != len(data)
    return True


def check(data: bytes) -> Screenshot:
    """The screenshot re-encoded in its own format, or Invalid (422) saying what is wrong with it."""
    if len(data) > MAX_BYTES:
        raise BodyTooLarge(f"The screenshot is larger than {MAX_BYTES // (1024 * 1024)} MB.")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=list(FORMATS))
            kind = image.format or ""
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise too_large(f"{width}×{height} pixels")
            if kind == "WEBP" and max(width, height) > WEBP_MAX_SIDE:  # it decodes, but cannot be re-encoded
                raise Invalid(f"The screenshot is {width}×{height} pixels; a WebP screenshot can be at most "
                              f"{WEBP_MAX_SIDE} pixels on a side.", field="screenshot", code="image_too_large")
            image.load()
            frames = getattr(image, "n_frames", 1)
    except Invalid:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):  # Pillow's guard, on opening
        raise too_large("too many pixels") from None
    except UnidentifiedImageError:
        raise not_an_image("This file is not a JPEG, PNG or WebP image (whatever its name says).") from None
    except (OSError, SyntaxError, ValueError, struct.error, EOFError, IndexError, KeyError, TypeError):
        raise not_an_image(DAMAGED) from None  # IndexError: Pillow 13 reading a one-byte iCCP chunk, found by fuzzing
    except Exception as error:  # hostile bytes can reach a parser path nobody fuzzed yet: still the sender's file
        log.warning("screenshot refused on an unexpected %s from the decoder: %s", type(error).__name__, error)
        raise not_an_image(DAMAGED) from None
    if kind not in FORMATS:
        raise not_an_image("Only JPEG, PNG and WebP screenshots are accepted.")
    if frames > 1:
        raise not_an_image("Send a still screenshot, not an animation.")
    if _trailing_bytes(data, kind) or _MARKUP.search(data):
        raise not_an_image("The file carries something besides the image (text or code); send the screenshot "
                           "as the phone saved it.")
    data, (width, height) = _reencode(image, kind)
    return Screenshot(data=data, content_type=FORMATS[kind], width=width, height=height)


_TURNS = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
          5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE,
          8: Image.Transpose.ROTATE_90}  # EXIF orientation → the turn that shows the image upright


def _orientation(image: Image.Image) -> int:
    """The EXIF orientation (1: upright). Metadata that cannot be read (a malformed EXIF or XMP chunk in a file
    whose pixels decoded) counts as none: it is dropped on re-encoding anyway, and a screenshot is saved upright."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Pillow warns about each corrupt EXIF entry it skips
            value = image.getexif().get(ExifTags.Base.Orientation, 1)
    except (OSError, SyntaxError, ValueError, TypeError, KeyError, IndexError, struct.error, EOFError):
        return 1
    return value if isinstance(value, int) else 1


def _reencode(image: Image.Image, kind: str) -> tuple[bytes, tuple[int, int]]:
    """From the pixels alone. At 40 megapixels an RGBA image is 160 MB in memory, so copies are avoided: turned
    upright in place, converted only when the mode needs it, and saved with its info emptied (no EXIF, ICC or text
    travels: Pillow writes only what `info` or the save's own arguments hold). Not `exif_transpose`: it
    re-serialised the EXIF that is dropped here anyway, and raised on a malformed one (a 500)."""
    turn = _TURNS.get(_orientation(image))  # shown as the phone showed it, before EXIF is dropped
    if turn is not None:  # in place, as `exif_transpose(in_place=True)` does: the old pixels are freed at once
        image.im = image.im.transpose(turn)
        image._size = image.im.size
    alpha = image.mode in {"RGBA", "LA", "PA"} or (image.mode == "P" and "transparency" in image.info)
    wanted = "RGBA" if alpha and kind != "JPEG" else "RGB"
    pixels = image if image.mode == wanted else image.convert(wanted)
    pixels.info = {}
    if hasattr(pixels, "_exif"):
        pixels._exif = None
    out = io.BytesIO()
    if kind == "JPEG":
        pixels.save(out, "JPEG", quality=90)
    elif kind == "WEBP":
        pixels.save(out, "WEBP", quality=90, method=0)  # method 4 took 5 s and 900 MB at 40 MP; 0 takes 1 s
    else:
        pixels.save(out, "PNG", compress_level=3)  # level 6 took 4 s at 40 MP for a file a few % smaller
    return out.getvalue(), pixels.size
