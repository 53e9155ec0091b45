import io
import json
import logging

import pytest
from pinbid_kit.logs import configure_logging, email_digest
from pinbid_kit.mail import mask_address


@pytest.fixture
def log_lines():
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    buffer = io.StringIO()
    configure_logging(level="INFO", json_format=True, stream=buffer)
    yield lambda: [json.loads(line) for line in buffer.getvalue().splitlines()]
    root.handlers[:], root.level = saved


def test_an_address_quoted_by_someone_elses_error_is_logged_as_its_digest(log_lines):
    log = logging.getLogger("pinbid.test")
    try:
        raise ValueError('duplicate key: Key (email)=(Maya.R+ads@Example.co.uk) already exists.')
    except ValueError:
        log.exception("saving failed for %s", "leo@example.com")
    [line] = log_lines()
    text = json.dumps(line)
    assert "example" not in text.lower() and "maya" not in text.lower() and "leo" not in text
    assert line["message"] == f"saving failed for <email {email_digest('leo@example.com')}>"
    assert f"<email {email_digest('maya.r+ads@example.co.uk')}>" in line["exc_info"]


def test_digests_ignore_case_and_spaces_and_masks_keep_only_a_hint():
    assert email_digest(" Leo@Example.com ") == email_digest("leo@example.com") != email_digest("lea@example.com")
    assert len(email_digest("leo@example.com")) == 12
    assert mask_address("maya@example.com") == "m•••@example.com"


def test_every_line_carries_the_trace_and_span_of_its_work(log_lines):
    from opentelemetry.sdk.trace import TracerProvider

    tracer = TracerProvider().get_tracer("test")  # a provider of its own: the process-wide one may sample nothing
    log = logging.getLogger("pinbid.test")
    with tracer.start_as_current_span("work") as span:
        log.info("inside")
    log.info("outside")
    inside, outside = log_lines()
    context = span.get_span_context()
    assert inside["trace_id"] == format(context.trace_id, "032x")
    assert inside["span_id"] == format(context.span_id, "016x")
    assert outside["trace_id"] is None and outside["span_id"] is None
