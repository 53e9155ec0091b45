"""OpenTelemetry: one tracer provider per process; W3C traceparent across HTTP and the bus."""

import logging
import os

from opentelemetry import context as otel_context
from opentelemetry import propagate, trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanProcessor
from opentelemetry.sdk.trace.sampling import ALWAYS_OFF

log = logging.getLogger("pinbid.telemetry")
_configured = False


ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")


def configure_tracing(service_name: str, *, exporter: SpanExporter | None = None) -> None:
    """Install the process's tracer provider once, configured by the standard variables as the OpenTelemetry
    SDK reads them: spans go over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `..._TRACES_ENDPOINT`) is
    set, sampled by `OTEL_TRACES_SAMPLER`/`OTEL_TRACES_SAMPLER_ARG` (default: parent-based, always on), named
    by `OTEL_SERVICE_NAME` when set (else `service_name`), plus `OTEL_RESOURCE_ATTRIBUTES`. `exporter` is for
    tests. Without an exporter spans are only propagated."""
    global _configured
    if _configured:
        return
    exporting = exporter is not None or any(os.environ.get(name) for name in ENDPOINT_VARIABLES)
    resource = Resource.create({} if os.environ.get("OTEL_SERVICE_NAME") else {"service.name": service_name})
    # Without an exporter nobody reads the spans: sample none (trace context still propagates) and save the CPU.
    provider = TracerProvider(resource=resource, sampler=None if exporting else ALWAYS_OFF)
    processor: SpanProcessor | None = None
    if exporter is not None:
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor

        processor = SimpleSpanProcessor(exporter)
    elif exporting:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        processor = BatchSpanProcessor(OTLPSpanExporter())  # endpoint, headers, timeout: from OTEL_EXPORTER_OTLP_*
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
