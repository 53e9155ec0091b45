"""One request is one trace: gateway span, identity span, and the span of the event's consumer."""

from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from pinbid_kit.events.identity import UserRegistered
from pinbid_kit.inbox import Consumers
from pinbid_kit.telemetry import configure_tracing
from pinbid_kit.testing import eventually

from .conftest import session


def capture() -> InMemorySpanExporter:
    exporter = InMemorySpanExporter()
    provider = trace.get_tracer_provider()
    if isinstance(provider, TracerProvider):
        provider.add_span_processor(SimpleSpanProcessor(exporter))
    else:
        configure_tracing("pinbid-tests", exporter=exporter)
    return exporter


async def test_a_signup_is_one_trace_from_gateway_to_event_consumer(stack):
    exporter = capture()
    http, gateway, identity = stack
    seen: list[int] = []
    consumers = Consumers("trace-test", identity.db)

    @consumers.on(UserRegistered.event_type)
    async def record(session_, data, envelope):
        seen.append(trace.get_current_span().get_span_context().trace_id)

    consumers.attach(identity.bus)  # a second consuming service on the same in-process bus
    await session(http)

    async def consumed() -> bool:
        return bool(seen)

    await eventually(consumed)
    spans = exporter.get_finished_spans()
    by_trace = {}
    for span in spans:
        by_trace.setdefault(span.context.trace_id, []).append(span)
    names = {span.name for span in by_trace[seen[0]]}
    assert "POST /api/{path:path}" in names, names  # the gateway's server span
    assert "POST /auth/register" in names, names  # identity's server span, reached over HTTP (ASGI)
    assert "consume identity.user.registered.v1" in names, names  # the consumer, after outbox and bus
