"""The demo world's Instagram side (the plan: `plan.py`), through social's own code paths.

seed: every demo creator and brand gets a sandbox account with the plan's figures and posts, connects
through the real OAuth flow (which publishes their profiles and media), and creators log in for pinning.
finish (after payments took the money): the comments of paid slots that the plan has pinned are pinned
"as of" their pin date, then the tracker runs as of the end of each placement whose duration is over, so the days
kept and the completions (and payments' staged releases on them) are dated as the plan has them.
Either step skips what is already done, so seeding again changes nothing."""

import logging
import uuid
from dataclasses import replace
from datetime import datetime, timedelta
from urllib.parse import parse_qs, urlsplit

from pinbid_kit.clock import as_of, utcnow
from pinbid_kit.errors import ApiError
from pinbid_kit.runtime import Service
from pinbid_social.adapters import Providers
from pinbid_social.adapters.sandbox import SandboxInstagram
from pinbid_social.connections import Connections
from pinbid_social.domain import sandbox_world as world
from pinbid_social.models import Connection, PinSession, Placement, Slot, User
from pinbid_social.pin_login import PinLogin
from pinbid_social.pins import Pins
from pinbid_social.settings import SocialSettings
from pinbid_social.tracker import PinTracker
from sqlalchemy import select

from . import plan as demo

log = logging.getLogger("pinbid.demo.social")
WAIT_SECONDS = 120.0  # an upper bound: each wait ends as soon as what it waits for arrived


def _figures(person: demo.Creator | demo.Brand) -> tuple[world.AccountSeed, list[world.PlannedPost] | None]:
    if isinstance(person, demo.Brand):
        return world.AccountSeed(person.handle, person.business_name, 12_400, "BUSINESS", 1.5), None
    posts = [world.PlannedPost(p.caption, timedelta(days=p.age_days)) for p in person.posts]
    return world.AccountSeed(person.handle, person.name, person.followers, person.account_type,
                             float(person.like_rate_percent)), posts


async def _users(service: Service, emails: list[str]) -> dict[str, uuid.UUID]:
    """Identity seeds first, but its events arrive asynchronously: wait for them a little."""
    async def known() -> dict[str, uuid.UUID]:
        async with service.db.transaction() as session:
            rows = (await session.execute(select(User.email, User.user_id).where(User.email.in_(emails)))).all()
        found = dict(rows)
        return found if len(found) == len(emails) else {}

    found = await demo.wait_for(known, seconds=WAIT_SECONDS)
    if not found:
        async with service.db.transaction() as session:
            found = dict((await session.execute(select(User.email, User.user_id)
                                                .where(User.email.in_(emails)))).all())
        log.warning("demo users not known to social: %s", sorted(set(emails) - set(found)))
    return found


async def seed(service: Service) -> int:
    providers: Providers = service.state["providers"]
    if providers.sandbox is None:
        return 0  # real Instagram: nobody is connected on their behalf
    connections: Connections = service.state["connections"]
    pin_login: PinLogin = service.state["pin_login"]
    people: list[demo.Creator | demo.Brand] = [*demo.CREATORS, *demo.BRANDS]
    users = await _users(service, [p.email for p in people])
    async with service.db.transaction() as session:
        connected = set(await session.scalars(select(Connection.user_id).where(Connection.user_id.in_(users.values()))))
        logged_in = set(await session.scalars(select(PinSession.user_id).where(PinSession.user_id.in_(users.values()))))
    to_connect = [p for p in people if p.email in users and users[p.email] not in connected]
    for person in to_connect:  # one at a time: each new account comments on the posts of those before it
        figures, posts = _figures(person)
        await providers.sandbox.ensure_account(person.handle, figures.full_name, figures=figures, posts=posts)

    async def connect(person: demo.Creator | demo.Brand) -> int:
        return int(await _connect(connections, providers, users[person.email], person.handle))

    async def log_in(person: demo.Creator) -> int:
        try:
            await pin_login.login(users[person.email], person.handle, "sandbox", None)
        except ApiError as refused:  # e.g. someone reconnected the demo creator to another account
            log.info("demo pinning login of %s refused: %s", person.email, refused.detail)
        return 0

    created = await demo.each(to_connect, connect)
    await demo.each([c for c in demo.CREATORS if c.email in users and users[c.email] not in logged_in], log_in)
    return created


