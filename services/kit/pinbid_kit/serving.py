"""uvicorn's HTTP protocol with an answer's writes sent together (`uvicorn.run(..., http=HttpProtocol)`).

uvicorn writes an answer's status line and headers to the socket as the app starts its response, then its body as
it comes: two sends for a small answer, and often two wake-ups and reads for the one reading it (the gateway's
client, the browser). Here a write is held until the next one, which goes out with it at once: an answer's headers
wait for its body, and an answer started and finished in one turn of the event loop (every answer but a stream) is
one send, sent as its body is written. What is still held at the end of the turn (a stream's headers or last event)
goes out then."""

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class _WritesInPairs:
    """The connection's transport, a write held until the next one or the end of the loop's turn (closing sends it
    first)."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop):
        self._transport = transport
        self._loop = loop
        self._held = b""

    def write(self, data: bytes) -> None:
        if self._held:
            held, self._held = self._held, b""
            self._transport.write(held + data)
        elif data:
            self._held = data
            self._loop.call_soon(self._send)

    def _send(self) -> None:
        if self._held:
            held, self._held = self._held, b""
            if not self._transport.is_closing():
                self._transport.write(held)

    def close(self) -> None:
        self._send()
        self._transport.close()

    def __getattr__(self, name: str) -> Any:  # everything else is the transport's own
        return getattr(self._transport, name)


class HttpProtocol(HttpToolsProtocol):
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(_WritesInPairs(transport, self.loop))  # type: ignore[arg-type]
