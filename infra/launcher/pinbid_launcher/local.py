"""`make up` / `make down`: the distributed run on this machine, each service and the gateway its own
process, against the local PostgreSQL (one database per service) and RabbitMQ. Pids and logs go to var/.

`PINBID_REPLICAS=N` (`make up REPLICAS=N`) starts N processes of every service and N gateways. There is no
balancer: gateway k (port PINBID_GATEWAY_PORT + k - 1) calls replica k of each service, and every replica
consumes from its service's shared queue and runs its jobs, as pods do."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
from pinbid_kit.paths import var_dir
from pinbid_kit.secrets import load_or_create_key
from pinbid_kit.tokens import generate_keypair

from . import connections, services

BASE_PORT = int(os.environ.get("PINBID_BASE_PORT", "8101"))
DB_PREFIX = os.environ.get("PINBID_DB_PREFIX", "pinbid")
GATEWAY_PORT = int(os.environ.get("PINBID_GATEWAY_PORT", "8000"))
PG = os.environ.get("PINBID_PG_URL", "postgresql://postgres@127.0.0.1:5432")
AMQP = os.environ.get("PINBID_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/")
REPLICAS = os.environ.get("PINBID_REPLICAS", "1")
PORTS_PER_REPLICA = 10  # replica r of the service at index i listens on BASE_PORT + i + 10 * (r - 1)


def replicas() -> int:
    if not REPLICAS.isdigit() or not 1 <= int(REPLICAS) <= 9:
        raise SystemExit(f"PINBID_REPLICAS must be a whole number from 1 to 9, not {REPLICAS!r}")
    return int(REPLICAS)


def process_name(name: str, replica: int) -> str:
    return name if replica == 1 else f"{name}-{replica}"


def _run_dir() -> Path:
    path = var_dir() / "run"
    path.mkdir(parents=True, exist_ok=True)
    (var_dir() / "log").mkdir(parents=True, exist_ok=True)
    return path


def plan() -> list[tuple[str, list[str], dict[str, str], int]]:
    """(name, command, environment, port) for every process of the distributed run. The run's database
    prefix also prefixes its exchanges and queues, so two runs on one broker never take each other's events;
    links and redirects point at the (first) gateway's port. Replicas of a service share its database, and
    every service process gets an even share of the run's database connections (connections.py).

    A setting the operator exported (PAYMENTS_PUBLIC_URL, MARKETPLACE_DB_POOL_SIZE, ...) is kept; only the
    wiring between the processes (each one's port, the gateway's routes to its replicas) is the launcher's."""
    entries = []
    # made once under var/keys and kept: every process and every restart reads the same secrets
    encryption_keys = load_or_create_key(var_dir() / "keys" / "data.key")
    public_url = f"http://127.0.0.1:{GATEWAY_PORT}"
    modules = services.installed()
    processes = len(modules) * replicas()
    pool = connections.pool_for(connections.budget(processes), processes)
    for replica in range(1, replicas() + 1):
        urls = {}
        for index, module in enumerate(modules):
            port = BASE_PORT + index + PORTS_PER_REPLICA * (replica - 1)
            prefix = module.name.upper() + "_"
            defaults = {prefix + "DATABASE_URL": f"{PG}/{DB_PREFIX}_{module.name}", prefix + "BUS": "rabbitmq",
                        prefix + "AMQP_URL": AMQP, prefix + "BUS_PREFIX": DB_PREFIX, prefix + "HOST": "127.0.0.1",
                        prefix + "PUBLIC_URL": public_url, prefix + "ENCRYPTION_KEYS": encryption_keys,
                        prefix + "DB_POOL_SIZE": str(pool.size), prefix + "DB_MAX_OVERFLOW": str(pool.overflow)}
            env = with_exported(defaults, wiring={prefix + "PORT": str(port)})
            command = [sys.executable, "-m", "pinbid_launcher", "service", module.name]
            entries.append((process_name(module.name, replica), command, env, port))
            urls[f"GATEWAY_{module.name.upper()}_URL"] = f"http://127.0.0.1:{port}"
        gateway_port = GATEWAY_PORT + replica - 1
        gateway_env = with_exported({"GATEWAY_BUS": "rabbitmq", "GATEWAY_AMQP_URL": AMQP,
                                     "GATEWAY_BUS_PREFIX": DB_PREFIX, "GATEWAY_PUBLIC_URL": public_url},
                                    wiring={"GATEWAY_PORT": str(gateway_port), **urls})
        entries.append((process_name("gateway", replica), [sys.executable, "-m", "pinbid_launcher", "gateway"],
                        gateway_env, gateway_port))
    return entries


