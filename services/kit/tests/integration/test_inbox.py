import asyncio
import uuid

from pinbid_kit.envelope import Envelope
from pinbid_kit.events.identity import UserUpdated
from pinbid_kit.inbox import Consumers
from sqlalchemy import select, update

from .conftest import widgets


def consumers_touching_widget(db) -> Consumers:
    consumers = Consumers("test", db)

    @consumers.on(UserUpdated.event_type)
    async def touch(session, data, envelope):
        await session.execute(update(widgets).where(widgets.c.id == 1).values(touched=widgets.c.touched + 1))

    return consumers


def envelope() -> Envelope:
    data = UserUpdated(user_id=uuid.uuid4(), email="a@b.co", name="A", role="BUYER")
    return Envelope(type=data.event_type, source="test", data=data.payload())


async def touched(db) -> int:
    async with db.transaction() as s:
        return await s.scalar(select(widgets.c.touched).where(widgets.c.id == 1))


async def seed(db):
    async with db.transaction() as s:
        await s.execute(widgets.insert().values(id=1, name="w"))


async def test_redelivered_event_has_no_second_effect(db):
    await seed(db)
    consumers = consumers_touching_widget(db)
    env = envelope()
    for _ in range(5):
        await consumers.dispatch(env, {})
    assert await touched(db) == 1


async def test_concurrent_duplicates_have_one_effect(db):
    await seed(db)
    consumers = consumers_touching_widget(db)
    env = envelope()
    await asyncio.gather(*(consumers.dispatch(env, {}) for _ in range(10)))
    assert await touched(db) == 1


async def test_a_failed_handler_leaves_no_inbox_row_so_the_retry_applies(db):
    await seed(db)
    consumers = Consumers("test", db)
    attempts = []

    @consumers.on(UserUpdated.event_type)
    async def flaky(session, data, envelope):
        attempts.append(1)
        await session.execute(update(widgets).values(touched=widgets.c.touched + 1))
        if len(attempts) == 1:
            raise RuntimeError("fails after writing")

    env = envelope()
    try:
        await consumers.dispatch(env, {})
    except RuntimeError:
        pass
    await consumers.dispatch(env, {})
    await consumers.dispatch(env, {})
    assert await touched(db) == 1 and len(attempts) == 2


async def test_handled_and_duplicate_events_are_counted(db):
    from prometheus_client import REGISTRY

    def count(result: str) -> float:
        return REGISTRY.get_sample_value("pinbid_events_handled_total", {
            "service": "test", "type": UserUpdated.event_type, "result": result}) or 0.0

    await seed(db)
    before = count("handled"), count("duplicate")
    env = envelope()
    await consumers_touching_widget(db).dispatch(env, {})
    await consumers_touching_widget(db).dispatch(env, {})
    assert (count("handled"), count("duplicate")) == (before[0] + 1, before[1] + 1)


async def test_an_event_of_a_replayed_past_is_handled_as_of_its_moment(db):
    from datetime import UTC, datetime

    from pinbid_kit.clock import AS_OF_HEADER, replayed, utcnow

    consumers = Consumers("test", db)
    seen = []

    @consumers.on(UserUpdated.event_type)
    async def note(session, data, envelope):
        seen.append((utcnow(), replayed()))

    september = datetime(2026, 9, 14, 9, 30, tzinfo=UTC)
    await consumers.dispatch(envelope(), {AS_OF_HEADER: september.isoformat()})
    await consumers.dispatch(envelope(), {})
    assert seen[0] == (september, september)
    assert seen[1][1] is None and seen[1][0] > september
    assert replayed() is None  # the moment ends with the delivery
