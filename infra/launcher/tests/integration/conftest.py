"""The walks' fixture: social, payments and marketplace built on fresh databases, run on one in-process bus (as
`make run` wires them) and one movable clock, their background jobs left to the walk (walk.py)."""

from datetime import UTC, datetime

import httpx
import pytest
from cryptography.fernet import Fernet
from pinbid_marketplace.app import build as build_marketplace
from pinbid_marketplace.settings import MarketplaceSettings
from pinbid_payments.app import build as build_payments
from pinbid_payments.settings import PaymentsSettings
from pinbid_social.app import build as build_social
from pinbid_social.settings import SocialSettings
from pinbid_testing import MovableClock, client, running

from .walk import PUBLIC, LateASGI, Services


@pytest.fixture
def payments_overrides() -> dict:
    """Payments' settings a walk changes (parametrize this fixture's name to set them)."""
    return {}


@pytest.fixture
async def services(new_database, jwt_keys, tmp_path, payments_overrides):
    signer, public_key = jwt_keys
    clock = MovableClock(datetime.now(UTC).replace(microsecond=0))
    social = build_social(SocialSettings(
        database_url=new_database("pinbid_social"), jwt_public_key_file=public_key, object_store_dir=tmp_path / "o",
        encryption_keys=Fernet.generate_key().decode(), public_url=PUBLIC, log_json=False,
        sandbox_posts_per_account=6), clock=clock)
    holder: dict = {}
    webhooks = httpx.AsyncClient(transport=LateASGI(holder), base_url="http://test")
    payments = build_payments(PaymentsSettings(
        database_url=new_database("pinbid_payments"), jwt_public_key_file=public_key, public_url=PUBLIC,
        sandbox_webhook_url="http://test/payments/webhook", encryption_keys=Fernet.generate_key().decode(),
        log_json=False, **payments_overrides), clock=clock, http=webhooks)
    holder["app"] = payments.app
    marketplace = build_marketplace(MarketplaceSettings(
        database_url=new_database("pinbid_marketplace"), jwt_public_key_file=public_key, log_json=False),
        clock=clock)
    for service in (social, payments, marketplace):
        service.jobs = []  # the walk runs the product's jobs itself, at the simulated moments it chooses
    http = {name: client(s.app) for name, s in
            (("social", social), ("payments", payments), ("marketplace", marketplace))}
    async with running(social, payments, marketplace) as bus:
        yield Services(social, payments, marketplace, bus, clock, signer, http)
        for c in (*http.values(), webhooks):
            await c.aclose()
