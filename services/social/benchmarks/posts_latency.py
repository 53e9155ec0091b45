"""GET /instagram/posts latency: p50/p99 served from the read model, and with a provider sync
(the sandbox provider, in the same database), through the service's ASGI app (no gateway)."""

import asyncio
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
from pinbid_kit.envelope import Envelope
from pinbid_kit.events.identity import UserRegistered

sys.path.insert(0, str(Path(__file__).parent))
from _setup import percentile, service  # noqa: E402

REQUESTS = 300


async def connect(svc, user_id: uuid.UUID) -> None:
    connections, sandbox = svc.state["connections"], svc.state["providers"].sandbox
    started = await connections.start(user_id)
    query = {k: v[0] for k, v in parse_qs(urlsplit(started.url).query).items()}
    code = await sandbox.approve(query["login_hint"], sandbox.redirect_uri)
    await connections.complete(code=code, state=query["state"], error=None, browser_nonce=started.nonce)


async def measure(http, headers, path: str, n: int) -> list[float]:
    timings = []
    for _ in range(n):
        t = time.perf_counter()
        response = await http.get(path, headers=headers)
        timings.append((time.perf_counter() - t) * 1000)
        assert response.status_code == 200, response.text
    return timings


async def main() -> None:
    async with service(sandbox_posts_per_account=12, recent_posts=12) as (svc, signer, _clock):
        user_id = uuid.uuid4()
        await svc.consumers.dispatch(Envelope(type=UserRegistered.event_type, source="bench", data=UserRegistered(
            user_id=user_id, email="b@example.com", name="Bench", role="INFLUENCER",
            instagram_handle="bench.creator").payload()), {})
        await connect(svc, user_id)
        headers = {"Authorization": f"Bearer {signer.sign(user_id, 'INFLUENCER', 0)}"}
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=svc.app), base_url="http://social") as http:
            await measure(http, headers, "/instagram/posts", 20)  # warm up
            cached = await measure(http, headers, "/instagram/posts", REQUESTS)
            synced = await measure(http, headers, "/instagram/posts?refresh=true", REQUESTS)
    for label, timings in (("read model", cached), ("with provider sync", synced)):
        print(f"GET /instagram/posts ({label}, 12 posts, {REQUESTS} requests): "
              f"p50 {percentile(timings, 50):.1f} ms, p99 {percentile(timings, 99):.1f} ms")


if __name__ == "__main__":
    asyncio.run(main())
