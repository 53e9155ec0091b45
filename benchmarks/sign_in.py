"""Sign-in time through the gateway: with a password, with a password and an authenticator code, and with a
passkey (options, then the assertion: the whole ceremony a browser makes, the authenticator being the software one
of pinbid_testing), p50 and p99.

Open loop: each kind is due at a fixed rate, interleaved, whatever the answers do, and its latency runs from the
time it was due (a slow answer does not hide the queue behind it). `GET /api/health` due at the same rate in the
same run is the anchor: what the machine and the gateway cost at that moment, without argon2 or WebAuthn.

    uv run python -m benchmarks.sign_in [--rate 2] [--seconds 40] [--base http://127.0.0.1:8000]

Without --base it starts the embedded product on a free port (its public URL, the passkeys' origin, is
http://localhost:<port>)."""

import argparse
import asyncio
import time
import uuid
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import httpx
from pinbid_identity.domain.second_factor import code_at
from pinbid_testing.webauthn import SoftAuthenticator

from .common import embedded, summary

PASSWORD = "benchmark password"
PASSKEY_USERS = 20  # round robin: one counting passkey signs in once at a time (its counter must grow)


async def user(http: httpx.AsyncClient) -> tuple[str, str]:
    email = f"bench-{uuid.uuid4().hex[:10]}@example.com"
    answer = await http.post("/api/auth/register", json={"name": "Bench", "email": email, "password": PASSWORD,
                                                         "role": "BUYER"})
    answer.raise_for_status()
    return email, answer.json()["token"]


async def with_totp(http: httpx.AsyncClient) -> tuple[str, str]:
    email, token = await user(http)
    headers = {"Authorization": f"Bearer {token}"}
    secret = (await http.post("/api/auth/totp", headers=headers)).json()["secret"]
    (await http.post("/api/auth/totp/confirm", json={"code": code_at(secret, datetime.now(UTC))},
                     headers=headers)).raise_for_status()
    return email, secret


async def with_passkey(http: httpx.AsyncClient, origin: str) -> tuple[str, SoftAuthenticator]:
    email, token = await user(http)
    headers = {"Authorization": f"Bearer {token}"}
    device = SoftAuthenticator(origin)
    options = (await http.post("/api/auth/passkeys/register/options", headers=headers)).json()["options"]
    (await http.post("/api/auth/passkeys/register", headers=headers,
                     json={"name": "Bench key", "credential": device.register(options)})).raise_for_status()
    return email, device


async def run(base: str, origin: str, rate: float, seconds: float) -> None:
    n = int(rate * seconds)
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=50)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        password_user, _ = await user(http)
        # a code is accepted once per account and step: one account per sign-in with a code
        setting_up = asyncio.Semaphore(8)  # the throttle counts attempts in flight from one address (30 at most)

        async def one_with_totp() -> tuple[str, str]:
            async with setting_up:
                return await with_totp(http)
        coded = await asyncio.gather(*(one_with_totp() for _ in range(n)))
        keyed = [await with_passkey(http, origin) for _ in range(PASSKEY_USERS)]
        latencies: dict[str, list[float]] = defaultdict(list)
        statuses: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))

        async def timed(kind: str, due: float, request) -> None:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            status = await request()
            latencies[kind].append(time.perf_counter() - due)
            statuses[kind][status] += 1

        def password_only() -> object:
            async def go() -> int:
                return (await http.post("/api/auth/login", json={"email": password_user, "password": PASSWORD})
                        ).status_code
            return go

        def password_and_code(i: int) -> object:
            email, secret = coded[i]

            async def go() -> int:
                # the next step's code: the confirm spent this one, and one step of drift is accepted
                code = code_at(secret, datetime.now(UTC) + timedelta(seconds=30))
                return (await http.post("/api/auth/login", json={"email": email, "password": PASSWORD,
                                                                 "code": code})).status_code
            return go

        def passkey(i: int) -> object:
            email, device = keyed[i % PASSKEY_USERS]

            async def go() -> int:
                options = (await http.post("/api/auth/passkeys/login/options", json={"email": email})).json()
                return (await http.post("/api/auth/passkeys/login", json={
                    "credential": device.authenticate(options["options"])})).status_code
            return go

        def anchor() -> object:
            async def go() -> int:
                return (await http.get("/api/health")).status_code
            return go

        start = time.perf_counter() + 0.5
        tasks = []
        for i in range(n):
            due = start + i / rate
            # the four kinds are spread over the interval, so no two are due at the same instant
            tasks += [timed("password", due, password_only()),
                      timed("password + code", due + 0.25 / rate, password_and_code(i)),
                      timed("passkey", due + 0.5 / rate, passkey(i)),
                      timed("anchor: GET /api/health", due + 0.75 / rate, anchor())]
        await asyncio.gather(*tasks)
    print(f"sign-in, open loop: each kind due {rate}/s for {seconds:.0f} s")
    for kind, values in latencies.items():
        print(summary(kind, values), dict(statuses[kind]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=float, default=2.0, help="sign-ins per second of each kind")
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--base", help="a running product (its PUBLIC_URL must be --origin)")
    parser.add_argument("--origin", help="the product's public URL (default: the base URL with localhost)")
    args = parser.parse_args()

    def origin_of(base: str) -> str:
        parts = urlsplit(base)
        return args.origin or f"{parts.scheme}://localhost:{parts.port}"
    if args.base:
        asyncio.run(run(args.base, origin_of(args.base), args.rate, args.seconds))
        return
    with embedded() as base:
        asyncio.run(run(base, origin_of(base), args.rate, args.seconds))


if __name__ == "__main__":
    main()
