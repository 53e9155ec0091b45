"""OpenTelemetry: one tracer provider per process; W3C traceparent across HTTP and the bus."""

import logging

from opentelemetry import context as otel_context
from opentelemetry import propagate, trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanProcessor
from opentelemetry.sdk.trace.sampling import ALWAYS_OFF, ALWAYS_ON, ParentBased

log = logging.getLogger("pinbid.telemetry")
_configured = False


def configure_tracing(service_name: str, *, otlp_endpoint: str | None = None,
                      exporter: SpanExporter | None = None) -> None:
    """Install the process's tracer provider once. Spans are exported over OTLP/HTTP when an
    endpoint is configured (or to `exporter`, which tests use); otherwise they are only propagated."""
    global _configured
    if _configured:
        return
    exporting = exporter is not None or bool(otlp_endpoint)
    # Without an exporter nobody reads the spans: sample none (trace context still propagates) and save the CPU.
    provider = TracerProvider(resource=Resource.create({"service.name": service_name}),
                              sampler=ParentBased(ALWAYS_ON) if exporting else ALWAYS_OFF)
    processor: SpanProcessor | None = None
    if exporter is not None:
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor

        processor = SimpleSpanProcessor(exporter)
    elif otlp_endpoint:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        processor = BatchSpanProcessor(OTLPSpanExporter(endpoint=otlp_endpoint.rstrip("/") + "/v1/traces"))
    if processor is not None:
        provider.add_span_processor(processor)
    trace.set_tracer_provider(provider)
    _configured = True


def tracer(name: str = "pinbid") -> trace.Tracer:
    return trace.get_tracer(name)


def inject_headers() -> dict[str, str]:
    """The current trace context as W3C headers (traceparent, tracestate)."""
    carrier: dict[str, str] = {}
    propagate.inject(carrier)
    return carrier


def extract_context(headers: dict[str, str]) -> otel_context.Context:
    return propagate.extract(headers)
