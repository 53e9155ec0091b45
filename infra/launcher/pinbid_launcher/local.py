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

from . import connections, services

BASE_PORT = int(os.environ.get("PINBID_BASE_PORT", "8101"))
DB_PREFIX = os.environ.get("PINBID_DB_PREFIX", "pinbid")
GATEWAY_PORT = int(os.environ.get("PINBID_GATEWAY_PORT", "8000"))
PG = os.environ.get("PINBID_PG_URL", "postgresql://postgres@127.0.0.1:5432")
AMQP = os.environ.get("PINBID_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/")
REPLICAS = os.environ.get("PINBID_REPLICAS", "1")
PORTS_PER_REPLICA = 10  # replica r of the service at index i listens on BASE_PORT + i + 10 * (r - 1)
BUS_PREFIX_FILE = "bus-prefix"  # under var/run: the run's bus prefix, for the operator commands


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
    public_url = f"http://localhost:{GATEWAY_PORT}"  # passkeys need a host name, never an IP address
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
    check_ports(entries)
    return entries


def check_ports(entries: list[tuple[str, list[str], dict[str, str], int]]) -> None:
    """Refuses a plan that puts two processes on one port (PINBID_BASE_PORT just above PINBID_GATEWAY_PORT with
    REPLICAS=2 put the second gateway on identity's port), or a port that cannot be, before anything starts."""
    owners: dict[int, str] = {}
    for name, _, _, port in entries:
        if not 1 <= port <= 65535:
            raise SystemExit(f"{name} would listen on port {port}, which cannot be: choose PINBID_BASE_PORT and "
                             "PINBID_GATEWAY_PORT so that every port is from 1 to 65535")
        if port in owners:
            count = replicas()
            raise SystemExit(
                f"The port plan overlaps: {owners[port]} and {name} would both listen on port {port}. The gateways "
                f"take PINBID_GATEWAY_PORT={GATEWAY_PORT} to {GATEWAY_PORT + count - 1}; the services take "
                f"PINBID_BASE_PORT={BASE_PORT} to {BASE_PORT + len(services.installed()) - 1}"
                + (f", plus {PORTS_PER_REPLICA} for each further replica" if count > 1 else "")
                + ": choose ports whose ranges do not meet. Nothing was started.")
        owners[port] = name


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
    # here, not at the top: the token module brings the database layer, which `dlq` (reading this module's
    # recorded prefix) has no use for, and each such command paid 0.9 s of CPU importing it
    from pinbid_kit.tokens import generate_keypair

    run = _run_dir()
    # identity signs with this key and every other process verifies with it: make it before any starts
    generate_keypair(var_dir() / "keys" / "jwt-ed25519.pem", var_dir() / "keys" / "jwt-ed25519.pub")
    entries = plan()
    # what `dlq` reads when nothing names the bus: this run's (dead_letters.py)
    (run / BUS_PREFIX_FILE).write_text(DB_PREFIX)
    print(f"database connections: at most {most_connections(entries)} for this run "
          f"({connections.ENV}, docs/operations.md)")
    started: dict[str, subprocess.Popen] = {}
    for name, command, env, port in entries:
        pid_file = run / f"{name}.pid"
        if pid_file.exists() and _alive(int(pid_file.read_text())):
            print(f"{name} already running (pid {pid_file.read_text().strip()})")
            continue
        log = open(var_dir() / "log" / f"{name}.log", "ab")
        process = subprocess.Popen(command, env={**os.environ, **env}, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        pid_file.write_text(str(process.pid))
        started[name] = process
        print(f"started {name} (pid {process.pid}) on port {port}; log var/log/{name}.log")
    with httpx.Client(timeout=2) as http:  # one client: each new one builds a TLS context, 20-30 ms of CPU
        for name, _, _, port in entries:
            wait_ready(http, name, port, started.get(name))
    gateways = ", ".join(f"http://127.0.0.1:{GATEWAY_PORT + r}" for r in range(replicas()))
    print(f"Pinbid (distributed) is up at {gateways}")


def service_of(process: str) -> str:
    """The service a process of the plan runs ("identity-2" runs identity); /readyz answers with it."""
    return process.split("-")[0]


def wait_ready(http: httpx.Client, name: str, port: int, process: subprocess.Popen | None = None,
               timeout: float = 60) -> None:
    """Until the process answers /readyz on its port as its own service. Another service answering there (a port
    someone else holds), or our process gone, stops the wait at once with one line."""
    expected = service_of(name)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise SystemExit(f"{name} exited (status {process.returncode}) before it was ready on port {port}; "
                             f"see var/log/{name}.log")
        try:
            response = http.get(f"http://127.0.0.1:{port}/readyz")
        except httpx.HTTPError:
            response = None
        answered = _answering(response)
        if answered is not None and answered != expected:
            raise SystemExit(f"port {port} answers as {answered}, not {expected}: another process holds the port "
                             f"{name} was to listen on; see var/log/{name}.log")
        if response is not None and response.status_code == 200 and answered == expected:
            return
        time.sleep(0.3)
    raise SystemExit(f"{name} did not become ready on port {port} within {timeout:.0f}s; see var/log/{name}.log")


def _answering(response: httpx.Response | None) -> str | None:
    """The service a /readyz answer names (None: no answer, or not one of ours)."""
    if response is None:
        return None
    try:
        body = response.json()
    except ValueError:
        return "something that is not Pinbid"
    service = body.get("service") if isinstance(body, dict) else None
    return service if isinstance(service, str) else "something that is not Pinbid"


def recorded_bus_prefix() -> str | None:
    """The bus prefix of the last `make up` run from this var/ folder, if any."""
    path = var_dir() / "run" / BUS_PREFIX_FILE
    return path.read_text().strip() if path.exists() else None


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
