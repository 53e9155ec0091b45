"""Request ids: read `X-Request-Id` (or make one), keep it in context for logs and events, echo it back."""

import re
import uuid

from starlette.types import Message, Receive, Scope, Send

from . import context
from .asgi import HttpMiddleware

_VALID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


class RequestIdMiddleware(HttpMiddleware):
    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        incoming = dict(scope["headers"]).get(b"x-request-id", b"").decode("latin-1")
        request_id = incoming if _VALID.match(incoming) else uuid.uuid4().hex
        token = context.request_id.set(request_id)

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", request_id.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            context.request_id.reset(token)