def with_exported(defaults: dict[str, str], *, wiring: dict[str, str]) -> dict[str, str]:
    """The launcher's defaults give way to what the operator exported; its wiring does not (with REPLICAS=2 an
    exported PAYMENTS_PORT would put two processes on one port)."""
    return {**defaults, **{name: os.environ[name] for name in defaults if name in os.environ}, **wiring}


def most_connections(entries: list[tuple[str, list[str], dict[str, str], int]]) -> int:
    """The most database connections the run's service processes may hold, with the pools they will have."""
    total = 0
    for name, _, env, _ in entries:
        prefix = name.split("-")[0].upper() + "_"
        if prefix + "DB_POOL_SIZE" in env:
            pool = connections.Pool(int(env[prefix + "DB_POOL_SIZE"]), int(env[prefix + "DB_MAX_OVERFLOW"]))
            total += pool.connections()
    return total


def up() -> None:
    run = _run_dir()
    # identity signs with this key and every other process verifies with it: make it before any starts
    generate_keypair(var_dir() / "keys" / "jwt-ed25519.pem", var_dir() / "keys" / "jwt-ed25519.pub")
    entries = plan()
    print(f"database connections: at most {most_connections(entries)} for this run "
          f"({connections.ENV}, docs/operations.md)")
    for name, command, env, port in entries:
        pid_file = run / f"{name}.pid"
        if pid_file.exists() and _alive(int(pid_file.read_text())):
            print(f"{name} already running (pid {pid_file.read_text().strip()})")
            continue
        log = open(var_dir() / "log" / f"{name}.log", "ab")
        process = subprocess.Popen(command, env={**os.environ, **env}, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        pid_file.write_text(str(process.pid))
        print(f"started {name} (pid {process.pid}) on port {port}; log var/log/{name}.log")
    with httpx.Client(timeout=2) as http:  # one client: each new one builds a TLS context, 20-30 ms of CPU
        for name, _, _, port in entries:
            _wait_ready(http, name, port)
    gateways = ", ".join(f"http://127.0.0.1:{GATEWAY_PORT + r}" for r in range(replicas()))
    print(f"Pinbid (distributed) is up at {gateways}")


def _wait_ready(http: httpx.Client, name: str, port: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if http.get(f"http://127.0.0.1:{port}/readyz").status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"{name} did not become ready on port {port} within {timeout:.0f}s; see var/log/{name}.log")


def down() -> None:
    """Every process is asked to stop at once, then each gets up to 10 s (together, not one after another) before
    it is killed."""
    run = _run_dir()
    running = {}
    for pid_file in sorted(run.glob("*.pid")):
        pid = int(pid_file.read_text())
        if _alive(pid):
            os.killpg(pid, signal.SIGTERM)
            running[pid_file] = pid
        else:
            pid_file.unlink()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in running.values()) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid_file, pid in running.items():
        if _alive(pid):
            os.killpg(pid, signal.SIGKILL)
        print(f"stopped {pid_file.stem} (pid {pid})")
        pid_file.unlink()


def status() -> None:
    for pid_file in sorted(_run_dir().glob("*.pid")):
        pid = int(pid_file.read_text())
        print(f"{pid_file.stem}: {'running' if _alive(pid) else 'stopped'} (pid {pid})")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
