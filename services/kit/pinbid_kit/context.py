"""Per-request context: the request id (also the correlation id of the events it causes)."""

from contextvars import ContextVar

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
