"""uvicorn with `pinbid_kit.serving.HttpProtocol`: an answer's status line, headers and body leave in one send; a
stream's headers and events still leave as they are written."""

import asyncio
import contextlib

import uvicorn
from pinbid_kit.serving import HttpProtocol
from pinbid_testing import eventually, free_port
from starlette.responses import PlainTextResponse, StreamingResponse
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

sends: list[bytes] = []
next_event = asyncio.Event()


class _Counted:
    def __init__(self, transport):
        self.transport = transport

    def write(self, data: bytes) -> None:
        sends.append(data)
        self.transport.write(data)

    def __getattr__(self, name):
        return getattr(self.transport, name)


class CountedKit(HttpProtocol):
    def connection_made(self, transport):
        super().connection_made(_Counted(transport))


class CountedUvicorn(HttpToolsProtocol):
    def connection_made(self, transport):
        super().connection_made(_Counted(transport))


async def app(scope, receive, send):
    if scope["path"] == "/stream":
        async def events():
            yield b"event: ready\n\n"
            await next_event.wait()
            yield b"event: slot\n\n"

        response = StreamingResponse(events(), media_type="text/event-stream")
    else:
        response = PlainTextResponse("a small answer")
    await response(scope, receive, send)


@contextlib.asynccontextmanager
async def served(protocol):
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, lifespan="off",
                                           http=protocol))
    task = asyncio.create_task(server.serve())
    await eventually(lambda: server.started, within=10, every=0.01)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        yield reader, writer
        writer.close()
    finally:
        server.should_exit = True
        await task


async def answer(reader, writer, path: str, until: bytes) -> bytes:
    writer.write(f"GET {path} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
    return await asyncio.wait_for(reader.readuntil(until), timeout=10)


async def test_a_small_answer_leaves_in_one_send_where_uvicorn_alone_makes_two():
    for protocol, expected in ((CountedUvicorn, 2), (CountedKit, 1)):
        sends.clear()
        async with served(protocol) as (reader, writer):
            got = await answer(reader, writer, "/", b"a small answer")
            assert got.startswith(b"HTTP/1.1 200 OK")
            assert len(sends) == expected
            sends.clear()  # the connection kept alive: the next answer too
            assert (await answer(reader, writer, "/", b"a small answer")).startswith(b"HTTP/1.1 200 OK")
            assert len(sends) == expected


async def test_a_streams_headers_and_first_event_come_before_its_next_event_is_written():
    next_event.clear()
    async with served(CountedKit) as (reader, writer):
        first = await answer(reader, writer, "/stream", b"event: ready\n\n")
        assert first.startswith(b"HTTP/1.1 200 OK") and b"text/event-stream" in first
        next_event.set()
        assert (await asyncio.wait_for(reader.readuntil(b"event: slot\n\n"), timeout=10)).endswith(b"event: slot\n\n")
