"""The demo world, seeded by its two passes over identity, social, marketplace and payments on fresh real
databases and an in-process bus (as `make run` does, without the HTTP server): what it makes,
and that a second run, an interrupted first run, and a world someone changed end without duplicates or
errors."""

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pinbid_demo import plan as demo
from pinbid_demo.world import seed
from pinbid_identity.app import build as build_identity
from pinbid_identity.settings import IdentitySettings
from pinbid_kit.bus import InProcessBus
from pinbid_kit.runtime import Service
from pinbid_marketplace.app import build as build_marketplace
from pinbid_marketplace.settings import MarketplaceSettings
from pinbid_payments.app import build as build_payments
from pinbid_payments.settings import PaymentsSettings
from pinbid_social.app import build as build_social
from pinbid_social.settings import SocialSettings
from pinbid_testing import eventually
from pinbid_testing.databases import RunDatabases
from sqlalchemy import func, select, text

pytestmark = pytest.mark.slow  # run first (pinbid_testing.plugin)

# the services of the demo world, in the order the embedded run builds them: name -> (build, settings)
SERVICES: dict[str, tuple[Callable[..., Service], type]] = {
    "identity": (build_identity, IdentitySettings), "social": (build_social, SocialSettings),
    "marketplace": (build_marketplace, MarketplaceSettings), "payments": (build_payments, PaymentsSettings)}


def package(name: str) -> str:
    return f"pinbid_{name}"


@contextlib.asynccontextmanager
async def running(databases: dict[str, str], var: Path) -> AsyncIterator[dict[str, Service]]:
    """The four services on `databases` with an in-process bus (as `make run` runs them, without HTTP), their
    keys and files in `var` (PINBID_VAR)."""
    keys = {"jwt_public_key_file": str(var / "keys" / "jwt.pub")}
    built = {}
    for name, (build, settings) in SERVICES.items():
        extra = {"jwt_private_key_file": str(var / "keys" / "jwt.pem"), "argon2_memory_kib": 1024} \
            if name == "identity" else {}
        built[name] = build(settings.load(database_url=databases[name], bus="inprocess", log_json=False, **keys,
                                          **extra))
    bus = InProcessBus(retry_base_seconds=0.01)
    for service in built.values():
        service.attach(bus, relay_idle_seconds=0.2)
    await bus.start()
    for service in built.values():
        await service.start_background(jobs=False)
    try:
        yield built
    finally:
        for service in built.values():
            await service.stop_background()
        await bus.stop()
        for service in built.values():
            await service.db.dispose()


@dataclass(frozen=True)
class Seeded:
    databases: dict[str, str]  # service -> the seeded database, copied by each test that starts from it
    var: Path
    began: datetime
    seconds: float


@pytest.fixture(scope="module")
async def seeded(postgres_url, tmp_path_factory) -> AsyncIterator[Seeded]:
    """The demo world seeded once (a seeding is most of these tests' time) as a first run that was stopped in the
    middle of marketplace's part and the next run that completed it; a test that starts from the seeded world gets
    copies of its databases."""
    var, databases = tmp_path_factory.mktemp("seeded"), RunDatabases(postgres_url)
    try:
        urls = {name: databases.new(package(name)) for name in SERVICES}
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("PINBID_VAR", str(var))
            async with running(urls, var) as built:
                started, began = time.perf_counter(), datetime.now(UTC)
                await interrupted_halfway(seed(built), built["marketplace"])
                await seed(built)
                seconds = time.perf_counter() - started
                # the copies start from a still world: on a loaded machine a pin's event was still on its way to
                # marketplace when the services stopped, and the first test read the copy before it arrived
                await settled_census(built)
        yield Seeded(urls, var, began, seconds)
    finally:
        databases.drop_all()


