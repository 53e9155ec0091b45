"""The live stream over real HTTP (a uvicorn server in this process), fed by the in-process bus as in the
embedded run: who is told what, and when a stream is refused or ended."""

import asyncio
import json
import socket
import uuid
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from pinbid_gateway.app import Gateway
from pinbid_gateway.live.hub import QUEUE_SIZE, Hub
from pinbid_gateway.settings import GatewaySettings
from pinbid_gateway.upstreams import Upstreams
from pinbid_identity.app import build
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import identity as i
from pinbid_kit.events import marketplace as m
from pinbid_kit.revocations import Revocations
from pinbid_kit.tokens import TokenSigner, TokenVerifier
from pinbid_testing import eventually, free_port, running, serving

from .conftest import bearer, session


@pytest.fixture
async def served(identity_settings, tmp_path):
    """(base url, in-process bus, identity) with the gateway's hub on the bus, as the embedded launcher wires it."""
    identity = build(identity_settings())
    settings = GatewaySettings(web_dist=tmp_path, jwt_public_key_file=tmp_path / "k.pub", live_heartbeat_seconds=0.3)
    gateway = Gateway(settings, Upstreams.in_process({"identity": identity.app}, timeout=10),
                      TokenVerifier.from_file(tmp_path / "k.pub"))
    port = free_port()
    async with running(identity) as bus:
        gateway.attach(bus)
        async with serving(gateway.app, port):
            yield f"http://127.0.0.1:{port}", bus, gateway


class Stream:
    """An open stream's messages, read in the background: (event, data) pairs, comments as ("comment", text)."""

    def __init__(self, response: httpx.Response):
        self.response = response
        self.received: list[tuple[str, object]] = []
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            await self._parse()
        except (httpx.ReadError, httpx.RemoteProtocolError, httpx.StreamClosed):
            pass  # the test ended and its client let go of the stream

    async def _parse(self) -> None:
        event, data = "message", ""
        async for line in self.response.aiter_lines():
            if line.startswith(":"):
                self.received.append(("comment", line[1:].strip()))
            elif line.startswith("event: "):
                event = line[len("event: "):]
            elif line.startswith("data: "):
                data = line[len("data: "):]
            elif line == "" and data:
                self.received.append((event, json.loads(data)))
                event, data = "message", ""

    def events(self, name: str) -> list:
        return [data for event, data in self.received if event == name]

    async def wait_for(self, name: str, count: int = 1) -> list:
        async def arrived() -> bool:
            return len(self.events(name)) >= count

        await eventually(arrived, within=10)
        return self.events(name)


async def open_stream(http: httpx.AsyncClient, token: str, slots: str = "") -> Stream:
    request = http.build_request("GET", "/api/events/stream", params={"slots": slots} if slots else None,
                                 headers=bearer(token))
    response = await http.send(request, stream=True)
    assert response.status_code == 200, await response.aread()
    assert response.headers["content-type"].startswith("text/event-stream")
    assert "gzip" in request.headers["accept-encoding"] and "content-encoding" not in response.headers  # streamed as is
    stream = Stream(response)
    await stream.wait_for("ready")
    return stream


def envelope(data) -> Envelope:
    return Envelope(type=data.event_type, source="test", data=data.payload())


def slot_updated(slot_id: uuid.UUID, creator_id: uuid.UUID, cents: int) -> Envelope:
    return envelope(m.SlotUpdated(slot_id=slot_id, creator_id=creator_id, post_id="1", status="ACTIVE",
                                  current_bid_cents=cents, bid_count=3, bidder_count=2,
                                  auction_end=datetime.now(UTC) + timedelta(minutes=5)))


async def user_id(http: httpx.AsyncClient, token: str) -> uuid.UUID:
    return uuid.UUID((await http.get("/api/auth/me", headers=bearer(token))).json()["id"])


async def test_a_stream_is_refused_before_it_starts_without_a_valid_token(served):
    url, _, _ = served
    async with httpx.AsyncClient(base_url=url) as http:
        anonymous = await http.get("/api/events/stream")
        assert anonymous.status_code == 403 and anonymous.json()["code"] == "not_signed_in"
        forged = await http.get("/api/events/stream", headers=bearer("not.a.token"))
        assert forged.status_code == 403 and forged.headers["content-type"] == "application/json"


async def test_more_than_100_slots_or_ids_that_are_not_uuids_are_422(served):
    url, _, _ = served
    async with httpx.AsyncClient(base_url=url) as http:
        token, _ = await session(http)
        too_many = await http.get("/api/events/stream", headers=bearer(token),
                                  params={"slots": ",".join(str(uuid.uuid4()) for _ in range(101))})
        assert too_many.status_code == 422 and too_many.json()["errors"][0]["field"] == "slots"
        not_ids = await http.get("/api/events/stream", headers=bearer(token), params={"slots": "1,2;DROP"})
        assert not_ids.status_code == 422 and not_ids.json()["errors"][0]["field"] == "slots"


