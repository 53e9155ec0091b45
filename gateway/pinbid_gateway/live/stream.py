"""GET /api/events/stream: Server-Sent Events for the signed-in user (see docs/decisions/live-updates.md, "Ending
a stream" and "Ten thousand streams a process"). The token is checked before the stream starts (403, as any call);
the stream ends with an `end` event when the token expires or its sessions are revoked, and is cut loose when the
reader falls too far behind.

Served as plain ASGI below the kit's middleware (security headers, request id, metrics apply) and above FastAPI's
routing, as the proxy is: one small task per stream writes, one waits for the reader to leave, and the server's
own task for the request waits for both; the heartbeat and the token's expiry are timers, not tasks."""

import asyncio
import json
import logging
import time
import uuid
from types import SimpleNamespace

from pinbid_kit.auth import bearer_token, principal_from
from pinbid_kit.errors import ApiError, Invalid, api_error_response
from pinbid_kit.tokens import TokenVerifier
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from .hub import Connection, Hub

log = logging.getLogger("pinbid.gateway.live")
MAX_SLOTS = 100
MAX_SLOTS_PARAMETER = 4000  # characters: 100 ids and their commas fit
HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store"),
           (b"x-accel-buffering", b"no"), (b"connection", b"keep-alive")]
READY = b"event: ready\ndata: {}\n\n"
PING = b": ping\n\n"


def watched_slots(slots: str | None) -> frozenset[uuid.UUID]:
    if slots is not None and len(slots) > MAX_SLOTS_PARAMETER:
        raise Invalid(f"Watch at most {MAX_SLOTS} slots at once.", field="slots", code="too_many_slots")
    ids = [part.strip() for part in (slots or "").split(",") if part.strip()]
    if len(ids) > MAX_SLOTS:
        raise Invalid(f"Watch at most {MAX_SLOTS} slots at once.", field="slots", code="too_many_slots")
    try:
        return frozenset(uuid.UUID(i) for i in ids)
    except ValueError:
        raise Invalid("Slots must be slot ids (UUIDs), separated by commas.", field="slots") from None


class LiveStreams:
    """Takes `GET <path>`; every other request goes on to `app` (FastAPI, where the route is documented)."""

    def __init__(self, app: ASGIApp, *, path: str, hub: Hub, verifier: TokenVerifier,
                 heartbeat_seconds: float) -> None:
        self.app, self.path, self.hub, self.verifier = app, path, hub, verifier
        self.heartbeat_seconds = heartbeat_seconds
        self.route = SimpleNamespace(path=path)  # what the request metrics are labelled with

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != self.path or scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        scope["route"] = self.route
        request = Request(scope)
        try:
            principal = principal_from(request, self.verifier)  # 403 before anything is streamed
            watched = watched_slots(request.query_params.get("slots"))
        except ApiError as refused:
            await api_error_response(refused)(scope, receive, send)
            return
        expires_at = self.verifier.expiry(bearer_token(request) or "")
        connection = self.hub.open(principal.user_id, principal.role, principal.token_version, watched)
        try:
            await Stream(connection, send, expires_at, self.heartbeat_seconds).run(receive)
        finally:
            self.hub.close(connection)


class Stream:
    """One open stream's writing. A reader that stopped reading fills its socket, and the server's `send` then
    waits for it for ever: so once the stream has ended, it has a deadline (at once when it was too slow, else one
    heartbeat interval, time to send `end`); past it, whatever it waits for is cancelled and the response left
    unfinished, so the server closes the connection (logging "ASGI callable returned without completing
    response")."""

    def __init__(self, connection: Connection, send: Send, expires_at: float, heartbeat_seconds: float) -> None:
        self.connection, self.send, self.heartbeat_seconds = connection, send, heartbeat_seconds
        self.expires_at = expires_at
        self.loop = asyncio.get_running_loop()
        self.deadline: asyncio.Timeout | None = None
        self.timers: list[asyncio.TimerHandle] = []

    async def run(self, receive: Receive) -> None:
        leaving = self.loop.create_task(self._until_gone(receive))
        try:
            async with asyncio.timeout(None) as self.deadline:
                self.timers = [self.loop.call_later(max(0.0, self.expires_at - time.time()), self.connection.end,
                                                    "expired"),
                               self.loop.call_later(self.heartbeat_seconds, self._ping)]
                self.connection.on_end = self._ended
                # its own task: each frame resumes this short chain of awaits, not the request's (the server's,
                # through every middleware's frame); cancelled with this one when the deadline passes
                await self.loop.create_task(self._stream())
        except TimeoutError:
            log.info("live: cut loose a stream that ended (%s) while its reader was not reading", self.connection.ended)
        finally:
            self.connection.on_end = None
            leaving.cancel()
            for timer in self.timers:
                timer.cancel()

    async def _stream(self) -> None:
        await self.send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        await self._write(READY)
        while (frames := await self.connection.next()) is not None:
            await self._write(frames[0] if len(frames) == 1 else b"".join(frames))
        if self.connection.ended == "too_slow":
            return  # cut loose: left unfinished, so the server closes the connection
        if self.connection.ended != "gone":
            await self._write(f"event: end\ndata: {json.dumps({'reason': self.connection.ended})}\n\n".encode())
        await self.send({"type": "http.response.body", "body": b"", "more_body": False})

    async def _write(self, body: bytes) -> None:
        await self.send({"type": "http.response.body", "body": body, "more_body": True})

    async def _until_gone(self, receive: Receive) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        self.connection.end("gone")

    def _ping(self) -> None:
        self.connection.offer(PING)
        self.timers[1] = self.loop.call_later(self.heartbeat_seconds, self._ping)

    def _ended(self, reason: str) -> None:
        assert self.deadline is not None
        self.deadline.reschedule(self.loop.time() + (0.0 if reason == "too_slow" else self.heartbeat_seconds))
