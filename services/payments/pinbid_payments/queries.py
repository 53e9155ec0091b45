"""What the screens read about money: creators and buyers about their own (`Earnings`), the operator's desk about
a bid's or a user's payments and what each outcome of a dispute would move (`DeskQueries`)."""

import csv
import io
import uuid
from datetime import UTC, datetime
from decimal import Decimal

from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from pinbid_kit.errors import NotFound
from sqlalchemy import case, func, or_, select

from . import bookkeeping, settlement
from .domain import disputes, ledger, stages
from .domain.money import to_money
from .domain.months import last_months, month_label, series
from .models import Campaign, CreatorRecovery, Earning, EarningRelease, LedgerAccount, Payment, Payout, User

CHART_MONTHS = 6


class Earnings:
    def __init__(self, db: Database, clock: Clock = utcnow):
        self.db = db
        self.clock = clock

    async def summary(self, creator_id: uuid.UUID) -> dict[str, Decimal]:
        """Nothing counts as earned until it is released (a dispute, a pin awaiting the brand's acceptance hold
        releases back). totalEarnings: the creator's share released so far on sales not refunded in full (a
        placement ended early keeps what was released); thisMonthEarnings: of that, released this calendar month
        (UTC); pendingPayouts: of that, what no paid payout has paid yet; pendingBalance: paid by brands and not
        released yet; releasedEarnings: the same as totalEarnings; refundedEarnings: what brands got back of this
        creator's sales, gross (the amounts of their refunds, as the brand is told)."""
        now = self.clock().astimezone(UTC)
        month_start = datetime(now.year, now.month, 1, tzinfo=UTC)
        kept = Earning.status != "REFUNDED"
        async with self.db.transaction() as session:
            released = int(await session.scalar(
                select(func.coalesce(func.sum(case((kept, Earning.released_cents), else_=0)), 0))
                .where(Earning.creator_id == creator_id)))
            this_month = int(await session.scalar(_released_kept(creator_id).where(
                EarningRelease.released_at >= month_start)))
            refunded = int(await session.scalar(select(func.coalesce(func.sum(_refunded_to_brand()), 0))
                .join(Earning, Earning.payment_id == Payment.id).where(Payment.creator_id == creator_id)))
            paid_out = await session.scalar(
                select(func.coalesce(func.sum(EarningRelease.cents), 0))
                .join(Payout, Payout.id == EarningRelease.payout_id)
                .join(Earning, Earning.payment_id == EarningRelease.payment_id)
                .where(EarningRelease.creator_id == creator_id, Payout.status == "PAID", kept))
            pending = await bookkeeping.balance(session, ledger.creator_pending(creator_id))
            available = await bookkeeping.balance(session, ledger.creator_available(creator_id))
            owed = await bookkeeping.balance(session, ledger.creator_owed(creator_id))
        # owed money is taken from the available balance as soon as there is any, so the two are never both
        # positive: the balance shown is negative while the creator owes money
        return {"total_earnings": to_money(released), "this_month_earnings": to_money(this_month),
                "pending_payouts": to_money(released - paid_out), "pending_balance": to_money(pending),
                "available_balance": to_money(available - owed), "released_earnings": to_money(released),
                "refunded_earnings": to_money(refunded), "owed": to_money(owed)}

    async def monthly(self, creator_id: uuid.UUID, months: int = CHART_MONTHS) -> list[dict[str, object]]:
        """Per month: the creator's share released on sales not refunded in full (by the day released), and the
        payouts paid (by the day they were paid), in cents."""
        labels = last_months(self.clock().astimezone(UTC), months)
        since = _month_start(labels[0])
        async with self.db.transaction() as session:
            earned = (await session.execute(select(EarningRelease.released_at, EarningRelease.cents)
                                            .join(Earning, Earning.payment_id == EarningRelease.payment_id)
                                            .where(EarningRelease.creator_id == creator_id,
                                                   Earning.status != "REFUNDED",
                                                   EarningRelease.released_at >= since))).all()
            paid = (await session.execute(select(Payout.settled_at, Payout.net_cents).where(
                Payout.creator_id == creator_id, Payout.status == "PAID", Payout.settled_at >= since))).all()
        return series(labels, earnings=_by_month(earned), payouts=_by_month(paid))

    async def spend_by_month(self, buyer_id: uuid.UUID, months: int = CHART_MONTHS) -> list[dict[str, object]]:
        """Per month: what the buyer paid (buyer fee included) for bids not refunded, by the day paid, in cents."""
        labels = last_months(self.clock().astimezone(UTC), months)
        async with self.db.transaction() as session:
            paid = (await session.execute(select(Payment.completed_at, Payment.amount_cents).where(
                Payment.buyer_id == buyer_id, Payment.status == "COMPLETED",
                Payment.completed_at >= _month_start(labels[0])))).all()
        return series(labels, spent=_by_month(paid))

    async def payouts(self, creator_id: uuid.UUID) -> list[Payout]:
        async with self.db.transaction() as session:
            return list(await session.scalars(select(Payout).where(Payout.creator_id == creator_id)
                                              .order_by(Payout.created_at.desc())))

    async def report_csv(self, creator_id: uuid.UUID) -> str:
        """Every earning with its buyer, amounts and payout: the spec's Download Report; then each amount the
        creator came to owe (status OWED, net negative: a refund of money already paid out) and each recovery of
        it from later earnings (status RECOVERED)."""
        async with self.db.transaction() as session:
            rows = (await session.execute(
                select(Earning, User.name, Payout.period, Payout.status)
                .outerjoin(User, User.id == Earning.buyer_id).outerjoin(Payout, Payout.id == Earning.payout_id)
                .where(Earning.creator_id == creator_id).order_by(Earning.earned_at))).all()
            recoveries = (await session.execute(
                select(CreatorRecovery, Payment.bid_id, Payment.slot_title)
                .outerjoin(Payment, Payment.id == CreatorRecovery.refunded_payment_id)
                .where(CreatorRecovery.creator_id == creator_id).order_by(CreatorRecovery.recorded_at))).all()
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["date", "bid_id", "slot", "buyer", "gross", "platform_fee", "net", "currency", "status",
                         "payout_period", "payout_status"])
        for earning, buyer, period, payout_status in rows:
            writer.writerow([earning.earned_at.date().isoformat(), earning.bid_id, _safe(earning.slot_title),
                             _safe(buyer or ""), to_money(earning.gross_cents), to_money(earning.fee_cents),
                             to_money(earning.net_cents), earning.currency, earning.status, period or "",
                             payout_status or ""])
        for recovery, bid_id, slot_title in recoveries:
            net = -recovery.cents if recovery.kind == "OWED" else recovery.cents
            writer.writerow([recovery.recorded_at.date().isoformat(), bid_id or "", _safe(slot_title or ""), "", "",
                             "", to_money(net), recovery.currency, recovery.kind, "", ""])
        return out.getvalue()

    async def total_spent(self, buyer_id: uuid.UUID) -> Decimal:
        """What the buyer's charges hold, less what its campaigns' balances still owe it (paid in, not spent)."""
        async with self.db.transaction() as session:
            charged = await bookkeeping.balance(session, ledger.buyer_charges(buyer_id))
            unspent = await session.scalar(select(func.coalesce(func.sum(LedgerAccount.balance_cents), 0)).where(
                LedgerAccount.account.in_(select(func.concat("campaign:", Campaign.id, ":balance"))
                                          .where(Campaign.buyer_id == buyer_id))))
            return to_money(charged - int(unspent))


