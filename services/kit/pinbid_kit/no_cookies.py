"""A cookie jar that keeps nothing, for the HTTP clients the product keeps open and shares between people.

A long-lived client's jar stores every `Set-Cookie` it is answered with and sends it back with later requests to the
same host: in a client that calls on behalf of many people (the gateway's upstreams, a provider's API), one
person's cookie would go out with the next person's request. Such a client is built with `cookies=cookieless_jar()`
(httpx): the policy refuses every cookie, so nothing is stored and nothing is added to a request; a request still
carries the `Cookie` header it was given. aiohttp's equivalent is `aiohttp.DummyCookieJar()`."""

from http.cookiejar import Cookie, CookieJar, CookiePolicy
from urllib.request import Request


class RefuseEveryCookie(CookiePolicy):
    """Accepts no cookie from a response and returns none with a request."""

    netscape = True
    rfc2965 = False
    hide_cookie2 = True

    def set_ok(self, cookie: Cookie, request: Request) -> bool:
        return False

    def return_ok(self, cookie: Cookie, request: Request) -> bool:
        return False

    def domain_return_ok(self, domain: str, request: Request) -> bool:
        return False

    def path_return_ok(self, path: str, request: Request) -> bool:
        return False


def cookieless_jar() -> CookieJar:
    return CookieJar(policy=RefuseEveryCookie())
