"""uvicorn's HTTP protocol with an answer's writes sent together (`uvicorn.run(..., http=HttpProtocol)`).

uvicorn writes an answer's status line and headers to the socket as the app starts its response, then its body as
it comes: two sends for a small answer, and often two wake-ups and reads for the one reading it (the gateway's
client, the browser). Here the writes made in one turn of the event loop go out together at its end: an answer
started and finished in one turn (every answer but a stream) is one send. A stream's headers and each of its
events still go out in the turn that wrote them."""

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class _WritesPerTurn:
    """The connection's transport, its writes held until the end of the loop's turn (closing sends them first)."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop):
        self._transport = transport
        self._loop = loop
        self._held: list[bytes] = []

    def write(self, data: bytes) -> None:
        if not self._held:
            self._loop.call_soon(self._send)
        self._held.append(data)

    def _send(self) -> None:
        if self._held:
            data, self._held = b"".join(self._held), []
            if not self._transport.is_closing():
                self._transport.write(data)

    def close(self) -> None:
        self._send()
        self._transport.close()

    def __getattr__(self, name: str) -> Any:  # everything else is the transport's own
        return getattr(self._transport, name)


class HttpProtocol(HttpToolsProtocol):
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(_WritesPerTurn(transport, self.loop))  # type: ignore[arg-type]
