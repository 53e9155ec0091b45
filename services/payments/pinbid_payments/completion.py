"""The hot webhook: `checkout.session.completed` for a payment that waits for it. Two statements, each its own
transaction (autocommit): one read of the payment with whether this event was seen before, and one write of
everything, all or nothing, guarded by the payment's state: the payment COMPLETED, the webhook recorded, the
creator's pending earning, the ledger transaction with its entries (accounts opened as needed), the
PaymentCompleted event with the NOTIFY that wakes the relay.

If the payment is no longer REQUESTED when the write runs (another delivery of the same event, or the pay window
closing at that moment), the UPDATE that waited for the other writer finds its condition false and nothing is
written: the general path (webhooks.py) decides, in its locking transaction. A repeated delivery is one read.
"""

import uuid
from datetime import datetime, timedelta

from pinbid_kit.clock import replayed
from pinbid_kit.db import Database
from pinbid_kit.outbox import NOTIFY_CHANNEL, outbox_rows
from sqlalchemy import text

from . import SERVICE, events_out
from .domain import ledger
from .domain.webhooks import CheckoutPaid
from .models import Payment
from .settlement import money_of

PAYMENT_COLUMNS = tuple(c.name for c in Payment.__table__.columns)

_READ = text(f"""
    SELECT EXISTS (SELECT 1 FROM webhook_events WHERE id = :event_id) AS seen,
           {", ".join(f"p.{c}" for c in PAYMENT_COLUMNS)}
    FROM (SELECT 1) AS one LEFT JOIN payments p ON p.id = :payment_id""")

_WRITE = text(f"""
    WITH paid AS (
        UPDATE payments SET status = 'COMPLETED', completed_at = :now, provider_session_id = :session_id,
                            payment_intent = :payment_intent, pin_deadline_at = :pin_deadline_at
        WHERE id = :payment_id AND status = 'REQUESTED'
        RETURNING id),
    recorded AS (
        INSERT INTO webhook_events (id, type, outcome)
        SELECT :event_id, :event_type, 'completed' FROM paid
        ON CONFLICT (id) DO NOTHING),
    earning AS (
        INSERT INTO earnings (payment_id, bid_id, creator_id, buyer_id, slot_title, gross_cents, fee_cents, net_cents,
                              currency, status, earned_at)
        SELECT id, :bid_id, :creator_id, :buyer_id, :slot_title, :gross_cents, :fee_cents, :net_cents, :currency,
               'PENDING', :now FROM paid),
    accounts AS (
        INSERT INTO ledger_accounts (account, normal_side, balance_cents)
        SELECT v.account, v.side, 0 FROM unnest(CAST(:accounts AS text[]), CAST(:sides AS text[])) AS v(account, side)
        WHERE EXISTS (SELECT 1 FROM paid)
        ON CONFLICT (account) DO NOTHING),
    transaction AS (
        INSERT INTO ledger_transactions (id, kind, payment_id, created_at)
        SELECT :transaction_id, :kind, id, coalesce(CAST(:replayed AS timestamptz), now()) FROM paid),
    entries AS (
        INSERT INTO ledger_entries (transaction_id, account, amount_cents)
        SELECT :transaction_id, v.account, v.cents
        FROM unnest(CAST(:accounts AS text[]), CAST(:amounts AS bigint[])) WITH ORDINALITY AS v(account, cents, n)
        WHERE EXISTS (SELECT 1 FROM paid) ORDER BY v.n),
    events AS (
        INSERT INTO outbox (id, type, envelope, headers)
        SELECT * FROM unnest(CAST(:event_ids AS uuid[]), CAST(:event_types AS text[]),
                             CAST(:envelopes AS jsonb[]), CAST(:headers AS jsonb[]))
        WHERE EXISTS (SELECT 1 FROM paid))
    SELECT EXISTS (SELECT 1 FROM paid) AS ok,
           CASE WHEN EXISTS (SELECT 1 FROM paid) THEN pg_notify('{NOTIFY_CHANNEL}', '') END AS notified""")


class Completions:
    def __init__(self, db: Database, *, pin_deadline: timedelta):
        self.db = db
        self.pin_deadline = pin_deadline

    async def complete(self, event: dict, paid: CheckoutPaid, now: datetime) -> str | None:
        """What was done ("duplicate", "completed"), or None when the general path must decide (an unknown or
        no longer waiting payment, an amount that does not match, a concurrent change)."""
        async with self.db.autocommit() as conn:
            row = (await conn.execute(_READ, {"event_id": event["id"], "payment_id": paid.payment_id})).one()
            if row.seen:
                return "duplicate"
            if row.id is None:
                return None
            payment = Payment(**{c: getattr(row, c) for c in PAYMENT_COLUMNS})
            if payment.status != "REQUESTED" or (paid.amount_cents, paid.currency) != (payment.amount_cents,
                                                                                      payment.currency):
                return None
            written = await conn.execute(_WRITE, self._write_parameters(event, paid, payment, now))
            return "completed" if written.scalar_one() else None

    def _write_parameters(self, event: dict, paid: CheckoutPaid, payment: Payment, now: datetime) -> dict:
        received = ledger.payment_received(payment.id, payment.buyer_id, payment.creator_id, money_of(payment))
        postings = sorted(received.postings, key=lambda p: p.account)  # balance rows locked in name order
        pin_deadline_at = now + self.pin_deadline
        completed = events_out.payment_completed(payment, pin_deadline_at)
        rows = outbox_rows([completed], source=SERVICE)
        return {
            "payment_id": payment.id, "now": now, "session_id": paid.session_id,
            "payment_intent": paid.payment_intent, "pin_deadline_at": pin_deadline_at,
            "event_id": event["id"], "event_type": event["type"],
            "bid_id": payment.bid_id, "creator_id": payment.creator_id, "buyer_id": payment.buyer_id,
            "slot_title": payment.slot_title, "gross_cents": payment.price_cents, "fee_cents": payment.fee_cents,
            "net_cents": payment.creator_cents, "currency": payment.currency,
            "transaction_id": uuid.uuid4(), "kind": received.kind, "replayed": replayed(),
            "accounts": [p.account for p in postings], "amounts": [p.amount_cents for p in postings],
            "sides": [ledger.normal_side(p.account).value for p in postings],
            "event_ids": [r["id"] for r in rows], "event_types": [r["type"] for r in rows],
            "envelopes": [r["envelope"] for r in rows], "headers": [r["headers"] for r in rows],
        }
