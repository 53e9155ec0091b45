"""The shape of the kit's and the gateway's pure ASGI middleware: they act on HTTP requests only and let anything
else (the lifespan, websockets) through untouched."""

from starlette.types import ASGIApp, Receive, Scope, Send


class HttpMiddleware:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.handle(scope, receive, send)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        """What the middleware does with one HTTP request."""
        raise NotImplementedError
