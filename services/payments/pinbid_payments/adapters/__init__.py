"""The payment systems behind the ports (the sandbox, Stripe Checkout, Stripe Connect, PayPal), and which of
them this installation talks to, chosen from its settings."""

from dataclasses import dataclass

import httpx
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database

from ..ports import CheckoutProvider, PayoutProvider
from ..settings import PaymentsSettings
from .paypal import PayPalPayouts
from .sandbox import SandboxProvider
from .stripe_checkout import StripeCheckout, stripe_client
from .stripe_connect import StripeConnect


@dataclass
class Providers:
    checkout: CheckoutProvider
    payouts: dict[str, PayoutProvider]  # by payout method
    sandbox: SandboxProvider
    connect: StripeConnect | None = None  # live payouts only


def build_providers(settings: PaymentsSettings, db: Database, *, http: httpx.AsyncClient | None,
                    clock: Clock) -> Providers:
    sandbox = SandboxProvider(db, page_url=settings.browser_url("/api/payments/sandbox/checkout"),
                              webhook_url=settings.webhook_url(), webhook_secret=settings.webhook_secret, http=http,
                              clock=clock)
    stripe = stripe_client(settings.stripe_api_key, settings.stripe_api_base) if settings.stripe_api_key else None

    # the settings refuse to start Stripe or live payouts without their keys (PaymentsSettings.problems)
    checkout_provider: CheckoutProvider = sandbox
    if settings.checkout_provider == "stripe":
        checkout_provider = StripeCheckout(stripe)
    payout_providers: dict[str, PayoutProvider] = {"BANK_TRANSFER": sandbox, "PAYPAL": sandbox}
    connect = None
    if settings.payout_provider == "live":
        connect = StripeConnect(stripe)
        payout_providers = {"BANK_TRANSFER": connect, "PAYPAL": PayPalPayouts(
            settings.paypal_api_base, settings.paypal_client_id, settings.paypal_client_secret, http=http)}
    return Providers(checkout=checkout_provider, payouts=payout_providers, sandbox=sandbox, connect=connect)
