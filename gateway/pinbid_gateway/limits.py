"""Refuses request bodies over the size limit, whether announced by Content-Length or streamed. Screenshot uploads
(paths under `upload_prefixes`) have a larger limit of their own; the service checks the file's exact size."""

import json

from pinbid_kit.asgi import HttpMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyTooLarge(Exception):
    pass


class BodySizeLimit(HttpMiddleware):
    def __init__(self, app: ASGIApp, max_bytes: int, *, upload_max_bytes: int | None = None,
                 upload_prefixes: tuple[str, ...] = ()):
        super().__init__(app)
        self.max_bytes = max_bytes
        self.upload_max_bytes = upload_max_bytes or max_bytes
        self.upload_prefixes = upload_prefixes

    def limit_for(self, path: str) -> int:
        return self.upload_max_bytes if path.startswith(self.upload_prefixes) else self.max_bytes

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = self.limit_for(scope.get("path", ""))
        headers = dict(scope["headers"])
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await self._refuse(send, limit)
            return
        if b"transfer-encoding" not in headers:
            await self.app(scope, receive, send)  # no body, or one of an allowed declared length: nothing to count
            return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await self._refuse(send, limit)

    async def _refuse(self, send: Send, limit: int) -> None:
        body = json.dumps({"detail": f"The request body is larger than {limit // 1024} KB.",
                           "code": "payload_too_large"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
