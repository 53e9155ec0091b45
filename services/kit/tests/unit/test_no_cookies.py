"""A client built with `cookieless_jar()` stores no cookie it is answered with and adds none to a request; a request
keeps the Cookie header it was given (issue 30: long-lived clients shared between people)."""

import httpx
from pinbid_kit.no_cookies import cookieless_jar


def recording(seen: list[str | None]) -> httpx.MockTransport:
    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers.get("cookie"))
        return httpx.Response(200, headers=[("set-cookie", "session=alice; Path=/"),
                                            ("set-cookie", "lb=node-1; Domain=api.example.com; Path=/")])
    return httpx.MockTransport(answer)


async def test_nothing_is_stored_and_nothing_is_added():
    seen: list[str | None] = []
    async with httpx.AsyncClient(transport=recording(seen), cookies=cookieless_jar()) as http:
        first = await http.get("https://api.example.com/me")
        assert first.cookies.get("session") == "alice"  # the answer still carries it, for its own caller
        await http.get("https://api.example.com/me")
        await http.get("https://api.example.com/me", headers={"Cookie": "theme=dark"})
        assert len(http.cookies.jar) == 0
    assert seen == [None, None, "theme=dark"]


async def test_a_default_client_would_have_carried_them():
    """What the jar prevents (so the test above can fail): httpx's default jar sends them back."""
    seen: list[str | None] = []
    async with httpx.AsyncClient(transport=recording(seen)) as http:
        await http.get("https://api.example.com/me")
        await http.get("https://api.example.com/me")
    assert seen[0] is None and "session=alice" in (seen[1] or "")
