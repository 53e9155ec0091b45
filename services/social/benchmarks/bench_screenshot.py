"""The cost of the largest screenshot Pinbid accepts: 40 megapixels (8000 × 5000) in at most 5 MB, in each format.
Prints each file's size, the time to decode and re-encode it (`screenshots.check`, what an upload costs the social
service) and the process's peak memory growth. Run: `uv run python services/social/benchmarks/bench_screenshot.py`."""

import io
import multiprocessing
import random
import resource
import statistics
import sys
import time

from PIL import Image, ImageDraw
from pinbid_social.screenshots import MAX_BYTES, MAX_PIXELS, check

SIZE = (8000, 5000)
assert SIZE[0] * SIZE[1] == MAX_PIXELS


def screen_like() -> Image.Image:
    """A phone-screenshot-like picture: flat panels, lines of 'text', a photo-like noisy band (the post)."""
    rng = random.Random(22)
    image = Image.new("RGB", SIZE, (250, 250, 250))
    draw = ImageDraw.Draw(image)
    for y in range(0, SIZE[1], 120):
        draw.rectangle([0, y, SIZE[0], y + 100], fill=(rng.randrange(200, 256),) * 3)
        for x in range(40, SIZE[0] - 400, 260):
            draw.rectangle([x, y + 30, x + rng.randrange(80, 240), y + 60], fill=(20, 20, 20))
    noise = Image.effect_noise((SIZE[0], 150), 40).convert("RGB")
    image.paste(noise, (0, 1800))
    return image


def encoded(image: Image.Image, kind: str) -> bytes:
    for quality in (90, 80, 70, 60, 50):
        out = io.BytesIO()
        image.save(out, kind, **({"compress_level": 9} if kind == "PNG" else {"quality": quality}))
        if out.tell() <= MAX_BYTES:
            return out.getvalue()
    raise SystemExit(f"could not fit a {kind} of {SIZE} in {MAX_BYTES} bytes")


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def current_mib() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


def measure(data: bytes, runs: int) -> tuple[list[float], int, float]:
    """In a fresh process: the times of `runs` checks, the stored size, and the peak memory they added over the
    process's resident memory before the first (its imports and the upload itself)."""
    before = current_mib()
    times, stored = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        stored = len(check(data).data)
        times.append(time.perf_counter() - start)
    return times, stored, peak_mib() - before


def main(runs: int = 3) -> None:
    base = screen_like()
    print(f"largest allowed: {SIZE[0]}×{SIZE[1]} = {MAX_PIXELS / 1e6:.0f} MP, at most {MAX_BYTES / 2**20:.0f} MiB")
    print(f"{'format':<6} {'upload':>10} {'stored':>10} {'median':>9} {'min':>9} {'+memory':>9}")
    spawn = multiprocessing.get_context("spawn")
    for kind in ("PNG", "JPEG", "WEBP"):
        data = encoded(base, kind)
        with spawn.Pool(1) as pool:
            times, stored, grown = pool.apply(measure, (data, runs))
        print(f"{kind:<6} {len(data) / 2**20:>8.2f}Mi {stored / 2**20:>8.2f}Mi "
              f"{statistics.median(times):>8.2f}s {min(times):>8.2f}s {grown:>7.0f}Mi", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
