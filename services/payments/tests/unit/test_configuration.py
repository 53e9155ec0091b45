"""Payments refuses to start in an unsafe configuration, with one line naming the variable."""

import os
import subprocess
import sys

import pytest
from cryptography.fernet import Fernet
from pinbid_kit.settings import ConfigurationError
from pinbid_payments.settings import SANDBOX_WEBHOOK_SECRET, PaymentsSettings

pytestmark = pytest.mark.slow  # run first (pinbid_testing.plugin)

KEYS = Fernet.generate_key().decode()
STRIPE = {"checkout_provider": "stripe", "stripe_api_key": "sk_test_123", "encryption_keys": KEYS}


@pytest.mark.parametrize("secret", [SANDBOX_WEBHOOK_SECRET, "", "   "])
def test_stripe_checkout_with_the_sandbox_or_an_empty_webhook_secret_refuses_to_start(secret):
    with pytest.raises(ConfigurationError, match="PAYMENTS_WEBHOOK_SECRET"):
        PaymentsSettings(**STRIPE, webhook_secret=secret)


def test_stripe_checkout_or_live_payouts_without_encryption_keys_refuse_to_start():
    with pytest.raises(ConfigurationError, match="PAYMENTS_ENCRYPTION_KEYS") as refused:
        PaymentsSettings(**{**STRIPE, "encryption_keys": ""}, webhook_secret="whsec_live_one")
    assert "PAYMENTS_WEBHOOK_SECRET" not in str(refused.value)
    with pytest.raises(ConfigurationError, match="PAYMENTS_ENCRYPTION_KEYS"):
        PaymentsSettings(payout_provider="live", stripe_api_key="sk_test_123", paypal_client_id="id",
                         paypal_client_secret="secret")


def test_missing_provider_keys_are_named_too():
    with pytest.raises(ConfigurationError, match="PAYMENTS_STRIPE_API_KEY"):
        PaymentsSettings(checkout_provider="stripe", encryption_keys=KEYS, webhook_secret="whsec_live_one")
    with pytest.raises(ConfigurationError, match="PAYMENTS_PAYPAL_CLIENT_ID and PAYMENTS_PAYPAL_CLIENT_SECRET"):
        PaymentsSettings(payout_provider="live", stripe_api_key="sk_test_123", encryption_keys=KEYS)


def test_safe_configurations_start():
    assert PaymentsSettings().webhook_secret == SANDBOX_WEBHOOK_SECRET  # the sandbox: its secret is public
    assert PaymentsSettings(**STRIPE, webhook_secret="whsec_live_one").uses_real_providers()


def test_the_process_stops_with_one_line_and_no_traceback(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAYMENTS_")}
    env.update(PAYMENTS_CHECKOUT_PROVIDER="stripe", PAYMENTS_STRIPE_API_KEY="sk_test_123",
               PAYMENTS_ENCRYPTION_KEYS=KEYS, PINBID_VAR=str(tmp_path))
    run = subprocess.run([sys.executable, "-m", "pinbid_launcher", "service", "payments"], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Refusing to start: Set PAYMENTS_WEBHOOK_SECRET")
