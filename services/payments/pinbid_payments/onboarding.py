"""Stripe Connect onboarding for bank payouts: an Express account per creator and its onboarding link."""

import hashlib
import uuid

from pinbid_kit import outbox
from pinbid_kit.clock import utcnow
from pinbid_kit.db import Database
from pinbid_kit.errors import BadGateway
from pinbid_kit.secrets import mask
from sqlalchemy import select, update

from . import SERVICE, events_out
from .adapters.stripe_connect import StripeConnect
from .models import PayoutSettingsRow, User
from .payout_settings import lock_row
from .ports import ProviderError
from .settings import PaymentsSettings


class Onboarding:
    def __init__(self, db: Database, settings: PaymentsSettings, connect: StripeConnect | None):
        self.db = db
        self.settings = settings
        self.connect = connect  # None: the sandbox, where onboarding completes at once

    async def link(self, creator_id: uuid.UUID) -> str:
        """Stripe is called outside any transaction: the account is created under an idempotency key of the
        creator, so racing requests get one account, and the first id recorded stays."""
        done = self.settings.browser_url("/earnings?onboarding=done")
        async with self.db.transaction() as session:
            row = await lock_row(session, creator_id)
            if self.connect is None:
                if row.stripe_account_id is None:
                    row.stripe_account_id = "acct_test_" + hashlib.sha256(creator_id.bytes).hexdigest()[:16]
                    await connected(session, creator_id, row.stripe_account_id)
                return done
            account_id, country = row.stripe_account_id, "GB" if row.currency == "GBP" else "US"
            email = await session.scalar(select(User.email).where(User.id == creator_id))
        try:
            if not account_id:
                account_id = await self.connect.create_account(email, country, f"connect-{creator_id}")
                async with self.db.transaction() as session:
                    recorded = await session.execute(update(PayoutSettingsRow).where(
                        PayoutSettingsRow.creator_id == creator_id, PayoutSettingsRow.stripe_account_id.is_(None),
                    ).values(stripe_account_id=account_id))
                    if recorded.rowcount:
                        await connected(session, creator_id, account_id)
            return await self.connect.onboarding_link(
                account_id, self.settings.browser_url("/earnings?onboarding=refresh"), done)
        except ProviderError:
            raise BadGateway("Stripe is not available. Please try again.", code="provider_unavailable") from None


async def connected(session, creator_id: uuid.UUID, account_id: str) -> None:
    """A payout account was connected: announced (hashed) as a PAYOUT_ACCOUNT signal."""
    await outbox.publish_all(session, [*events_out.account_signals(
        creator_id, [("PAYOUT_ACCOUNT", f"STRIPE:{account_id}")], utcnow()),
        events_out.payout_account_changed(creator_id, "STRIPE", f"the Stripe account {mask(account_id)}", utcnow())],
        source=SERVICE)
