"""Any number of gateway replicas serve live streams: two gateway processes on a real RabbitMQ, a client on each;
one event published on the bus reaches both (each replica consumes through its own exclusive, auto-deleted
queue)."""

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta

import aio_pika
import httpx
import pytest
from pinbid_kit.bus import RabbitBus
from pinbid_kit.bus.rabbit import prefixed
from pinbid_kit.envelope import Envelope
from pinbid_kit.events.marketplace import SlotUpdated
from pinbid_kit.testing import eventually
from pinbid_kit.tokens import TokenSigner, generate_keypair


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def gateways(amqp_url, tmp_path):
    generate_keypair(tmp_path / "jwt.pem", tmp_path / "jwt.pub")
    prefix = f"live-{uuid.uuid4().hex[:8]}"
    ports = [free_port(), free_port()]
    processes = []
    for port in ports:
        env = {**os.environ, "PINBID_VAR": str(tmp_path), "GATEWAY_PORT": str(port), "GATEWAY_BUS": "rabbitmq",
               "GATEWAY_AMQP_URL": amqp_url, "GATEWAY_BUS_PREFIX": prefix, "GATEWAY_WEB_DIST": str(tmp_path),
               "GATEWAY_JWT_PUBLIC_KEY_FILE": str(tmp_path / "jwt.pub")}
        processes.append(subprocess.Popen([sys.executable, "-m", "pinbid_launcher", "gateway"], env=env,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    try:
        for port in ports:
            for _ in range(300):
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
        token = TokenSigner((tmp_path / "jwt.pem").read_bytes(), ttl_seconds=600).sign(uuid.uuid4(), "BUYER", 1)
        yield [f"http://127.0.0.1:{port}" for port in ports], token, prefix
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=30)
        asyncio.run(_forget(amqp_url, prefix))


async def _forget(amqp_url: str, prefix: str) -> None:
    connection = await aio_pika.connect(amqp_url)
    async with connection:
        channel = await connection.channel()
        for exchange in ("pinbid.events", "pinbid.dead-letter"):
            await channel.exchange_delete(prefixed(prefix, exchange))


async def read_slots(url: str, token: str, slot: uuid.UUID, got: list, ready: asyncio.Event) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=None) as http, http.stream(
            "GET", "/api/events/stream", params={"slots": str(slot)},
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


async def test_one_event_reaches_a_client_on_each_gateway_replica(gateways, amqp_url):
    urls, token, prefix = gateways
    slot = uuid.uuid4()
    received: list[list] = [[], []]
    ready = [asyncio.Event(), asyncio.Event()]
    readers = [asyncio.create_task(read_slots(url, token, slot, got, r))
               for url, got, r in zip(urls, received, ready, strict=True)]
    try:
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), timeout=30)
        bus = RabbitBus(amqp_url, prefix=prefix)
        await bus.start()
        try:
            data = SlotUpdated(slot_id=slot, creator_id=uuid.uuid4(), post_id="1", status="ACTIVE",
                               current_bid_cents=4100, bid_count=2, auction_end=datetime.now(UTC) + timedelta(hours=1))
            await bus.publish(Envelope(type=data.event_type, source="test", data=data.payload()), {})
        finally:
            await bus.stop()

        async def both() -> bool:
            return all(received)

        await eventually(both, within=15)
    finally:
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    assert [got[0]["currentBid"] for got in received] == [41.0, 41.0]
    assert [got[0]["id"] for got in received] == [str(slot), str(slot)]