async def interrupted_halfway(seeding: Coroutine, marketplace: Service) -> None:
    """Runs `seeding` until marketplace holds 20 slots, in the middle of its part, and stops it there."""
    running_seed = asyncio.ensure_future(seeding)

    async def halfway() -> bool:
        async with marketplace.db.transaction() as session:
            return await session.scalar(text("SELECT count(*) FROM slots")) >= 20

    await eventually(halfway, within=90, every=0.02)
    running_seed.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running_seed


@pytest.fixture
async def seeded_world(seeded, run_databases, new_database, monkeypatch):
    """A copy of the seeded world (released with the test's other databases: `new_database`)."""
    monkeypatch.setenv("PINBID_VAR", str(seeded.var))
    copies = {name: run_databases.copy(seeded.databases[name], package(name)) for name in SERVICES}
    async with running(copies, seeded.var) as w:
        yield w


async def rows(service, sql: str, **params) -> list:
    async with service.db.transaction() as session:
        return list((await session.execute(text(sql), params)).all())


async def settled_census(built) -> dict[str, object]:
    """The census once what the seeding set off has run its course: every outbox sent and two readings alike (on a
    loaded machine a refund's end of a placement may still be on its way when the seeding returns)."""
    async def unsent() -> int:
        return sum([(await rows(service, "SELECT count(*) FROM outbox WHERE sent_at IS NULL"))[0][0]
                    for service in built.values()])

    readings: list[dict[str, object]] = []

    async def alike() -> bool:
        if await unsent():
            return False
        readings.append(await census(built))
        return len(readings) > 1 and readings[-1] == readings[-2]

    await eventually(alike, within=60, every=0.5)
    return readings[-1]


async def census(built) -> dict[str, object]:
    """What the world holds, service by service, in a form that shows duplicates."""
    marketplace, payments, social, identity = (built[n] for n in ("marketplace", "payments", "social", "identity"))
    return {
        "users": await rows(identity, "SELECT email FROM users WHERE is_demo ORDER BY email"),
        "slots": await rows(marketplace, "SELECT title, count(*) FROM slots WHERE is_demo GROUP BY title ORDER BY 1"),
        "bids": await rows(marketplace, "SELECT s.title, b.buyer_id, count(*) FROM bids b JOIN slots s "
                                        "ON s.id = b.slot_id WHERE s.is_demo GROUP BY 1, 2 ORDER BY 1, 2"),
        "payments": await rows(payments, "SELECT slot_title, status FROM payments ORDER BY 1, 2"),
        "payouts": await rows(payments, "SELECT creator_id, period, status FROM payouts ORDER BY 1, 2"),
        "pins": await rows(social, "SELECT bid_id, status FROM placements ORDER BY 1"),
        "connections": await rows(social, "SELECT username FROM connections ORDER BY 1"),
    }


def reached(stage: demo.Stage, statuses: Counter) -> bool:
    """Whether a slot's bids show the plan's stage."""
    if stage is demo.Stage.OPEN:
        return not statuses
    if stage is demo.Stage.BIDDING:
        return statuses["ACTIVE"] == 1 and statuses["OUTBID"] >= 1
    return statuses[{
        demo.Stage.ENDING: "ACTIVE", demo.Stage.AWAITING_APPROVAL: "PENDING_INFLUENCER_APPROVAL",
        demo.Stage.AWAITING_PAYMENT: "AWAITING_PAYMENT", demo.Stage.AWAITING_PIN: "WON", demo.Stage.LIVE: "PINNED",
        demo.Stage.COMPLETED: "PINNED", demo.Stage.REFUNDED: "WON"}[stage]] == 1


