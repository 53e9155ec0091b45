"""The client's real address behind the proxies we trust.

Behind a load balancer or an ingress, every connection comes from the proxy; the client's address is in
X-Forwarded-For. A header anyone can send is believed only when the connection comes from an address in
GATEWAY_TRUSTED_PROXIES, and then the client is the right-most entry that is not itself a trusted proxy
(entries to its left were written by the sender and may be forged). uvicorn's middleware does exactly
this, networks included; it also takes X-Forwarded-Proto from the same proxies."""

from collections.abc import Sequence
from ipaddress import IPv4Network, IPv6Network

from fastapi import FastAPI
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware


def trust_proxies(app: FastAPI, proxies: Sequence[IPv4Network | IPv6Network]) -> None:
    """Install last, so that it runs first: everything after it sees the real client in request.client.
    With no trusted proxy there is nothing to read: no middleware (it would cost every request)."""
    if not proxies:
        return
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=[str(network) for network in proxies])
