"""Tracing is configured by OpenTelemetry's standard variables (checked in a fresh process: the tracer
provider is process-wide)."""

import json
import os
import subprocess
import sys

PROBE = """
import json
from opentelemetry import trace
from opentelemetry.instrumentation.psycopg import PsycopgInstrumentor
from opentelemetry.sdk.trace import TracerProvider
from pinbid_kit.telemetry import configure_tracing
configure_tracing("pinbid-default-name")
provider = trace.get_tracer_provider()
if not isinstance(provider, TracerProvider):
    print(json.dumps({"provider": None, "sql": PsycopgInstrumentor().is_instrumented_by_opentelemetry}))
    raise SystemExit
processors = provider._active_span_processor._span_processors
print(json.dumps({
    "service": provider.resource.attributes.get("service.name"),
    "sampler": provider.sampler.get_description(),
    "endpoint": processors[0].span_exporter._endpoint if processors else None,
    "sql": PsycopgInstrumentor().is_instrumented_by_opentelemetry,
}))
"""


def probe(**env: str) -> dict:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    done = subprocess.run([sys.executable, "-c", PROBE], env={**clean, **env}, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_without_an_endpoint_no_span_is_made_at_all():
    assert probe() == {"provider": None, "sql": False}  # FastAPI's telemetry and the instrumentations stay off


def test_the_standard_variables_configure_export_name_and_sampling():
    configured = probe(OTEL_EXPORTER_OTLP_ENDPOINT="http://collector.test:4318", OTEL_SERVICE_NAME="pinbid-payments",
                       OTEL_TRACES_SAMPLER="parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG="0.25")
    assert configured["service"] == "pinbid-payments"
    assert configured["endpoint"] == "http://collector.test:4318/v1/traces"
    assert "TraceIdRatioBased{0.25}" in configured["sampler"]
    assert configured["sql"] is True
