"""JSON logs with the service name, the request id and trace ids of the work in progress, and no email
addresses."""

import hashlib
import logging
import re
import sys
from typing import TextIO

from opentelemetry import trace
from pythonjsonlogger.json import JsonFormatter

from . import context

_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")


def email_digest(address: str) -> str:
    """How logs name a person's address: a short digest. An operator can compute it for an address they
    already know and search for it; a log line alone does not reveal one."""
    return hashlib.sha256(address.strip().lower().encode()).hexdigest()[:12]


class _ContextFilter(logging.Filter):
    """The request id, and the trace and span ids of the work in progress (so a log line leads to its trace)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = context.request_id.get()
        span = trace.get_current_span().get_span_context()
        record.trace_id = format(span.trace_id, "032x") if span.is_valid else None
        record.span_id = format(span.span_id, "016x") if span.is_valid else None
        return True


class _WithoutEmails(logging.Formatter):
    """Our own lines never name an address, but text from elsewhere may (a database error quoting a
    duplicate key, an SMTP refusal): every address-shaped string becomes its digest."""

    def __init__(self, inner: logging.Formatter):
        super().__init__()
        self.inner = inner

    def format(self, record: logging.LogRecord) -> str:
        return _EMAIL.sub(lambda found: f"<email {email_digest(found.group())}>", self.inner.format(record))


def configure_logging(*, level: str = "INFO", json_format: bool = True, stream: TextIO | None = None) -> None:
    handler = logging.StreamHandler(stream or sys.stdout)
    handler.addFilter(_ContextFilter())
    if json_format:
        formatter: logging.Formatter = JsonFormatter(
            "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s %(trace_id)s %(span_id)s",
            rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
        )
    else:
        formatter = logging.Formatter("%(asctime)s %(levelname)-7s %(name)s [%(request_id)s] %(message)s")
    handler.setFormatter(_WithoutEmails(formatter))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for noisy in ("uvicorn.access", "aiormq", "aio_pika", "faststream"):
        logging.getLogger(noisy).setLevel(max(logging.WARNING, root.level))
