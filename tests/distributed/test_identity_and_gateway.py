"""The distributed run in miniature: identity and the gateway as separate processes, talking HTTP, with
events crossing a real RabbitMQ (identity's outbox → exchange → a consumer's queue, and the gateway's
revocation broadcast)."""

import os
import subprocess
import sys
import uuid

import httpx
import pytest
from pinbid_kit.bus import RabbitBus
from pinbid_kit.bus.rabbit import delete_queues
from pinbid_kit.secrets import load_or_create_key
from pinbid_testing import eventually, free_port, wait_until_serving

pytestmark = pytest.mark.slow  # run first (pinbid_testing.plugin)




@pytest.fixture
def processes(new_database, amqp_url, tmp_path):
    identity_port, gateway_port = free_port(), free_port()
    keys = tmp_path / "keys"
    common = {**os.environ, "PINBID_VAR": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    identity_env = {**common, "IDENTITY_DATABASE_URL": new_database(), "IDENTITY_BUS": "rabbitmq",
                    "IDENTITY_AMQP_URL": amqp_url, "IDENTITY_PORT": str(identity_port),
                    "IDENTITY_JWT_PRIVATE_KEY_FILE": str(keys / "jwt.pem"),
                    "IDENTITY_JWT_PUBLIC_KEY_FILE": str(keys / "jwt.pub"),
                    "IDENTITY_MAIL_FOLDER": str(tmp_path / "mail"), "IDENTITY_ARGON2_MEMORY_KIB": "1024",
                    "IDENTITY_ENCRYPTION_KEYS": load_or_create_key(keys / "data.key")}
    gateway_env = {**common, "GATEWAY_IDENTITY_URL": f"http://127.0.0.1:{identity_port}", "GATEWAY_BUS": "rabbitmq",
                   "GATEWAY_AMQP_URL": amqp_url, "GATEWAY_PORT": str(gateway_port),
                   "GATEWAY_JWT_PUBLIC_KEY_FILE": str(keys / "jwt.pub")}
    started: list[tuple[subprocess.Popen, object]] = []
    try:
        launches = (("identity", ["service", "identity"], identity_env, identity_port),
                    ("gateway", ["gateway"], gateway_env, gateway_port))
        for name, arguments, env, port in launches:
            log = open(tmp_path / f"{name}.log", "w+b")
            command = [sys.executable, "-m", "pinbid_launcher", *arguments]
            process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
            started.append((process, log))
            wait_until_serving(f"http://127.0.0.1:{port}/readyz", process, log=log)
        yield f"http://127.0.0.1:{gateway_port}"
    finally:
        for process, _ in started:
            process.terminate()
        for process, log in started:
            try:
                # uvicorn re-raises SIGTERM after its graceful shutdown, so -15 is a clean stop
                assert process.wait(timeout=15) in (0, -15)
            except subprocess.TimeoutExpired:
                process.kill()
                raise
            log.seek(0)
            assert b"Finished server process" in log.read(), "the process shut down gracefully"


async def test_events_cross_rabbitmq_between_processes(processes, amqp_url):
    gateway = processes
    received = []
    consumer = RabbitBus(amqp_url)
    queue = f"test.distributed.{uuid.uuid4().hex[:8]}"

    async def record(envelope, headers):
        received.append((envelope, headers))

    consumer.subscribe(queue, ["identity.user.registered.v1"], record)
    await consumer.start()
    try:
        async with httpx.AsyncClient(base_url=gateway, timeout=10) as http:
            email = f"dist-{uuid.uuid4().hex[:8]}@example.com"
            registered = await http.post("/api/auth/register", headers={"x-request-id": "dist-req-1"},
                                         json={"name": "Dist Buyer", "email": email, "password": "long enough",
                                               "role": "BUYER"})
            assert registered.status_code == 201, registered.text
            old = registered.json()["token"]

            async def arrived() -> bool:
                return any(e.data["email"] == email for e, _ in received)

            await eventually(arrived, within=20)
            envelope, headers = next((e, h) for e, h in received if e.data["email"] == email)
            assert envelope.correlation_id == "dist-req-1" and envelope.source == "identity"
            # no exporter in these processes, so no trace context: the request id is what follows the event
            # (tests/distributed/test_one_trace.py follows a trace when tracing is on)
            assert "traceparent" not in headers

            changed = await http.post("/api/auth/change-password", headers={"Authorization": f"Bearer {old}"},
                                      json={"currentPassword": "long enough", "newPassword": "new password!"})
            assert changed.status_code == 200
            new = changed.json()["token"]

            async def gateway_refuses_old_token() -> bool:
                answer = await http.get("/api/buyer/dashboard", headers={"Authorization": f"Bearer {old}"})
                return answer.status_code == 403 and answer.json()["code"] == "token_revoked"

            await eventually(gateway_refuses_old_token, within=20)
            fresh = await http.get("/api/buyer/dashboard", headers={"Authorization": f"Bearer {new}"})
            assert fresh.status_code == 503  # passes the gateway's checks; marketplace is not running here
    finally:
        await consumer.stop()
        await delete_queues(amqp_url, queue)
