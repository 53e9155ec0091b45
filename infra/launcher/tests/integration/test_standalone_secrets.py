"""A service in its own process (make up, compose, Kubernetes) checks its whole configuration before it touches
a database: without the secrets every replica and restart must share, or with a malformed setting, it refuses to
start with one line naming the variables and exit status 1, and migrates nothing."""

import os
import subprocess
import sys
import uuid

import psycopg
import pytest
from cryptography.fernet import Fernet

pytestmark = pytest.mark.slow  # run first (pinbid_testing.plugin)

UNREACHABLE_DATABASE = "postgresql://postgres@127.0.0.1:1/pinbid_payments"


def start(arguments: list[str], env: dict[str, str], cwd, *,
          program: tuple[str, ...] = ("-m", "pinbid_launcher")) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PAYMENTS_", "GATEWAY_", "IDENTITY_"))}
    # cwd: a folder without a .env file, so only `env` configures the process
    return subprocess.run([sys.executable, *program, *arguments], env={**clean, **env}, cwd=cwd,
                          capture_output=True, text=True, timeout=60)


def refusal(process: subprocess.CompletedProcess) -> str:
    assert process.returncode == 1, process.stderr
    assert "Traceback" not in process.stderr
    [line] = process.stderr.strip().splitlines()
    return line


def test_payments_without_encryption_keys_or_jwt_public_key_refuses_to_start(tmp_path):
    line = refusal(start(["service", "payments"], {"PINBID_VAR": str(tmp_path), "PAYMENTS_MIGRATE_ON_START": "false"},
                         tmp_path))
    assert line.startswith("Refusing to start: Set PAYMENTS_ENCRYPTION_KEYS")
    assert "PAYMENTS_JWT_PUBLIC_KEY_FILE" in line


def test_a_missing_key_is_reported_before_an_unreachable_database_is_tried(tmp_path):
    line = refusal(start(["service", "payments"], {"PINBID_VAR": str(tmp_path),
                                                   "PAYMENTS_DATABASE_URL": UNREACHABLE_DATABASE}, tmp_path))
    assert line.startswith("Refusing to start: Set PAYMENTS_ENCRYPTION_KEYS")
    assert "OperationalError" not in line and "127.0.0.1:1" not in line


def test_a_missing_key_stops_payments_before_it_creates_or_migrates_its_database(postgres_url, tmp_path):
    name = f"test_never_migrated_{uuid.uuid4().hex[:10]}"
    line = refusal(start(["service", "payments"], {"PINBID_VAR": str(tmp_path),
                                                   "PAYMENTS_DATABASE_URL": f"{postgres_url}/{name}"}, tmp_path))
    assert line.startswith("Refusing to start: Set PAYMENTS_ENCRYPTION_KEYS")
    with psycopg.connect(f"{postgres_url}/postgres") as conn:  # migrating would have created it first
        assert conn.execute("SELECT count(*) FROM pg_database WHERE datname = %s", (name,)).fetchone() == (0,)


def test_a_malformed_url_is_named_before_the_database_is_tried(tmp_path):
    line = refusal(start(["service", "payments"], {"PINBID_VAR": str(tmp_path),
                                                   "PAYMENTS_DATABASE_URL": UNREACHABLE_DATABASE,
                                                   "PAYMENTS_PUBLIC_URL": "pinbid.example"}, tmp_path))
    assert line.startswith("Refusing to start: PAYMENTS_PUBLIC_URL: must be an http(s) URL with a host")


def test_identity_needs_no_key_pair_it_can_make_but_a_pair_it_cannot_write_is_named(tmp_path):
    unwritable = tmp_path / "a-file-not-a-folder"  # no folder can be made here, not even by root
    unwritable.write_text("")
    line = refusal(start(["service", "identity"], {
        "PINBID_VAR": str(tmp_path), "IDENTITY_DATABASE_URL": UNREACHABLE_DATABASE.replace("payments", "identity"),
        "IDENTITY_PUBLIC_URL": "http://127.0.0.1:8000", "IDENTITY_JWT_PRIVATE_KEY_FILE": str(unwritable / "k.pem"),
        "IDENTITY_JWT_PUBLIC_KEY_FILE": str(unwritable / "k.pub"),
        "IDENTITY_ENCRYPTION_KEYS": Fernet.generate_key().decode()}, tmp_path))
    assert line.startswith("Refusing to start: Set IDENTITY_JWT_PRIVATE_KEY_FILE")
    assert "IDENTITY_JWT_PUBLIC_KEY_FILE" not in line  # identity makes the public key with the private one


def test_identity_without_encryption_keys_refuses_to_start_naming_them(tmp_path):
    """They seal the operators' TOTP secrets: every replica must read what another sealed."""
    line = refusal(start(["service", "identity"], {
        "PINBID_VAR": str(tmp_path), "IDENTITY_DATABASE_URL": UNREACHABLE_DATABASE.replace("payments", "identity"),
        "IDENTITY_PUBLIC_URL": "http://127.0.0.1:8000"}, tmp_path))
    assert line.startswith("Refusing to start: Set IDENTITY_ENCRYPTION_KEYS")


def test_the_gateway_without_a_jwt_public_key_refuses_to_start(tmp_path):
    line = refusal(start(["gateway"], {"PINBID_VAR": str(tmp_path)}, tmp_path))
    assert line.startswith("Refusing to start: Set GATEWAY_JWT_PUBLIC_KEY_FILE")


def test_the_gateway_with_a_malformed_service_url_refuses_to_start(tmp_path):
    line = refusal(start(["gateway"], {"PINBID_VAR": str(tmp_path), "GATEWAY_PAYMENTS_URL": "payments:8000"}, tmp_path))
    assert "GATEWAY_PAYMENTS_URL: must be an http(s) URL with a host, not 'payments:8000'." in line


@pytest.mark.parametrize("arguments", [["service", "payments"], ["gateway"]])
def test_a_refusal_comes_before_the_web_stack_or_the_service_is_imported(arguments, tmp_path):
    """A pod that cannot run stops in a fraction of a second on every restart (configuration.py)."""
    watch = ("fastapi", "uvicorn", "sqlalchemy", "aio_pika", "pinbid_payments.app", "pinbid_gateway.app")
    probe = ("import atexit, runpy, sys\n"
             f"atexit.register(lambda: print('imported:', [m for m in {watch!r} if m in sys.modules],\n"
             "                               file=sys.stderr))\n"
             "sys.argv[0] = 'pinbid'\n"
             "runpy.run_module('pinbid_launcher', run_name='__main__')")
    process = start(arguments, {"PINBID_VAR": str(tmp_path)}, tmp_path, program=("-c", probe))
    assert process.returncode == 1 and "Refusing to start" in process.stderr, process.stderr
    assert process.stderr.strip().splitlines()[-1] == "imported: []"
