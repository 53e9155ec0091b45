"""One request is one trace in the distributed run: gateway → (aiohttp, real HTTP) → identity → SQL →
outbox → RabbitMQ → consumer → SQL. Everything runs in this process (so one exporter sees every span), but
each hop is the real one: a uvicorn server, the aiohttp client, a real broker."""

import asyncio
import uuid

import uvicorn
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.trace import SpanKind
from pinbid_gateway.app import Gateway
from pinbid_gateway.settings import GatewaySettings
from pinbid_gateway.upstreams import Upstreams
from pinbid_identity.app import build
from pinbid_kit.bus import RabbitBus
from pinbid_kit.bus.rabbit import delete_queues, prefixed
from pinbid_kit.events.identity import UserRegistered
from pinbid_kit.inbox import Consumers
from pinbid_kit.tokens import TokenVerifier
from pinbid_testing import client, eventually, free_port, running


def ancestors(span: ReadableSpan, by_id: dict[int, ReadableSpan]) -> list[ReadableSpan]:
    chain = []
    while span.parent is not None and span.parent.span_id in by_id:
        span = by_id[span.parent.span_id]
        chain.append(span)
    return chain


async def test_a_signup_is_one_trace_across_http_sql_outbox_rabbitmq_and_the_consumer(
        captured_spans, identity_settings, amqp_url, tmp_path):
    identity = build(identity_settings())
    prefix = f"trace-{uuid.uuid4().hex[:8]}"
    bus = RabbitBus(amqp_url, prefix=prefix)
    consumed: list[str] = []
    consumers = Consumers("trace-consumer", identity.db)

    @consumers.on(UserRegistered.event_type)
    async def record(session_, data, envelope):
        consumed.append(str(envelope.id))

    consumers.attach(bus)
    email = f"t-{uuid.uuid4().hex[:8]}@example.com"
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(identity.app, host="127.0.0.1", port=port, log_level="warning"))
    served = asyncio.create_task(server.serve())

    async def started() -> bool:
        return server.started

    gateway = Gateway(GatewaySettings(web_dist=tmp_path, jwt_public_key_file=tmp_path / "k.pub"),
                      Upstreams.over_http({"identity": f"http://127.0.0.1:{port}"}, timeout=10),
                      TokenVerifier.from_file(tmp_path / "k.pub"))
    try:
        async with running(identity, bus=bus):
            await eventually(started)
            async with client(gateway.app) as http:
                response = await http.post("/api/auth/register", json={
                    "name": "Trace Test", "email": email,
                    "password": "long enough", "role": "BUYER"})
                assert response.status_code == 201, response.text

            async def handled() -> bool:
                return bool(consumed)

            async def consumer_span_ended() -> bool:  # it ends just after the handler returns
                return any(s.kind is SpanKind.CONSUMER and s.attributes.get("messaging.operation") == "process"
                           for s in captured_spans.get_finished_spans())

            await eventually(handled)
            await eventually(consumer_span_ended, within=10)
    finally:
        server.should_exit = True
        await served
        await gateway.upstreams.close()
        await delete_queues(amqp_url, prefixed(prefix, "trace-consumer"))
        await delete_queues(amqp_url, prefixed(prefix, "identity"))

    spans = captured_spans.get_finished_spans()
    gateway_span = next(s for s in spans if s.name == "POST /api/auth/register/…" and s.kind is SpanKind.SERVER)
    trace = [s for s in spans if s.context.trace_id == gateway_span.context.trace_id]
    by_id = {s.context.span_id: s for s in trace}

    def one(predicate) -> ReadableSpan:
        found = [s for s in trace if predicate(s)]
        assert found, sorted((s.name, s.kind.name) for s in trace)
        return found[0]

    call = one(lambda s: s.kind is SpanKind.CLIENT and s.attributes.get("http.request.method", s.attributes.get(
        "http.method")) == "POST" and "db.system" not in s.attributes)
    served_span = one(lambda s: s.name == "POST /auth/register" and s.kind is SpanKind.SERVER)
    assert call in ancestors(served_span, by_id)  # identity's server span is a child of the aiohttp call
    one(lambda s: s.attributes.get("db.system") == "postgresql" and s.name == "INSERT"
                 and served_span in ancestors(s, by_id))
    assert email not in str([dict(s.attributes) for s in spans])  # statements are recorded, parameters never
    publish = one(lambda s: s.kind is SpanKind.PRODUCER and s.attributes.get("messaging.system") == "rabbitmq"
                  and s.attributes.get("messaging.operation") == "publish")
    process = one(lambda s: s.kind is SpanKind.CONSUMER and s.attributes.get("messaging.system") == "rabbitmq"
                  and s.attributes.get("messaging.operation") == "process")
    assert publish.context.trace_id == process.context.trace_id == gateway_span.context.trace_id
    inbox_claim = one(lambda s: s.attributes.get("db.system") == "postgresql" and s.name == "INSERT"
                      and process in ancestors(s, by_id))  # the inbox's claim, in the consumer's transaction
    assert "inbox" in inbox_claim.attributes.get("db.statement", inbox_claim.attributes.get("db.query.text", ""))