async def test_the_demo_world_has_every_stage_and_three_months_of_history(seeded, seeded_world):
    built = seeded_world
    marketplace, payments = built["marketplace"], built["payments"]

    slots = await rows(marketplace, "SELECT title, status, outcome, is_demo FROM slots")
    assert len(slots) == len(demo.SLOTS) >= 40 and all(s.is_demo for s in slots)
    creators = await rows(marketplace, "SELECT username, verified, followers FROM creator_profiles p "
                                       "JOIN users u ON u.id = p.user_id WHERE u.role = 'INFLUENCER'")
    assert len(creators) == len(demo.CREATORS) >= 12
    assert len({c.followers for c in creators}) == len(creators)  # all different
    verified = {c.username for c in creators if c.verified}
    assert {"theo.stitches", "mina.bytes", "ada.moves", "sofia.roams"}.isdisjoint(verified)  # < 10k, personal, 0.6%
    assert {"maya.makes", "jonas.lifts", "nate.plays"} <= verified
    assert {c for c in demo.CATEGORIES} == {r.category for r in await rows(marketplace, "SELECT category FROM slots")}

    by_stage = Counter()
    bids = await rows(marketplace, "SELECT s.title, b.status, b.auto_bid_enabled, b.pinned_status FROM bids b "
                                   "JOIN slots s ON s.id = b.slot_id")
    for slot in demo.SLOTS:
        statuses = Counter(b.status for b in bids if b.title == slot.title)
        pinned = {b.pinned_status for b in bids if b.title == slot.title} - {None}
        assert reached(slot.stage, statuses), (slot.title, slot.stage, statuses, pinned)
        by_stage[slot.stage] += 1
    assert set(by_stage) == set(demo.Stage)
    assert any(b.auto_bid_enabled for b in bids)

    payment_status = Counter(p.status for p in await rows(payments, "SELECT status FROM payments"))
    assert payment_status["REFUNDED"] == by_stage[demo.Stage.REFUNDED]  # the refund job ran
    assert payment_status["REQUESTED"] == by_stage[demo.Stage.AWAITING_PAYMENT]

    # the demo creator: a payout for each of the last three months, this month's earnings pending
    maya = (await rows(payments, "SELECT id FROM users WHERE email = :e", e=demo.CREATOR))[0].id
    payouts = await rows(payments, "SELECT period, status, created_at FROM payouts WHERE creator_id = :c "
                                   "ORDER BY period", c=maya)
    now = datetime.now(UTC)
    assert [p.status for p in payouts] == ["PAID"] * 3
    assert [p.created_at.month for p in payouts] == [d.month for d in demo.payout_days(now)]
    months = await rows(payments, "SELECT date_trunc('month', earned_at) AS m, count(*) FROM earnings "
                                  "WHERE creator_id = :c AND status <> 'REFUNDED' GROUP BY 1 ORDER BY 1", c=maya)
    assert len(months) >= 4  # three months of history, this month's too
    summary = await built["payments"].state["earnings"].summary(maya)
    assert summary["pending_payouts"] > 0 and summary["total_earnings"] > summary["pending_payouts"]
    # the demo brand: won, live, past and refunded bids
    brand = (await rows(payments, "SELECT id FROM users WHERE email = :e", e=demo.BRAND))[0].id
    spent = await rows(payments, "SELECT date_trunc('month', completed_at) AS m FROM payments WHERE buyer_id = :b "
                                 "AND status = 'COMPLETED' GROUP BY 1", b=brand)
    assert len(spent) >= 3
    print(f"demo world seeded in {seeded.seconds:.1f}s")

    # the pin tracker's first run (a job once the product runs): past durations complete, live pins have likes
    await built["social"].state["tracker"].run_once()
    placements = await rows(built["social"], "SELECT status, likes, replies FROM placements "
                                             "WHERE status IN ('PINNED', 'COMPLETED')")
    assert Counter(p.status for p in placements) == {"PINNED": by_stage[demo.Stage.LIVE],
                                                     "COMPLETED": by_stage[demo.Stage.COMPLETED]}
    assert all(p.likes > 0 for p in placements if p.status == "PINNED")  # pinned days ago: likes came in

    await _the_history_tells_the_truth(built, seeded.began)

    # a second run adds nothing and raises nothing
    before = await census(built)
    await seed(built)
    assert await census(built) == before


