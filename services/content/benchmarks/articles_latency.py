"""Latency of GET /blog/articles (p50/p99), on a fresh database holding the shipped articles plus
generated ones, called in-process (no network); or, with --url, against a running gateway.

    uv run python services/content/benchmarks/articles_latency.py [--articles 200] [--requests 1000]
    uv run python services/content/benchmarks/articles_latency.py --url http://127.0.0.1:8300/api
"""

import argparse
import asyncio
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from pinbid_content.app import build
from pinbid_content.settings import DEFAULT_ARTICLES, ContentSettings
from pinbid_testing import scratch_database

QUERIES = [
    {"page": 1, "limit": 10},
    {"page": 3, "limit": 10},
    {"q": "auction", "limit": 10},
    {"q": "pinned comment disclosure", "limit": 10},
    {"category": "creator-tips", "limit": 10},
    {"category": "brand-playbook", "q": "bid", "page": 2, "limit": 10},
    {"page": 1, "limit": 50},
]


def generate(folder: Path, count: int) -> None:
    for path in DEFAULT_ARTICLES.iterdir():
        shutil.copy(path, folder / path.name)
    categories = ["creator-tips", "brand-playbook", "platform-news"]
    sample = (DEFAULT_ARTICLES / "pricing-your-pin-slots.md").read_text().split("---", 2)[2]
    for i in range(max(0, count - 6)):
        (folder / f"generated-{i}.md").write_text(
            f"---\nslug: generated-{i}\ntitle: Generated article {i} about auctions\nauthor: Bench\n"
            f"date: 2025-{1 + i % 12:02d}-{1 + i % 28:02d}\nexcerpt: Benchmark article {i}.\n"
            f"category: {categories[i % 3]}\ntags: [bench, tag-{i % 10}]\n---\n{sample}\n")


def summary(label: str, samples: list[float], wall: float) -> None:
    ordered = sorted(samples)
    p = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000  # noqa: E731
    print(f"{label:<34} n={len(ordered):>5}  p50={p(0.50):7.2f} ms  p99={p(0.99):7.2f} ms  "
          f"mean={statistics.mean(ordered) * 1000:6.2f} ms  throughput={len(ordered) / wall:7.0f} req/s")


async def measure(http: httpx.AsyncClient, path: str, requests: int, concurrency: int) -> tuple[list[float], float]:
    samples: list[float] = []
    counter = iter(range(requests))

    async def worker() -> None:
        for i in counter:
            started = time.perf_counter()
            response = await http.get(path, params=QUERIES[i % len(QUERIES)])
            samples.append(time.perf_counter() - started)
            assert response.status_code == 200, response.text

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return samples, time.perf_counter() - started


async def run(http: httpx.AsyncClient, path: str, requests: int) -> None:
    for _ in range(50):  # warm up connections and plans
        await http.get(path, params=QUERIES[0])
    for concurrency in (1, 10, 50):
        samples, wall = await measure(http, path, requests, concurrency)
        summary(f"GET /blog/articles, {concurrency} at a time", samples, wall)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--articles", type=int, default=200)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--url", help="a running gateway's API base, e.g. http://127.0.0.1:8300/api")
    args = parser.parse_args()
    if args.url:
        async with httpx.AsyncClient(base_url=args.url, timeout=30) as http:
            print(f"against {args.url} (through the gateway, over HTTP)")
            await run(http, "/blog/articles", args.requests)
        return

    with tempfile.TemporaryDirectory() as tmp, scratch_database("pinbid_content", prefix="bench_content") as url:
        folder = Path(tmp)
        generate(folder, args.articles)
        service = build(ContentSettings(database_url=url, articles_dir=folder, newsletter_secret="bench"))
        try:
            result = await service.state["sync_articles"]()
            print(f"{result.created} articles in a fresh database; in-process ASGI client, no network")
            transport = httpx.ASGITransport(app=service.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as http:
                await run(http, "/blog/articles", args.requests)
        finally:
            await service.db.dispose()


if __name__ == "__main__":
    asyncio.run(main())
