import pytest
from pinbid_kit.bus import InProcessBus, matches
from pinbid_kit.envelope import Envelope


@pytest.mark.parametrize(
    ("pattern", "key", "expected"),
    [
        ("a.b.c", "a.b.c", True),
        ("a.*.c", "a.b.c", True),
        ("a.*", "a.b.c", False),
        ("a.#", "a.b.c", True),
        ("#", "a", True),
        ("a.#.c", "a.c", True),
        ("a.b", "a.b.c", False),
        ("*.b.*", "x.b.y", True),
    ],
)
def test_topic_matching_follows_amqp_rules(pattern, key, expected):
    assert matches(pattern, key) is expected


def envelope(type_="identity.user.updated.v1"):
    return Envelope(type=type_, source="test", data={"x": 1})


async def test_delivers_to_matching_subscribers_only():
    bus = InProcessBus()
    got: list[tuple[str, str]] = []

    async def a(env, headers):
        got.append(("a", env.type))

    async def b(env, headers):
        got.append(("b", env.type))

    bus.subscribe("a", ["identity.#"], a)
    bus.subscribe("b", ["marketplace.#"], b)
    await bus.start()
    await bus.publish(envelope(), {})
    assert got == [("a", "identity.user.updated.v1")]


async def test_failing_handler_is_retried_then_dead_lettered():
    bus = InProcessBus(max_deliveries=3, retry_base_seconds=0)
    calls = []

    async def broken(env, headers):
        calls.append(headers["x-delivery-count"])
        raise RuntimeError("boom")

    bus.subscribe("svc", ["#"], broken)
    await bus.start()
    await bus.publish(envelope(), {})
    assert calls == ["0", "1", "2"]
    assert [(q, e.type) for q, e, _ in bus.dead_letters] == [("svc", "identity.user.updated.v1")]


async def test_handler_that_recovers_is_not_dead_lettered():
    bus = InProcessBus(max_deliveries=3, retry_base_seconds=0)
    calls = []

    async def flaky(env, headers):
        calls.append(1)
        if len(calls) < 2:
            raise RuntimeError("once")

    bus.subscribe("svc", ["#"], flaky)
    await bus.start()
    await bus.publish(envelope(), {})
    assert len(calls) == 2 and bus.dead_letters == []


async def test_publishing_on_a_stopped_bus_fails():
    bus = InProcessBus()
    with pytest.raises(ConnectionError):
        await bus.publish(envelope(), {})
