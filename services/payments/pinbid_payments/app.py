"""Builds the payments service: its HTTP app, event consumers and periodic jobs."""

import httpx
from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from pinbid_kit.http import create_app
from pinbid_kit.inbox import Consumers
from pinbid_kit.revocations import keep_revocations
from pinbid_kit.runtime import Job, Service
from pinbid_kit.tokens import TokenVerifier

from . import handlers
from .api import routes
from .checkout import Checkout
from .earnings import Earnings
from .models import token_revocations
from .onboarding import Onboarding
from .payment_requests import PaymentRequests
from .payout_settings import PayoutSettingsService
from .payouts import PayoutWorker
from .providers.paypal import PayPalPayouts
from .providers.ports import CheckoutProvider, PayoutProvider
from .providers.sandbox import SandboxProvider
from .providers.stripe_checkout import StripeCheckout, stripe_client
from .providers.stripe_connect import StripeConnect
from .refunds import Refunds
from .sandbox_pages import sandbox_routes
from .settings import PaymentsSettings
from .webhooks import Webhooks

NAME = "payments"
SETTINGS = PaymentsSettings


def build(settings: PaymentsSettings | None = None, *, clock: Clock = utcnow,
          http: httpx.AsyncClient | None = None) -> Service:
    """`http` carries the sandbox's webhooks and PayPal's calls (tests pass one bound to a local app)."""
    settings = settings or PaymentsSettings()
    db = Database.from_settings(settings)
    verifier = TokenVerifier.from_file(settings.jwt_public_key_file)
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

    requests = PaymentRequests(db, settings, clock)
    checkout = Checkout(db, settings, checkout_provider, clock)
    webhooks = Webhooks(db, settings, checkout_provider, clock)
    earnings = Earnings(db, clock)
    payout_settings = PayoutSettingsService(db, settings.secret_box())
    onboarding = Onboarding(db, settings, connect)
    refunds = Refunds(db, checkout_provider, clock)
    payouts = PayoutWorker(db, payout_settings, payout_providers, stripe_connect_live=connect is not None,
                           clock=clock, batch_size=settings.payout_batch_size)

    consumers = Consumers(NAME, db)
    handlers.register(consumers, requests)
    service = Service(name=NAME, db=db, consumers=consumers, revocations=verifier.revocations,
                      load_revocations=keep_revocations(consumers, token_revocations, verifier.revocations))
    routers = routes(checkout, webhooks, earnings, payout_settings, onboarding, verifier)
    if settings.checkout_provider == "sandbox":
        routers.append(sandbox_routes(sandbox))
    service.app = create_app(NAME, routers=routers, checks=service.readiness_checks(),
                             description="Checkout, provider webhooks, the ledger, earnings, payouts and "
                                         "payout settings.")
    service.jobs = [
        Job("expire-payment-requests", requests.expire_due, every_seconds=5),
        Job("refunds", refunds.run_once, every_seconds=60),
        Job("payouts", payouts.run_once, every_seconds=60),
        Job("sandbox-webhooks", sandbox.deliver_due, every_seconds=2),
        Job("sandbox-expire", sandbox.expire_sessions, every_seconds=30),
    ]
    service.state = {"requests": requests, "checkout": checkout, "webhooks": webhooks, "earnings": earnings,
                     "payout_settings": payout_settings, "payouts": payouts, "refunds": refunds, "sandbox": sandbox,
                     "settings": settings}
    return service
