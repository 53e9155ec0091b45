"""An event whose handler meets its database away (connections refused, sessions terminated) waits for the
database instead of spending its deliveries: it is handled once, when the database is back, and nothing is
dead-lettered. A handler that fails while the database answers is still dead-lettered after its deliveries."""

import asyncio

from pinbid_kit.bus import InProcessBus
from pinbid_kit.events.identity import UserUpdated
from pinbid_kit.outage import WAIT_SECONDS, WAITERS
from pinbid_testing import eventually, refusing_connections
from sqlalchemy import make_url

from .conftest import widgets
from .test_inbox import consumers_touching_widget, envelope, seed, touched


def gauge(metric, database: str) -> float:
    return metric.labels(database)._value.get()


async def test_an_event_waits_out_its_database_and_spends_no_delivery(db):
    await seed(db)
    bus = InProcessBus(max_deliveries=5, retry_base_seconds=0.05)  # all five spent in under a second otherwise
    consumers_touching_widget(db).attach(bus)
    await bus.start()
    database = make_url(db.url).database
    with refusing_connections(db.url):
        assert not await db.writable()
        delivery = asyncio.create_task(bus.publish(envelope(), {}))
        async def waiting() -> bool:
            return gauge(WAITERS, database) == 1

        await eventually(waiting, within=10)

        def waited_out_the_backoff() -> bool:  # the waiter's own figure, updated at each probe
            return gauge(WAIT_SECONDS, database) >= 2.5  # far longer than five deliveries' backoff

        await eventually(waited_out_the_backoff, within=20)
        assert not delivery.done() and bus.dead_letters == []
    await asyncio.wait_for(delivery, timeout=30)
    assert await touched(db) == 1
    assert bus.dead_letters == []
    assert gauge(WAITERS, database) == 0 and gauge(WAIT_SECONDS, database) == 0
    assert await db.writable()


async def test_a_handler_failing_while_the_database_answers_is_still_dead_lettered(db):
    await seed(db)
    bus = InProcessBus(max_deliveries=3, retry_base_seconds=0.01)
    consumers = consumers_touching_widget(db)

    @consumers.on(UserUpdated.event_type, name="test.poison")
    async def poison(session, data, env):
        await session.execute(widgets.update().values(name="never"))
        raise ValueError("a message this handler cannot take")

    consumers.attach(bus)
    await bus.start()
    await bus.publish(envelope(), {})
    assert [(queue, reason) for queue, _, reason in bus.dead_letters] == [
        ("test", "ValueError('a message this handler cannot take')")]