async def test_a_slot_reaches_its_watchers_and_its_creator_not_another_creator(served):
    url, bus, _ = served
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        brand, _ = await session(http, "BUYER")
        owner, _ = await session(http, "INFLUENCER")
        other, _ = await session(http, "INFLUENCER")
        slot = uuid.uuid4()
        watching = await open_stream(http, brand, str(slot))
        owning = await open_stream(http, owner)  # a creator hears of their own slots without asking
        curious = await open_stream(http, other, str(slot))  # another creator's slot: nothing
        await bus.publish(slot_updated(slot, await user_id(http, owner), 5250), {})
        for stream in (watching, owning):
            [update] = await stream.wait_for("slot")
            assert update == {"id": str(slot), "currentBid": 52.5, "bidCount": 3, "bidderCount": 2,
                              "auctionEnd": update["auctionEnd"], "status": "ACTIVE"}
        notice = i.NotificationCreated(notification_id=uuid.uuid4(), user_id=await user_id(http, other),
                                       kind="bid.placed", title="New bid", message="A bid.", link="/dashboard",
                                       created_at=datetime.now(UTC), unread_count=4)
        await bus.publish(envelope(notice), {})
        [told] = await curious.wait_for("notification")
        assert told["unreadCount"] == 4 and told["notification"]["title"] == "New bid"
        assert curious.events("slot") == []  # the slot update came before the notice, and was not sent
        assert watching.events("notification") == owning.events("notification") == []


async def test_an_outbid_goes_to_that_brand_only(served):
    url, bus, _ = served
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        outbid, _ = await session(http, "BUYER")
        bystander, _ = await session(http, "BUYER")
        slot = uuid.uuid4()
        mine, theirs = await open_stream(http, outbid, str(slot)), await open_stream(http, bystander, str(slot))
        bid = uuid.uuid4()
        await bus.publish(envelope(m.BidOutbid(bid_id=bid, slot_id=slot, slot_title="Sunday reset",
                                               buyer_id=await user_id(http, outbid), current_bid_cents=6000,
                                               auction_end=datetime.now(UTC))), {})
        [told] = await mine.wait_for("bid")
        assert told == {"id": str(bid), "slotId": str(slot), "status": "OUTBID", "amount": None,
                        "currentBid": 60.0, "slotTitle": "Sunday reset", "paymentStatus": None}
        # Then the bystander is outbid on a bid of its own: its stream is in order, so had the first outbid
        # been sent to it too, that one would have arrived before this one.
        own = uuid.uuid4()
        await bus.publish(envelope(m.BidOutbid(bid_id=own, slot_id=slot, slot_title="Sunday reset",
                                               buyer_id=await user_id(http, bystander), current_bid_cents=6500,
                                               auction_end=datetime.now(UTC))), {})
        [their_own] = await theirs.wait_for("bid")
        assert their_own["id"] == str(own)
        assert [b["id"] for b in mine.events("bid")] == [str(bid)]


async def test_a_revoked_session_ends_the_stream_and_idle_streams_get_heartbeats(served):
    url, bus, _ = served
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        token, _ = await session(http, "BUYER")
        stream = await open_stream(http, token)

        async def pinged() -> bool:
            return ("comment", "ping") in stream.received

        await eventually(pinged, within=5)
        await bus.publish(envelope(i.SessionsRevoked(user_id=await user_id(http, token), token_version=99)), {})
        [ended] = await stream.wait_for("end")
        assert ended == {"reason": "revoked"}
        await asyncio.wait_for(stream.task, timeout=5)  # the server closed the stream
        refused = await http.get("/api/events/stream", headers=bearer(token))
        assert refused.status_code == 403  # and a new one is refused before it starts


async def test_a_stream_ends_when_its_token_expires(served, tmp_path):
    url, _, _ = served
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        token, _ = await session(http, "BUYER")
        short = TokenSigner((tmp_path / "k.pem").read_bytes(), ttl_seconds=2).sign(
            await user_id(http, token), "BUYER", 1)
        stream = await open_stream(http, short)
        [ended] = await stream.wait_for("end")
        assert ended == {"reason": "expired"}
        await asyncio.wait_for(stream.task, timeout=5)


async def test_the_stream_is_neither_compressed_nor_cached_nor_buffered(served):
    url, _, _ = served
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        token, _ = await session(http, "BUYER")
        request = http.build_request("GET", "/api/events/stream", headers={**bearer(token), "Accept-Encoding": "gzip"})
        response = await http.send(request, stream=True)
        try:
            assert "content-encoding" not in response.headers
            assert response.headers["cache-control"] == "no-store" and response.headers["x-accel-buffering"] == "no"
        finally:
            await response.aclose()