class DeskQueries:
    """The operator's payment desk: what it reads (its refund, a write, is `operator_refunds.OperatorPayments`)."""

    def __init__(self, db: Database):
        self.db = db

    async def find(self, *, bid_id: uuid.UUID | None, user_id: uuid.UUID | None) -> list[tuple[Payment, int]]:
        """Payments with what was released to the creator, newest first."""
        conditions = []
        if bid_id is not None:
            conditions.append(Payment.bid_id == bid_id)
        if user_id is not None:
            conditions.append(or_(Payment.buyer_id == user_id, Payment.creator_id == user_id))
        async with self.db.transaction() as session:
            rows = (await session.execute(
                select(Payment, func.coalesce(Earning.released_cents, 0))
                .outerjoin(Earning, Earning.payment_id == Payment.id).where(*conditions)
                .order_by(Payment.created_at.desc()).limit(200))).all()
        return [(payment, int(released)) for payment, released in rows]

    async def standing(self, bid_id: uuid.UUID) -> tuple[Payment, disputes.Standing]:
        """A bid's payment as it stands, for what each outcome of its dispute would move (domain/disputes.py)."""
        async with self.db.transaction() as session:
            payment = await session.scalar(select(Payment).where(Payment.bid_id == bid_id))
            if payment is None or payment.completed_at is None:
                raise NotFound("This bid has no payment.", code="payment_not_found")
            earning = await session.get(Earning, payment.id)
            unpaid = int(await session.scalar(select(func.coalesce(func.sum(
                EarningRelease.cents - EarningRelease.recovered_cents), 0)).where(
                EarningRelease.payment_id == payment.id, EarningRelease.payout_id.is_(None))))
        net = payment.creator_cents
        due = net if payment.placement_completed_at is not None else stages.released_by(
            net, days_kept=payment.days_kept, duration_days=payment.duration_days or 1)
        early_made = payment.early_refunded_at is not None
        return payment, disputes.Standing(
            money=settlement.money_of(payment),
            paid=payment.status == "COMPLETED" and payment.full_refund_requested_at is None,
            pinned=payment.pinned_at is not None, ended_early=payment.ended_early_at is not None,
            released=earning.released_cents if earning else 0, unpaid=unpaid,
            early_refund=(payment.early_refund_cents or 0) if early_made else 0,
            early_refund_creator=earning.refunded_cents if earning and early_made else 0, due=due)


def _released_kept(creator_id: uuid.UUID):
    """The sum of the creator's releases on sales not refunded in full (a full refund takes them back)."""
    return (select(func.coalesce(func.sum(EarningRelease.cents), 0))
            .join(Earning, Earning.payment_id == EarningRelease.payment_id)
            .where(EarningRelease.creator_id == creator_id, Earning.status != "REFUNDED"))


def _refunded_to_brand():
    """What the brand got back of one sale (a payment with an earning: a payment after its window is no sale), as
    its refund events said: everything it paid once refunded in
    full, else the unearned share an early end gave back (once the provider took it)."""
    return case((Payment.status == "REFUNDED", Payment.amount_cents),
                (Payment.early_refunded_at.is_not(None), func.coalesce(Payment.early_refund_cents, 0)), else_=0)


def _month_start(label: str) -> datetime:
    year, month = label.split("-")
    return datetime(int(year), int(month), 1, tzinfo=UTC)


def _by_month(rows) -> dict[str, int]:
    totals: dict[str, int] = {}
    for moment, cents in rows:
        label = month_label(moment.astimezone(UTC))
        totals[label] = totals.get(label, 0) + cents
    return totals


def _safe(cell: str) -> str:
    """Spreadsheets run cells starting with these as formulas; a leading quote keeps them text."""
    return "'" + cell if cell[:1] in ("=", "+", "-", "@", "\t", "\r") else cell