async def _connect(connections: Connections, providers: Providers, user_id: uuid.UUID, handle: str) -> bool:
    started = await connections.start(user_id)
    query = {k: v[0] for k, v in parse_qs(urlsplit(started.url).query).items()}
    code = await providers.sandbox.approve(handle, providers.redirect_uri)
    location = await connections.complete(code=code, state=query["state"], error=None, browser_nonce=started.nonce)
    if "connected=1" not in location:
        log.warning("demo connection of @%s failed: %s", handle, location)
    return "connected=1" in location


async def finish(service: Service) -> int:
    """Pin the paid slots the plan has pinned, each as of its pin date."""
    providers: Providers = service.state["providers"]
    if providers.sandbox is None:
        return 0
    settings: SocialSettings = service.state["settings"]
    now = utcnow()
    planned = {s.title: s for s in demo.SLOTS if s.stage in demo.PINNED}
    users = await _users(service, [c.email for c in demo.CREATORS])
    creators = set(users.values())

    async def placements() -> list[tuple[Placement, str]]:
        async with service.db.transaction() as session:
            rows = (await session.execute(
                select(Placement, Slot.title).join(Slot, Slot.slot_id == Placement.slot_id)
                .where(Slot.title.in_(planned), Slot.creator_id.in_(creators)))).all()
        return [(p, title) for p, title in rows]

    async def all_paid() -> list[tuple[Placement, str]]:
        found = await placements()
        waiting = [p for p, _ in found if p.status == "AWAITING_PAYMENT"]
        return found if len(found) >= len(planned) and not waiting else []

    found = await demo.wait_for(all_paid, seconds=WAIT_SECONDS) or await placements()

    async def pin(found_placement: tuple[Placement, str]) -> int:
        placement, title = found_placement
        if placement.status != "AWAITING_PIN":
            return 0
        clock = demo.at(planned[title].pinned_at(now))
        # the sandbox posts and pins the comment as of that moment too, so its likes and replies have had time
        sandbox = SandboxInstagram(service.db, public_url=settings.public_url, seed=settings.sandbox_seed,
                                   posts_per_account=settings.sandbox_posts_per_account, clock=clock)
        pins = Pins(service.db, replace(providers, api=sandbox, pinning=sandbox, sandbox=sandbox),
                    settings.secret_box(), sync_interval=timedelta(seconds=settings.pin_sync_interval_seconds),
                    clock=clock, objects=settings.objects())
        try:
            with as_of(planned[title].pinned_at(now)):
                await pins.pin(placement.creator_id, placement.bid_id)
            return 1
        except ApiError as refused:
            log.info("demo pin of %r refused: %s", title, refused.detail)
            return 0

    made = await demo.each(found, pin)
    for moment in _tracker_runs([planned[title] for _, title in found], now):
        tracker = PinTracker(service.db, providers, settings.secret_box(),
                             interval=timedelta(seconds=settings.pin_sync_interval_seconds),
                             batch=settings.pin_sync_batch, concurrency=settings.pin_sync_concurrency,
                             clock=demo.at(moment))
        with as_of(moment):
            await tracker.run_once()
    return made


def _tracker_runs(slots: list[demo.Slot], now: datetime) -> list[datetime]:
    """The past moments the pin tracker is replayed at: once a day from the first pin (so each kept day, and
    the earning released on it, is dated on its day) and a minute after each placement's end (its
    completion), in time order."""
    pins = [s.pinned_at(now) for s in slots]
    if not pins:
        return []
    first = min(pins)
    days = [first + timedelta(days=n, minutes=1) for n in range(1, (now - first).days + 1)]
    ends = [s.pinned_at(now) + timedelta(days=s.duration_days, minutes=1) for s in slots
            if s.stage is demo.Stage.COMPLETED]
    return sorted(m for m in {*days, *ends} if m < now)
