"""Builds the payments service: its HTTP app, event consumers and periodic jobs."""

import httpx
from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from pinbid_kit.http import create_app
from pinbid_kit.inbox import Consumers
from pinbid_kit.revocations import keep_revocations
from pinbid_kit.runtime import Job, Service
from pinbid_kit.tokens import TokenVerifier

from . import SERVICE, handlers
from .adapters import build_providers
from .api import ROUTERS
from .campaigns import Campaigns
from .checkout import Checkout
from .models import token_revocations
from .onboarding import Onboarding
from .operator_refunds import OperatorPayments
from .payment_requests import PaymentRequests
from .payout_settings import PayoutSettingsService
from .payouts import PayoutWorker
from .queries import DeskQueries, Earnings
from .refunds import Refunds
from .sandbox_pages import router as sandbox_router
from .settings import PaymentsSettings
from .webhooks import Webhooks


def build(settings: PaymentsSettings | None = None, *, clock: Clock = utcnow,
          http: httpx.AsyncClient | None = None) -> Service:
    """`http` carries the sandbox's webhooks and PayPal's calls (tests pass one bound to a local app)."""
    settings = settings or PaymentsSettings()
    db = Database.from_settings(settings)
    verifier = TokenVerifier.from_file(settings.jwt_public_key_file)
    providers = build_providers(settings, db, http=http, clock=clock)

    requests = PaymentRequests(db, settings, clock)
    checkout = Checkout(db, settings, providers.checkout, clock)
    campaigns = Campaigns(db, settings, providers.checkout, checkout, clock)
    webhooks = Webhooks(db, settings, providers.checkout, clock)
    earnings = Earnings(db, clock)
    payout_settings = PayoutSettingsService(db, settings.secret_box())
    onboarding = Onboarding(db, settings, providers.connect)
    refunds = Refunds(db, providers.checkout, clock)
    payouts = PayoutWorker(db, payout_settings, providers.payouts, stripe_connect_live=providers.connect is not None,
                           clock=clock, batch_size=settings.payout_batch_size)

    consumers = Consumers(SERVICE, db)
    consumers.register_map(handlers.HANDLERS, handlers.Dependencies(requests, campaigns))
    service = Service(name=SERVICE, db=db, consumers=consumers, revocations=verifier.revocations,
                      load_revocations=keep_revocations(consumers, token_revocations, verifier.revocations))
    service.state = {"requests": requests, "checkout": checkout, "campaigns": campaigns, "webhooks": webhooks,
                     "earnings": earnings, "payout_settings": payout_settings, "payouts": payouts, "refunds": refunds,
                     "sandbox": providers.sandbox, "settings": settings}
    routers = [*ROUTERS, sandbox_router] if settings.checkout_provider == "sandbox" else ROUTERS
    service.app = create_app(SERVICE, routers=routers, checks=service.readiness_checks(),
                             state={**service.state, "onboarding": onboarding, "verifier": verifier,
                                    "operator_payments": OperatorPayments(db, refunds, clock),
                                    "payment_desk": DeskQueries(db)},
                             description="Checkout, provider webhooks, the ledger, earnings, payouts and "
                                         "payout settings.")
    service.jobs = [
        Job("expire-payment-requests", requests.expire_due, every_seconds=5),
        Job("refunds", refunds.run_once, every_seconds=60),
        Job("campaign-returns", campaigns.return_due, every_seconds=60),
        Job("payouts", payouts.run_once, every_seconds=60),
        Job("sandbox-webhooks", providers.sandbox.deliver_due, every_seconds=2),
        Job("sandbox-expire", providers.sandbox.expire_sessions, every_seconds=30),
    ]
    return service
