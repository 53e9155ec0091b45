"""GET /api/events/stream: Server-Sent Events for the signed-in user (see docs/decisions/live-updates.md, "Ending
a stream"). The token is checked before the stream starts (403, as any call); the stream ends with an `end`
event when the token expires or its sessions are revoked, and when the reader falls too far behind."""

import asyncio
import json
import logging
import time
import uuid
from collections.abc import AsyncIterator

from fastapi import Request
from fastapi.responses import StreamingResponse
from pinbid_kit.auth import bearer_token, principal_from
from pinbid_kit.errors import Invalid
from pinbid_kit.tokens import TokenVerifier
from starlette.types import Receive, Scope, Send

from .hub import Connection, Hub

log = logging.getLogger("pinbid.gateway.live")
MAX_SLOTS = 100
HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no", "Connection": "keep-alive"}


def watched_slots(slots: str | None) -> frozenset[uuid.UUID]:
    ids = [part.strip() for part in (slots or "").split(",") if part.strip()]
    if len(ids) > MAX_SLOTS:
        raise Invalid(f"Watch at most {MAX_SLOTS} slots at once.", field="slots", code="too_many_slots")
    try:
        return frozenset(uuid.UUID(i) for i in ids)
    except ValueError:
        raise Invalid("Slots must be slot ids (UUIDs), separated by commas.", field="slots") from None


def open_stream(request: Request, hub: Hub, verifier: TokenVerifier, slots: str | None,
                heartbeat_seconds: float) -> StreamingResponse:
    principal = principal_from(request, verifier)  # 403 before anything is streamed
    watched = watched_slots(slots)
    expires_at = verifier.expiry(bearer_token(request) or "")
    connection = hub.open(principal.user_id, principal.role, principal.token_version, watched)
    return LiveResponse(connection, heartbeat_seconds, _events(hub, connection, expires_at, heartbeat_seconds),
                        media_type="text/event-stream", headers=HEADERS)


class LiveResponse(StreamingResponse):
    """A stream that is cut off when it has ended but cannot finish: a reader that stopped reading fills its
    socket, and uvicorn's `send` then waits for it for ever. Cancelled, the response leaves uvicorn to close the
    connection (it logs "ASGI callable returned without completing response")."""

    def __init__(self, connection: Connection, grace_seconds: float, content: AsyncIterator[str], **kwargs) -> None:
        super().__init__(content, **kwargs)
        self.connection, self.grace_seconds = connection, grace_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        streaming = asyncio.create_task(super().__call__(scope, receive, send))
        try:
            if await self._stuck_after_end(streaming):
                log.info("live: cut off a stream that ended (%s) and whose reader stopped reading",
                         self.connection.ended)
                streaming.cancel()
                await asyncio.wait({streaming})
            else:
                await streaming
        finally:
            streaming.cancel()  # nothing when done; else this call was cancelled (shutdown)
            await self.body_iterator.aclose()  # its `finally` takes the connection out of the hub

    async def _stuck_after_end(self, streaming: asyncio.Task) -> bool:
        await asyncio.wait({streaming, self.connection.finished}, return_when=asyncio.FIRST_COMPLETED)
        if streaming.done():
            return False
        await asyncio.wait({streaming}, timeout=self.grace_seconds)
        return not streaming.done()


async def _events(hub: Hub, connection: Connection, expires_at: float,
                  heartbeat_seconds: float) -> AsyncIterator[str]:
    try:
        yield "event: ready\ndata: {}\n\n"
        while True:
            left = expires_at - time.time()
            if left <= 0:
                connection.end("expired")
                message = None  # not through wait_for: with no time left it times out before looking
            else:
                try:
                    message = await asyncio.wait_for(connection.next(), timeout=min(heartbeat_seconds, left))
                except TimeoutError:
                    yield ": ping\n\n"
                    continue
            if message is None:
                if connection.ended != "too_slow":
                    yield f"event: end\ndata: {json.dumps({'reason': connection.ended})}\n\n"
                return
            yield f"event: {message.event}\ndata: {message.data}\n\n"
    finally:
        hub.close(connection)