async def stalled_stream(url: str, token: str, slot: uuid.UUID) -> asyncio.StreamWriter:
    """A stream whose reader, once the answer has begun, never reads again (a small window, so it fills soon)."""
    host, port = url.removeprefix("http://").split(":")
    stalled = socket.socket()
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting: a small window
    stalled.connect((host, int(port)))
    reader, writer = await asyncio.open_connection(sock=stalled)
    writer.write(f"GET /api/events/stream?slots={slot} HTTP/1.1\r\nHost: {host}\r\n"
                 f"Authorization: Bearer {token}\r\n\r\n".encode())
    assert (await asyncio.wait_for(reader.readline(), timeout=10)).startswith(b"HTTP/1.1 200")
    writer.transport.pause_reading()
    return writer


async def test_a_reader_that_stops_reading_is_cut_off_though_its_socket_is_full(served):
    url, _, gateway = served
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        token, _ = await session(http)
    slot, creator = uuid.uuid4(), uuid.uuid4()
    writer = await stalled_stream(url, token, slot)
    try:
        async def cut_off() -> bool:
            # fewer than the queue holds at a time, so only a full socket makes the stream fall behind
            for n in range(QUEUE_SIZE // 2):
                gateway.hub.publish(slot_updated(slot, creator, n))
            return gateway.hub.connections == 0

        await eventually(cut_off, within=30, every=0.002)
    finally:
        writer.close()


async def test_a_stalled_reader_is_cut_loose_alone_while_a_reader_beside_it_gets_every_update(served):
    url, _, gateway = served
    slot, creator = uuid.uuid4(), uuid.uuid4()
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        token, _ = await session(http, "BUYER")
        reading = await open_stream(http, token, str(slot))
        writer = await stalled_stream(url, token, slot)
        sent = 0
        try:
            async def stalled_one_cut() -> bool:
                nonlocal sent
                if len(reading.events("slot")) == sent:  # a round only once the reader has the last one
                    for _ in range(16):
                        sent += 1
                        gateway.hub.publish(slot_updated(slot, creator, sent))
                return gateway.hub.connections == 1

            await eventually(stalled_one_cut, within=60, every=0.005)
            sent += 1
            gateway.hub.publish(slot_updated(slot, creator, sent))
            updates = await reading.wait_for("slot", sent)
            assert [round(u["currentBid"] * 100) for u in updates] == list(range(1, sent + 1))
            assert reading.events("end") == []  # still open: the last update came after the cut
        finally:
            writer.close()


async def test_many_streams_opened_and_dropped_at_once_leave_the_hub_empty_and_no_task_behind(served):
    url, _, gateway = served
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        token, _ = await session(http, "BUYER")
    host, port = url.removeprefix("http://").split(":")
    request = (f"GET /api/events/stream?slots={uuid.uuid4()} HTTP/1.1\r\nHost: {host}\r\n"
               f"Authorization: Bearer {token}\r\n\r\n").encode()
    tasks_before = len(asyncio.all_tasks())

    async def one() -> asyncio.StreamWriter:
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(request)
        await asyncio.wait_for(reader.readuntil(b"event: ready"), timeout=30)
        return writer

    crowd = await asyncio.gather(*(one() for _ in range(200)))
    assert gateway.hub.connections == 200
    for writer in crowd:
        writer.transport.abort()

    async def all_gone() -> bool:
        return gateway.hub.connections == 0 and len(asyncio.all_tasks()) <= tasks_before

    await eventually(all_gone, within=30)


async def test_a_revocation_the_hub_hears_first_refuses_streams_opened_after_it():
    revocations = Revocations()
    hub, user = Hub(revocations), uuid.uuid4()
    streaming = hub.open(user, "BUYER", 1, frozenset())
    hub.publish(envelope(i.SessionsRevoked(user_id=user, token_version=2)))
    assert streaming.ended == "revoked"
    assert revocations.is_revoked(user, 1)  # so the token check refuses the next stream before it starts


async def test_an_update_is_encoded_once_and_its_bytes_shared_by_every_stream():
    hub = Hub()
    slot, creator = uuid.uuid4(), uuid.uuid4()
    watchers = [hub.open(uuid.uuid4(), "BUYER", 1, frozenset({slot})) for _ in range(100)]
    hub.publish(slot_updated(slot, creator, 4200))
    [frame] = watchers[0].frames
    assert frame.startswith(b"event: slot\ndata: {") and b'"currentBid":42.0' in frame
    assert all(len(w.frames) == 1 and w.frames[0] is frame for w in watchers)


async def test_a_reader_that_falls_behind_is_ended_with_bounded_memory():
    hub = Hub()
    slot, creator = uuid.uuid4(), uuid.uuid4()
    connection = hub.open(uuid.uuid4(), "BUYER", 1, frozenset({slot}))
    for n in range(QUEUE_SIZE + 50):  # nobody reads
        hub.publish(slot_updated(slot, creator, 100 + n))
    assert connection.ended == "too_slow"
    assert connection.frames == []  # what waited is let go at once
    assert await connection.next() is None  # the stream sends `end` and closes; the browser reconnects
    hub.close(connection)
    assert hub.connections == 0
