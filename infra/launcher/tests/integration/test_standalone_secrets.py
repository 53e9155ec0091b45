"""A service in its own process (make up, compose, Kubernetes) refuses to start without the secrets every
replica and restart must share, with one line naming the variables, and exit status 1."""

import os
import subprocess
import sys


def start(arguments: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PAYMENTS_", "GATEWAY_"))}
    return subprocess.run([sys.executable, "-m", "pinbid_launcher", *arguments], env={**clean, **env},
                          capture_output=True, text=True, timeout=60)


def test_payments_without_encryption_keys_or_jwt_public_key_refuses_to_start(tmp_path):
    refused = start(["service", "payments"], {"PINBID_VAR": str(tmp_path), "PAYMENTS_MIGRATE_ON_START": "false"})
    assert refused.returncode == 1
    [line] = refused.stderr.strip().splitlines()
    assert line.startswith("Refusing to start: Set PAYMENTS_ENCRYPTION_KEYS")
    assert "PAYMENTS_JWT_PUBLIC_KEY_FILE" in line


def test_the_gateway_without_a_jwt_public_key_refuses_to_start(tmp_path):
    refused = start(["gateway"], {"PINBID_VAR": str(tmp_path)})
    assert refused.returncode == 1
    [line] = refused.stderr.strip().splitlines()
    assert line.startswith("Refusing to start: Set GATEWAY_JWT_PUBLIC_KEY_FILE")
