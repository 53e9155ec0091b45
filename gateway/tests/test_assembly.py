"""The gateway is assembled like a service, and the same way in both runs: `build(settings)` (upstreams over HTTP
from the settings unless the embedded run gives the services' apps), `attach(bus)` (this process's copy of the
revocations and of the live events), then `start_background()` and `stop_background()`."""

import asyncio
import uuid

from pinbid_gateway.app import build
from pinbid_gateway.settings import GatewaySettings
from pinbid_kit.bus import InProcessBus
from pinbid_kit.envelope import Envelope
from pinbid_kit.events.identity import SessionsRevoked
from pinbid_kit.tokens import generate_keypair
from pinbid_testing import free_port


def settings(tmp_path, **fields) -> GatewaySettings:
    generate_keypair(tmp_path / "k.pem", tmp_path / "k.pub")
    return GatewaySettings(web_dist=tmp_path, jwt_public_key_file=tmp_path / "k.pub", **fields)


async def test_built_from_its_settings_alone_it_calls_the_services_they_name(tmp_path):
    gateway = build(settings(tmp_path, identity_url=f"http://127.0.0.1:{free_port()}"))
    try:
        assert gateway.upstreams.has("identity") and not gateway.upstreams.has("marketplace")
    finally:
        await gateway.upstreams.close()


async def test_attached_it_hears_a_revocation_on_the_bus(tmp_path):
    gateway = build(settings(tmp_path))
    bus = InProcessBus()
    gateway.attach(bus)
    await bus.start()
    user = uuid.uuid4()
    event = SessionsRevoked(user_id=user, token_version=3)
    await bus.publish(Envelope(type=event.event_type, source="identity", data=event.payload()), {})
    assert gateway.revocations.is_revoked(user, 2) and not gateway.revocations.is_revoked(user, 3)
    await bus.stop()
    await gateway.upstreams.close()


async def test_it_starts_without_identity_and_keeps_asking_in_the_background(tmp_path):
    """The distributed run: identity may come up after the gateway, so starting does not wait for it."""
    gateway = build(settings(tmp_path, identity_url=f"http://127.0.0.1:{free_port()}"))  # nobody listens there
    bus = InProcessBus()
    gateway.attach(bus)
    await bus.start()
    await asyncio.wait_for(gateway.start_background(), timeout=5)
    assert not any(task.done() for task in gateway._tasks)  # the broker's watch, and the revocations still asked
    await gateway.stop_background()
    assert gateway._tasks == []
    await bus.stop()
    await gateway.upstreams.close()


async def test_with_a_bound_on_the_tries_it_reads_the_revocations_before_it_returns(tmp_path):
    """The embedded run: identity is in the same process, so the gateway serves only once it asked."""
    gateway = build(settings(tmp_path, identity_url=f"http://127.0.0.1:{free_port()}"))
    bus = InProcessBus()
    gateway.attach(bus)
    await bus.start()
    await asyncio.wait_for(gateway.start_background(revocation_attempts=1), timeout=10)
    assert [task.get_name() for task in gateway._tasks] == ["gateway.broker"]
    await gateway.stop_background()
    await bus.stop()
    await gateway.upstreams.close()
