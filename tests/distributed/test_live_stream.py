"""Any number of gateway replicas serve live streams: marketplace and two gateway processes on a real RabbitMQ, a
client on each gateway watching a slot; a bid placed through one gateway reaches both (each replica consumes
through its own exclusive, auto-deleted queue)."""

import asyncio
import json
import os
import subprocess
import sys
import uuid
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from pinbid_kit.bus import RabbitBus
from pinbid_kit.bus.rabbit import forget_deployment
from pinbid_kit.tokens import TokenSigner, generate_keypair
from pinbid_testing import announce_a_post, eventually, free_port, wait_until_serving

pytestmark = pytest.mark.slow  # run first (pinbid_testing.plugin)




@pytest.fixture
def product(new_database, amqp_url, tmp_path):
    """(gateway urls, token signer, bus prefix): marketplace and two gateways calling it, on their own broker
    names."""
    generate_keypair(tmp_path / "jwt.pem", tmp_path / "jwt.pub")
    prefix = f"live-{uuid.uuid4().hex[:8]}"
    common = {**os.environ, "PINBID_VAR": str(tmp_path)}
    market_port = free_port()
    market_env = {**common, "MARKETPLACE_DATABASE_URL": new_database("pinbid_marketplace"),
                  "MARKETPLACE_BUS": "rabbitmq", "MARKETPLACE_AMQP_URL": amqp_url, "MARKETPLACE_BUS_PREFIX": prefix,
                  "MARKETPLACE_PORT": str(market_port), "MARKETPLACE_JWT_PUBLIC_KEY_FILE": str(tmp_path / "jwt.pub"),
                  "MARKETPLACE_DB_POOL_SIZE": "3", "MARKETPLACE_DB_MAX_OVERFLOW": "2"}
    launches = [(["service", "marketplace"], market_env, market_port)]
    ports = [free_port(), free_port()]
    for port in ports:
        launches.append((["gateway"], {
            **common, "GATEWAY_PORT": str(port), "GATEWAY_BUS": "rabbitmq", "GATEWAY_AMQP_URL": amqp_url,
            "GATEWAY_BUS_PREFIX": prefix, "GATEWAY_WEB_DIST": str(tmp_path),
            "GATEWAY_MARKETPLACE_URL": f"http://127.0.0.1:{market_port}",
            "GATEWAY_JWT_PUBLIC_KEY_FILE": str(tmp_path / "jwt.pub")}, port))
    processes = []
    try:
        for arguments, env, port in launches:
            process = subprocess.Popen([sys.executable, "-m", "pinbid_launcher", *arguments], env=env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            processes.append(process)
            wait_until_serving(f"http://127.0.0.1:{port}/readyz", process)
        signer = TokenSigner((tmp_path / "jwt.pem").read_bytes(), ttl_seconds=600)
        yield [f"http://127.0.0.1:{port}" for port in ports], signer, prefix
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=30)
        asyncio.run(forget_deployment(amqp_url, prefix, ["marketplace"]))


async def read_slots(url: str, token: str, slot: str, got: list, ready: asyncio.Event) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=None) as http, http.stream(
            "GET", "/api/events/stream", params={"slots": slot},
            headers={"Authorization": f"Bearer {token}"}) as response:
        assert response.status_code == 200
        event = None
        async for line in response.aiter_lines():
            if line.startswith("event: "):
                event = line[len("event: "):]
                if event == "ready":
                    ready.set()
            elif line.startswith("data: ") and event == "slot":
                got.append(json.loads(line[len("data: "):]))


async def listed_slot(url: str, amqp_url: str, prefix: str, creator_id: uuid.UUID, creator: str) -> str:
    """A slot on the creator's post, the post announced on the bus as social does."""
    bus = RabbitBus(amqp_url, prefix=prefix)
    await bus.start()
    try:
        await announce_a_post(bus, creator_id)
    finally:
        await bus.stop()
    listed: list[str] = []
    async with httpx.AsyncClient(base_url=url, timeout=10) as http:
        async def list_slot() -> bool:  # succeeds once the post reached marketplace as an event
            slot = await http.post("/api/influencer/pin-slots", headers={"Authorization": f"Bearer {creator}"}, json={
                "postId": "media-1", "title": "Sunrise swim", "description": "A reel", "category": "fitness",
                "minBid": 10, "auctionEnd": (datetime.now(UTC) + timedelta(days=2)).isoformat()})
            if slot.status_code == 201:
                listed.append(slot.json()["id"])
            return bool(listed)

        await eventually(list_slot, within=20, every=0.1)
    return listed[0]


async def test_a_bid_through_one_gateway_reaches_a_client_on_each_replica(product, amqp_url):
    urls, signer, prefix = product
    creator_id = uuid.uuid4()
    slot = await listed_slot(urls[0], amqp_url, prefix, creator_id, signer.sign(creator_id, "INFLUENCER", 1))
    watcher, bidder = (signer.sign(uuid.uuid4(), "BUYER", 1) for _ in range(2))
    received: list[list] = [[], []]
    ready = [asyncio.Event(), asyncio.Event()]
    readers = [asyncio.create_task(read_slots(url, watcher, slot, got, r))
               for url, got, r in zip(urls, received, ready, strict=True)]
    try:
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), timeout=30)
        async with httpx.AsyncClient(base_url=urls[1], timeout=10) as http:
            placed = await http.post("/api/buyer/bids", headers={"Authorization": f"Bearer {bidder}"},
                                     json={"pinSlotId": slot, "amount": 41, "newCommentText": "Ad · distributed"})
        assert placed.status_code == 201, placed.text

        async def both() -> bool:
            return all(received)

        await eventually(both, within=15)
    finally:
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    # one price: a lone leader would pay the minimum bid (10)
    assert [(got[0]["id"], got[0]["currentBid"], got[0]["bidCount"]) for got in received] == [(slot, 10, 1)] * 2
