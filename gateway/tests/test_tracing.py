"""One request is one trace (embedded run): the gateway's server span, its in-process call to identity,
identity's SQL, and the event's consumer with its own SQL, all in the request's trace."""

from opentelemetry import trace
from opentelemetry.trace import SpanKind
from pinbid_kit.events.identity import UserRegistered
from pinbid_kit.inbox import Consumers
from pinbid_testing import eventually

from .conftest import session


async def test_a_signup_is_one_trace_from_gateway_to_event_consumer(captured_spans, stack):
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
    spans = [s for s in captured_spans.get_finished_spans() if s.context.trace_id == seen[0]]
    names = {span.name for span in spans}
    assert "POST /api/auth/register/…" in names, names  # the gateway's server span, named by its route's prefix
    assert "POST /auth/register" in names, names  # identity's server span, reached through the httpx client
    assert any(s.kind is SpanKind.CLIENT and s.name == "POST" for s in spans), names  # the gateway's call
    sql = [s for s in spans if s.attributes.get("db.system") == "postgresql"]
    # identity's writes, and the outbox's rows with the relay's wake-up (one WITH … pg_notify statement)
    assert {"INSERT", "WITH"} <= {s.name for s in sql}, names
    assert any("pg_notify" in (s.attributes.get("db.statement") or "") for s in sql), names
