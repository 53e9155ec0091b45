"""GET/PUT /influencer/payout-settings: validated by the spec's rules, bank and PayPal details sealed at rest."""

import uuid
from dataclasses import replace

from pinbid_kit import outbox
from pinbid_kit.clock import utcnow
from pinbid_kit.db import Database
from pinbid_kit.errors import Invalid
from pinbid_kit.events.trust import normalized_email, normalized_name
from pinbid_kit.secrets import SecretBox, mask
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, events_out
from .domain.payout_settings import DEFAULTS, PayoutSettings, normalized, problems
from .models import PayoutSettingsRow

MASK_PREFIX = "••••"
_SEALED = {"paypal_email": "paypal_email_sealed", "bank_account": "bank_account_sealed",
           "routing_number": "routing_number_sealed", "sort_code": "sort_code_sealed"}


class PayoutSettingsService:
    def __init__(self, db: Database, box: SecretBox):
        self.db = db
        self.box = box

    def _open(self, row: PayoutSettingsRow) -> PayoutSettings:
        secrets = {field: self.box.open(getattr(row, column)) if getattr(row, column) else None
                   for field, column in _SEALED.items()}
        return PayoutSettings(payout_method=row.payout_method, minimum_payout=row.minimum_payout,
                              schedule=row.schedule, currency=row.currency, account_name=row.account_name,
                              tax_form_submitted=row.tax_form_submitted, **secrets)

    async def stored(self, session: AsyncSession, creator_id: uuid.UUID) -> PayoutSettings | None:
        row = await session.get(PayoutSettingsRow, creator_id)
        return self._open(row) if row else None

    async def read(self, creator_id: uuid.UUID) -> tuple[PayoutSettings, bool]:
        """The settings with secrets masked, and whether they were ever saved (else the defaults)."""
        async with self.db.transaction() as session:
            current = await self.stored(session, creator_id)
        if current is None:
            return DEFAULTS, False
        return masked(current), True

    async def save(self, creator_id: uuid.UUID, wanted: PayoutSettings) -> PayoutSettings:
        async with self.db.transaction() as session:
            row = await lock_row(session, creator_id)
            current = self._open(row)
            wanted = _keep_masked(wanted, current)
            broken = problems(wanted)
            if broken:
                error = Invalid(" ".join(message for _, message in broken), field=broken[0][0],
                                code="invalid_payout_settings")
                error.errors = [{"field": field, "message": message} for field, message in broken]
                raise error
            clean = normalized(wanted)
            row.payout_method = clean.payout_method
            row.minimum_payout = clean.minimum_payout
            row.schedule = clean.schedule
            row.currency = clean.currency or "USD"
            row.account_name = clean.account_name
            row.tax_form_submitted = clean.tax_form_submitted
            for field, column in _SEALED.items():
                value = getattr(clean, field)
                setattr(row, column, self.box.seal(value) if value else None)
            await session.flush()
            observed = [("PAYOUT_ACCOUNT", account) for account in payout_accounts(clean) - payout_accounts(current)]
            observed += sorted(crossing_signals(clean) - crossing_signals(current))
            events: list = events_out.account_signals(creator_id, observed, utcnow())
            if payout_accounts(clean) - payout_accounts(current):
                events.append(events_out.payout_account_changed(creator_id, clean.payout_method,
                                                                described_account(clean), utcnow()))
            await outbox.publish_all(session, events, source=SERVICE)
        return masked(clean)


async def lock_row(session: AsyncSession, creator_id: uuid.UUID) -> PayoutSettingsRow:
    """The creator's row, locked for this transaction. A first save creates it with the defaults first
    (an upsert), so many first saves at once queue on one row instead of failing on the primary key;
    if the transaction fails, the row goes with it."""
    await session.execute(insert(PayoutSettingsRow).values(
        creator_id=creator_id, payout_method=DEFAULTS.payout_method, minimum_payout=DEFAULTS.minimum_payout,
        schedule=DEFAULTS.schedule, currency=DEFAULTS.currency, tax_form_submitted=DEFAULTS.tax_form_submitted,
    ).on_conflict_do_nothing())
    return await session.get(PayoutSettingsRow, creator_id, with_for_update=True, populate_existing=True)


def _keep_masked(wanted: PayoutSettings, current: PayoutSettings | None) -> PayoutSettings:
    """A masked value sent back unchanged means "keep what is stored"."""
    changes = {}
    for field in _SEALED:
        value = getattr(wanted, field)
        if value and MASK_PREFIX in value:
            stored = getattr(current, field) if current else None
            changes[field] = stored if stored and masked_value(field, stored) == value else None
    return replace(wanted, **changes)


def payout_accounts(s: PayoutSettings) -> set[str]:
    """Where money can be sent, as one person holds it: a PayPal address, a bank account (with its routing number or
    sort code). Each new one is announced (hashed) as a PAYOUT_ACCOUNT signal."""
    accounts = set()
    if s.paypal_email:
        accounts.add(f"PAYPAL:{s.paypal_email.strip().lower()}")
    if s.bank_account:
        digits = "".join(ch for ch in s.bank_account if ch.isalnum()).upper()
        branch = "".join(ch for ch in (s.routing_number or s.sort_code or "") if ch.isalnum())
        accounts.add(f"BANK:{branch}:{digits}")
    return accounts


def crossing_signals(s: PayoutSettings | None) -> set[tuple[str, str]]:
    """What a brand can be seen holding too (docs/decisions/trust.md): the PayPal payout address is a mailbox
    (EMAIL, hard), the bank account's holder a person's name (NAME, soft), each announced when new."""
    if s is None:
        return set()
    found = set()
    if s.paypal_email and (mailbox := normalized_email(s.paypal_email)) is not None:
        found.add(("EMAIL", mailbox))
    if s.bank_account and s.account_name and (name := normalized_name(s.account_name)) is not None:
        found.add(("NAME", name))
    return found


def masked_value(field: str, value: str | None) -> str | None:
    if not value:
        return None
    if field == "paypal_email" and "@" in value:
        local, _, domain = value.partition("@")
        return f"{local[:1]}{MASK_PREFIX}@{domain}"  # enough for the creator to recognise it
    return mask(value)


def described_account(s: PayoutSettings) -> str:
    """Where payouts go, masked, in words for the creator's notice."""
    if s.payout_method == "PAYPAL":
        return f"the PayPal address {masked_value('paypal_email', s.paypal_email)}"
    return f"the bank account {masked_value('bank_account', s.bank_account)}"


def masked(s: PayoutSettings) -> PayoutSettings:
    return replace(s, **{field: masked_value(field, getattr(s, field)) for field in _SEALED})