async def test_an_interrupted_first_run_is_completed_by_the_next(seeded_world):
    built = seeded_world  # seeded by a first run stopped halfway, then a second (the `seeded` fixture)
    first = await census(built)
    assert len(first["slots"]) == len(demo.SLOTS) and all(n == 1 for _, n in first["slots"])
    assert all(n == 1 for *_, n in first["bids"])
    await seed(built)
    assert await settled_census(built) == first


async def test_a_world_someone_changed_or_deleted_is_seeded_without_duplicates(seeded_world):
    built = seeded_world
    marketplace, social = built["marketplace"], built["social"]
    # the demo creator ends an open demo auction early; a demo slot without bids is deleted by hand;
    # the demo brand disconnects Instagram
    maya = (await rows(marketplace, "SELECT id FROM users WHERE email = :e", e=demo.CREATOR))[0].id
    open_slot = next(s for s in demo.SLOTS if s.creator == demo.CREATOR and s.stage is demo.Stage.BIDDING)
    slot_id = (await rows(marketplace, "SELECT id FROM slots WHERE title = :t", t=open_slot.title))[0].id
    await marketplace.state["closer"].end_early(maya, slot_id)
    unbid = next(s for s in demo.SLOTS if s.stage is demo.Stage.OPEN)
    async with marketplace.db.transaction() as session:
        await session.execute(text("DELETE FROM slots WHERE title = :t"), {"t": unbid.title})
    brand = (await rows(social, "SELECT user_id FROM users WHERE email = :e", e=demo.BRAND))[0].user_id
    assert await social.state["connections"].disconnect(brand)

    await seed(built)
    after = await census(built)
    assert all(n == 1 for _, n in after["slots"]) and len(after["slots"]) == len(demo.SLOTS)
    assert all(n == 1 for *_, n in after["bids"])
    assert (await rows(marketplace, "SELECT status FROM slots WHERE id = :i", i=slot_id))[0].status == "CLOSED"
    assert "northwind.coffee" in {c.username for c in after["connections"]}
    async with marketplace.db.transaction() as session:
        assert await session.scalar(select(func.count()).select_from(text("slots")).where(
            text("title = :t")).params(t=unbid.title)) == 1


async def test_a_later_run_lists_again_the_open_auctions_that_ended_on_their_own(seeded_world):
    built = seeded_world
    marketplace = built["marketplace"]
    first_end = (await rows(marketplace, "SELECT min(auction_end) AS ends FROM slots WHERE status = 'ACTIVE'"))[0].ends
    ended = await rows(marketplace, "SELECT title FROM slots WHERE status = 'ACTIVE' AND auction_end = :t", t=first_end)
    closer = marketplace.state["closer"]
    closer.clock = demo.at(first_end + timedelta(seconds=1))  # time passes: the soonest auctions end on their own
    assert await closer.run_once() == len(ended) >= 1

    await seed(built)
    for (title,) in ended:
        listed = await rows(marketplace, "SELECT status FROM slots WHERE title = :t ORDER BY created_at", t=title)
        assert [s.status for s in listed] == ["CLOSED", "ACTIVE"]
    open_now = await rows(marketplace, "SELECT count(*) AS n FROM slots WHERE status = 'ACTIVE'")
    assert open_now[0].n == sum(s.stage in demo.OPEN_STAGES for s in demo.SLOTS)
    before = await census(built)
    await seed(built)
    assert await census(built) == before


