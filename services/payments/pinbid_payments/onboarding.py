"""Stripe Connect onboarding for bank payouts: an Express account per creator and its onboarding link."""

import hashlib
import uuid

from pinbid_kit.db import Database
from pinbid_kit.errors import BadGateway
from sqlalchemy import select

from .models import PayoutSettingsRow, User
from .providers.ports import ProviderError
from .providers.stripe_connect import StripeConnect
from .settings import PaymentsSettings


class Onboarding:
    def __init__(self, db: Database, settings: PaymentsSettings, connect: StripeConnect | None):
        self.db = db
        self.settings = settings
        self.connect = connect  # None: the sandbox, where onboarding completes at once

    async def link(self, creator_id: uuid.UUID) -> str:
        done = self.settings.browser_url("/earnings?onboarding=done")
        async with self.db.transaction() as session:
            row = await session.get(PayoutSettingsRow, creator_id, with_for_update=True)
            if row is None:
                row = PayoutSettingsRow(creator_id=creator_id, payout_method="BANK_TRANSFER", minimum_payout=50,
                                        schedule="MONTHLY", currency="USD", tax_form_submitted=False)
                session.add(row)
            if self.connect is None:
                row.stripe_account_id = row.stripe_account_id or (
                    "acct_test_" + hashlib.sha256(creator_id.bytes).hexdigest()[:16])
                return done
            try:
                if not row.stripe_account_id:
                    email = await session.scalar(select(User.email).where(User.id == creator_id))
                    country = "GB" if row.currency == "GBP" else "US"
                    row.stripe_account_id = await self.connect.create_account(email, country, f"connect-{creator_id}")
                return await self.connect.onboarding_link(
                    row.stripe_account_id, self.settings.browser_url("/earnings?onboarding=refresh"), done)
            except ProviderError:
                raise BadGateway("Stripe is not available. Please try again.", code="provider_unavailable") from None
