"""OpenTelemetry: one tracer provider per process; W3C traceparent across HTTP and the bus.

Spans come from the maintained instrumentations: FastAPI's own (server), httpx and aiohttp (the gateway's calls),
SQLAlchemy (every statement), FastStream's RabbitMQ middleware (publish and consume). Pinbid's own code
only carries the context where no instrumentation can: through the outbox table, whose rows keep the
context of the transaction that wrote them."""

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from opentelemetry import context as otel_context
from opentelemetry import propagate, trace

if TYPE_CHECKING:
    from opentelemetry.sdk.trace.export import SpanExporter

log = logging.getLogger("pinbid.telemetry")
_configured = False
_exporting = False


ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")


def configure_tracing(service_name: str, *, exporter: "SpanExporter | None" = None) -> None:
    """Install the process's tracer provider once, configured by the standard variables as the OpenTelemetry
    SDK reads them: spans go over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `..._TRACES_ENDPOINT`) is
    set, sampled by `OTEL_TRACES_SAMPLER`/`OTEL_TRACES_SAMPLER_ARG` (default: parent-based, always on), named
    by `OTEL_SERVICE_NAME` when set (else `service_name`), plus `OTEL_RESOURCE_ATTRIBUTES`. `exporter` is for
    tests.

    Without an exporter nobody would read a span, so none is made: no provider is installed, FastAPI's own
    telemetry stays off (it turns on with a configured provider), and the instrumentations are no-ops.
    Requests are then followed across services by their request id alone."""
    global _configured, _exporting
    if _configured:
        return
    _configured = True
    if exporter is None and not any(os.environ.get(name) for name in ENDPOINT_VARIABLES):
        return
    _exporting = True
    # the SDK and the instrumentations are imported only here: a process that exports nothing never needs them
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

    resource = Resource.create({} if os.environ.get("OTEL_SERVICE_NAME") else {"service.name": service_name})
    provider = TracerProvider(resource=resource)
    if exporter is not None:
        provider.add_span_processor(SimpleSpanProcessor(exporter))
    else:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        # endpoint, headers, timeout: from OTEL_EXPORTER_OTLP_*
        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    instrument_clients()


def exporting() -> bool:
    """Whether spans are made at all (configure_tracing found an exporter): code that would add its own
    instrumentation hooks skips them otherwise, as they would cost every call for nothing."""
    return _exporting


def inject_headers() -> dict[str, str]:
    """The current trace context as W3C headers (traceparent, tracestate)."""
    carrier: dict[str, str] = {}
    propagate.inject(carrier)
    return carrier


def extract_context(headers: dict[str, str]) -> otel_context.Context:
    return propagate.extract(headers)


@contextmanager
def context_of(headers: dict[str, str]) -> Iterator[None]:
    """Run the block in the trace context carried by `headers` (an outbox row's, an in-process delivery's),
    so the spans it starts (publish, SQL) join the trace that produced the event."""
    token = otel_context.attach(extract_context(headers))
    try:
        yield
    finally:
        otel_context.detach(token)


def instrument_clients() -> None:
    """Client spans for every SQL statement (on connections opened after this call; parameters are never
    recorded) and every outgoing httpx call over the network (Stripe, Instagram), with the trace context
    sent along. The gateway instruments its own upstream clients (pinbid_gateway.upstreams)."""
    from opentelemetry.instrumentation.httpx import HTTPXClientInstrumentor
    from opentelemetry.instrumentation.psycopg import PsycopgInstrumentor

    if not PsycopgInstrumentor().is_instrumented_by_opentelemetry:
        PsycopgInstrumentor().instrument(enable_commenter=False, capture_parameters=False)
    if not HTTPXClientInstrumentor().is_instrumented_by_opentelemetry:
        HTTPXClientInstrumentor().instrument()
