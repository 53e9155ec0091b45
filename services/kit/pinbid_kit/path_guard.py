"""Refuses request paths that could be read two ways before anything routes them.

A path is routed by its decoded form and forwarded to a service by the gateway. Anything that a client,
a proxy or an HTTP library might normalise differently (dot segments, empty segments, encoded slashes or
backslashes, percent signs left after decoding, control and invisible format characters, `?` or `#`
inside the path) is a 404 in the error format, so the path that is checked is exactly the path that is
served."""

import json
import unicodedata

from starlette.types import ASGIApp, Receive, Scope, Send

_ENCODED_SEPARATORS = (b"%2f", b"%5c")
_AMBIGUOUS = frozenset("\\%?#")
NOT_FOUND = json.dumps({"detail": "Not found.", "code": "not_found"}).encode()


def is_refused(path: str, raw_path: bytes | None = None) -> bool:
    if path == "/":
        return False
    if not path.startswith("/"):
        return True
    raw = raw_path.partition(b"?")[0].lower() if raw_path is not None else b""  # some servers include the query
    if any(separator in raw for separator in _ENCODED_SEPARATORS):
        return True
    if any(ch in _AMBIGUOUS or unicodedata.category(ch) in ("Cc", "Cf") for ch in path):
        return True
    return any(segment in ("", ".", "..") for segment in path[1:].split("/"))


class PathGuard:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and is_refused(scope["path"], scope.get("raw_path")):
            await send({"type": "http.response.start", "status": 404,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(NOT_FOUND)).encode())]})
            await send({"type": "http.response.body", "body": NOT_FOUND})
            return
        await self.app(scope, receive, send)
