"""Demo data for the embedded default: the demo creator (maya.makes) and the demo brand connect to
the sandbox Instagram through the real OAuth code path, which publishes their accounts and media."""

import asyncio
import logging
import uuid
from urllib.parse import parse_qs, urlsplit

from pinbid_kit.runtime import Service
from sqlalchemy import select

from .connections import Connections
from .models import Connection, User
from .providers import Providers

log = logging.getLogger("pinbid.social.demo")
DEMO_USERS = ("creator@demo.pinbid.app", "brand@demo.pinbid.app")
WAIT_SECONDS = 15.0


async def _user(service: Service, email: str) -> User | None:
    """Identity seeds first, but its events arrive asynchronously: wait for them a little."""
    deadline = asyncio.get_running_loop().time() + WAIT_SECONDS
    while True:
        async with service.db.transaction() as session:
            user = await session.scalar(select(User).where(User.email == email))
        if user is not None or asyncio.get_running_loop().time() > deadline:
            return user
        await asyncio.sleep(0.25)


async def _connected(service: Service, user_id: uuid.UUID) -> bool:
    async with service.db.transaction() as session:
        return await session.get(Connection, user_id) is not None


async def seed(service: Service) -> int:
    providers: Providers = service.state["providers"]
    if providers.sandbox is None:
        return 0  # real Instagram: nobody is connected on their behalf
    connections: Connections = service.state["connections"]
    created = 0
    for email in DEMO_USERS:
        user = await _user(service, email)
        if user is None:
            log.warning("demo user %s is not known to social after %.0fs; not connecting it", email, WAIT_SECONDS)
            continue
        if await _connected(service, user.user_id):
            continue
        started = await connections.start(user.user_id)
        query = {k: v[0] for k, v in parse_qs(urlsplit(started.url).query).items()}
        code = await providers.sandbox.approve(query.get("login_hint") or email.split("@")[0], providers.redirect_uri)
        location = await connections.complete(code=code, state=query["state"], error=None,
                                              browser_nonce=started.nonce)
        if "connected=1" in location:
            created += 1
        else:
            log.warning("demo connection of %s failed: %s", email, location)
    return created
