"""Browser hardening headers on every answer (the web app, the API and the sandbox pages).

HTML gets a Content-Security-Policy that allows scripts only from our own origin (no inline script: the
built web app needs none); every other answer gets the policy recommended for APIs, which allows nothing.
An answer to a request that carried a token is never stored by a browser or a shared cache."""

from starlette.types import Message, Receive, Scope, Send

from .asgi import HttpMiddleware

PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; "
    "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)
API_POLICY = "default-src 'none'; frame-ancestors 'none'"
COMMON = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeaders(HttpMiddleware):
    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        authorized = any(name == b"authorization" for name, _ in scope["headers"])

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = secured(list(message.get("headers", [])), authorized=authorized)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def secured(headers: list[tuple[bytes, bytes]], *, authorized: bool) -> list[tuple[bytes, bytes]]:
    present = {name.lower() for name, _ in headers}
    content_type = next((value for name, value in headers if name.lower() == b"content-type"), b"")
    policy = PAGE_POLICY if content_type.startswith(b"text/html") else API_POLICY
    extra = [(name, value) for name, value in [*COMMON, (b"content-security-policy", policy.encode())]
             if name not in present]
    if authorized:  # an answer's own "private, no-store" (evidence images) is kept: it is as strict
        kept = [(n, v) for n, v in headers if n.lower() != b"cache-control" or b"no-store" in v.lower()]
        if len(kept) == len(headers) and b"cache-control" in present:
            return kept + extra
        headers = kept
        extra.append((b"cache-control", b"no-store"))
    return headers + extra
