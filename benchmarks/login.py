"""Login through the gateway: requests/s and p50/p99 latency at 50 concurrent clients for 20 s, against
the embedded product (argon2id with the default cost: 19 MiB, t=2, p=1, run in threads)."""

import asyncio
import sys
import time
import uuid

import httpx

from .common import embedded, summary

CLIENTS = 50
SECONDS = 20


async def run(base: str) -> None:
    email, password = f"bench-{uuid.uuid4().hex[:8]}@example.com", "benchmark password"
    limits = httpx.Limits(max_connections=CLIENTS, max_keepalive_connections=CLIENTS)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http:
        created = await http.post("/api/auth/register", json={"name": "Bench", "email": email, "password": password,
                                                              "role": "BUYER"})
        created.raise_for_status()
        latencies: list[float] = []
        statuses: dict[int, int] = {}
        deadline = time.perf_counter() + SECONDS

        async def client(n: int) -> None:
            # each client logs in from its own address so the per-address throttle measures nothing here
            headers = {"x-forwarded-for": f"10.9.{n // 250}.{n % 250}"}
            while time.perf_counter() < deadline:
                start = time.perf_counter()
                response = await http.post("/api/auth/login", json={"email": email, "password": password},
                                           headers=headers)
                latencies.append(time.perf_counter() - start)
                statuses[response.status_code] = statuses.get(response.status_code, 0) + 1

        started = time.perf_counter()
        await asyncio.gather(*(client(n) for n in range(CLIENTS)))
        elapsed = time.perf_counter() - started
    print(f"login: {CLIENTS} clients, {elapsed:.1f} s, {len(latencies) / elapsed:.1f} req/s, statuses {statuses}")
    print(summary("login latency", latencies))


def main() -> None:
    if len(sys.argv) > 1:
        asyncio.run(run(sys.argv[1]))
        return
    with embedded() as base:
        asyncio.run(run(base))


if __name__ == "__main__":
    main()
