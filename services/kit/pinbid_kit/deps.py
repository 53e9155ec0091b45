"""How a service's module-level routes reach the objects its `build()` made: each is kept in the app's
state (`create_app(state=...)`) and read by `from_state(name)`, one dependency per name, so a test can
replace it with `app.dependency_overrides[from_state(name)]`. The signed-in principal is in `auth`."""

from collections.abc import Awaitable, Callable
from functools import cache
from typing import Any

from fastapi import Request


@cache
def from_state(name: str) -> Callable[[Request], Awaitable[Any]]:
    """The dependency answering `request.app.state.<name>`: the same function each time for the same name."""

    async def dependency(request: Request) -> Any:  # async: no thread hop per request
        return getattr(request.app.state, name)

    dependency.__name__ = dependency.__qualname__ = f"state_{name}"
    return dependency
