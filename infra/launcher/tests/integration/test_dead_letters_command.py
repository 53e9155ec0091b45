"""`python -m pinbid_launcher dlq list|replay NAME` against the real broker, with the service's own settings."""

import asyncio
import os
import subprocess
import sys
import uuid

import aio_pika
import pytest
from pinbid_kit.bus import RabbitBus
from pinbid_kit.bus.rabbit import forget_deployment
from pinbid_kit.envelope import Envelope
from pinbid_kit.events.identity import UserUpdated
from pinbid_testing import eventually

pytestmark = pytest.mark.slow  # run first (pinbid_testing.plugin)


def dlq(action: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pinbid_launcher", "dlq", action, "identity"],
                          env={**os.environ, **env}, capture_output=True, text=True, timeout=60)


async def queue_depth(url: str, name: str) -> int:
    connection = await aio_pika.connect(url)
    async with connection:
        channel = await connection.channel()
        return (await channel.declare_queue(name, passive=True)).declaration_result.message_count


async def test_list_then_replay_a_services_dead_letters(amqp_url, tmp_path):
    prefix = f"dlq{uuid.uuid4().hex[:6]}"
    env = {"IDENTITY_AMQP_URL": amqp_url, "IDENTITY_BUS_PREFIX": prefix, "PINBID_VAR": str(tmp_path)}
    event = await dead_letter_in(amqp_url, prefix)  # its bus stopped: the replayed event stays there to be counted
    try:
        listed = await asyncio.to_thread(dlq, "list", env)
        assert listed.returncode == 0, listed.stderr
        assert str(event.id) in listed.stdout and "identity: 1 dead letter(s)" in listed.stdout
        replayed = await asyncio.to_thread(dlq, "replay", env)
        assert replayed.returncode == 0 and "1 dead letter(s) put back" in replayed.stdout
        assert await queue_depth(amqp_url, f"{prefix}.identity") == 1
        assert await queue_depth(amqp_url, f"{prefix}.identity.dlq") == 0
    finally:
        await forget_deployment(amqp_url, prefix, ["identity"])


def test_a_queue_that_does_not_exist_is_one_line(amqp_url, tmp_path):
    missing = dlq("list", {"IDENTITY_AMQP_URL": amqp_url, "IDENTITY_BUS_PREFIX": f"none{uuid.uuid4().hex[:6]}",
                           "PINBID_VAR": str(tmp_path)})
    assert missing.returncode == 1 and missing.stderr.strip().startswith("Dead letters of identity:")
    assert "Traceback" not in missing.stderr


def run_dlq(action: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    """The command as an operator's shell runs it: only the variables given name the bus."""
    inherited = {k: v for k, v in os.environ.items()
                 if k not in ("PINBID_DB_PREFIX", "PINBID_AMQP_URL") and not k.startswith("IDENTITY_")}
    return subprocess.run([sys.executable, "-m", "pinbid_launcher", "dlq", action, "identity"],
                          env={**inherited, **env}, capture_output=True, text=True, timeout=60)


async def dead_letter_in(amqp_url: str, prefix: str) -> Envelope:
    """One dead letter in `<prefix>.identity.dlq`, as a deployment with that bus prefix would leave it."""
    bus = RabbitBus(amqp_url, max_deliveries=1, retry_base_seconds=0.01, prefix=prefix)

    async def broken(envelope, headers):
        raise RuntimeError("cannot handle")

    bus.subscribe("identity", ["identity.user.updated.v1"], broken)
    await bus.start()
    data = UserUpdated(user_id=uuid.uuid4(), email="a@b.co", name="A", role="BUYER")
    event = Envelope(type=data.event_type, source="test", data=data.payload())
    try:
        await bus.publish(event, {})

        async def dead_lettered() -> bool:
            return await queue_depth(amqp_url, f"{prefix}.identity.dlq") == 1

        await eventually(dead_lettered, within=10)
    finally:
        await bus.stop()
    return event


async def test_the_command_reads_and_replays_only_its_own_runs_queue_on_a_shared_broker(amqp_url, tmp_path):
    ours, theirs = f"ours{uuid.uuid4().hex[:6]}", f"theirs{uuid.uuid4().hex[:6]}"
    our_letter = await dead_letter_in(amqp_url, ours)
    their_letter = await dead_letter_in(amqp_url, theirs)
    try:
        run = {"PINBID_AMQP_URL": amqp_url, "PINBID_DB_PREFIX": ours, "PINBID_VAR": str(tmp_path / "ours")}
        listed = await asyncio.to_thread(run_dlq, "list", run)
        assert listed.returncode == 0, listed.stderr
        assert str(our_letter.id) in listed.stdout and str(their_letter.id) not in listed.stdout
        assert f"identity: 1 dead letter(s) in {ours}.identity.dlq" in listed.stdout

        # no PINBID_DB_PREFIX in this shell: the prefix `make up` recorded for the run of this var/ folder
        (tmp_path / "theirs" / "run").mkdir(parents=True)
        (tmp_path / "theirs" / "run" / "bus-prefix").write_text(theirs)
        recorded = await asyncio.to_thread(run_dlq, "list", {"PINBID_AMQP_URL": amqp_url,
                                                              "PINBID_VAR": str(tmp_path / "theirs")})
        assert recorded.returncode == 0, recorded.stderr
        assert str(their_letter.id) in recorded.stdout and str(our_letter.id) not in recorded.stdout

        replayed = await asyncio.to_thread(run_dlq, "replay", run)
        assert replayed.returncode == 0 and f"1 dead letter(s) put back on the queue (from {ours}.identity.dlq)" \
            in replayed.stdout
        assert await queue_depth(amqp_url, f"{ours}.identity.dlq") == 0
        assert await queue_depth(amqp_url, f"{ours}.identity") == 1
        assert await queue_depth(amqp_url, f"{theirs}.identity.dlq") == 1  # the other deployment's: untouched
    finally:
        for prefix in (ours, theirs):
            await forget_deployment(amqp_url, prefix, ["identity"])