async def _the_history_tells_the_truth(built, began: datetime) -> None:
    """Dates follow the history they describe, the creators' records are plausible, and the comments fit."""
    now = datetime.now(UTC)  # after the tracker's first run above, which releases today's kept days
    identity, marketplace, payments = built["identity"], built["marketplace"], built["payments"]
    listed = {r.title: r for r in await rows(
        marketplace, "SELECT s.title, s.created_at, min(b.created_at) AS first_bid FROM slots s "
                     "LEFT JOIN bids b ON b.slot_id = s.id WHERE s.is_demo GROUP BY s.id")}
    notes = await rows(identity, "SELECT n.kind, n.message, n.created_at FROM notifications n "
                                 "JOIN users u ON u.id = n.user_id WHERE u.is_demo")
    assert notes and all(n.created_at <= now for n in notes)
    earliest = min(s.listed_at(began) for s in demo.SLOTS)
    assert all(n.created_at >= earliest - timedelta(seconds=1) for n in notes)
    about_a_slot = 0
    for note in notes:
        title = next((t for t in listed if f"“{t}”" in note.message), None)
        if title is not None:
            about_a_slot += 1
            assert note.created_at >= (listed[title].first_bid or listed[title].created_at), (note, title)
    assert about_a_slot >= len(notes) // 2
    months = {(n.created_at.year, n.created_at.month) for n in notes}
    assert len(months) >= 3  # September's placements are told in September, not today
    dated_at_the_seeding = sum(n.created_at >= began for n in notes)
    assert dated_at_the_seeding == 0, dated_at_the_seeding

    for table, column in (("ledger_transactions", "created_at"), ("payments", "created_at"),
                          ("payments", "completed_at"), ("earnings", "earned_at"), ("payouts", "created_at"),
                          ("payouts", "settled_at"), ("earning_releases", "released_at")):
        dates = [r.at for r in await rows(payments, f"SELECT {column} AS at FROM {table} WHERE {column} IS NOT NULL")]
        read_at = datetime.now(UTC)  # the tracker's run above still releases today's kept days meanwhile
        assert dates and max(dates) <= read_at and min(dates) < now - timedelta(days=60), (table, column)
        assert len({(d.year, d.month) for d in dates}) >= 3, (table, column)
    paid = [r.paid_at for r in await rows(marketplace, "SELECT paid_at FROM bids WHERE payment_status IN "
                                                         "('COMPLETED', 'REFUNDED')")]
    assert paid and None not in paid and max(paid) <= datetime.now(UTC)  # Earnings' "Recent Transactions"
    assert len({(d.year, d.month) for d in paid}) >= 3
    requests = await rows(payments, "SELECT slot_title, created_at, completed_at FROM payments")
    for request in requests:
        planned = demo.slot(request.slot_title)
        assert abs(request.created_at - planned.approved_at(began)) < timedelta(minutes=5), request.slot_title
        assert request.completed_at is None or request.completed_at >= request.created_at

    # the record on the open cards: most creators have one, and they decide in hours, not weeks
    cards = await rows(marketplace, "SELECT creator_placements, creator_kept_pct, creator_response_minutes "
                                    "FROM slots WHERE is_demo AND status = 'ACTIVE'")
    with_record = [c for c in cards if c.creator_kept_pct is not None]
    assert len(with_record) / len(cards) >= 0.7, (len(with_record), len(cards))
    responses = [c.creator_response_minutes for c in cards if c.creator_response_minutes is not None]
    assert responses and max(responses) <= 9 * 60
    print(f"open cards with a record: {len(with_record)}/{len(cards)}; response minutes: max {max(responses)}, "
          f"mean {sum(responses) / len(responses):.0f}; notifications from {min(n.created_at for n in notes)} "
          f"to {max(n.created_at for n in notes)} over {len(months)} months")

    # every bid's comment is its brand's line for that post's category, and Instagram would take it
    bids = await rows(marketplace, "SELECT s.category, b.comment_text, u.email FROM bids b "
                                   "JOIN slots s ON s.id = b.slot_id JOIN users u ON u.id = b.buyer_id")
    for bid in bids:
        brand = demo.brand(bid.email)
        assert brand.fits(bid.category) and bid.comment_text == brand.comment_for(bid.category), bid
