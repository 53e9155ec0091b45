"""Payments' HTTP routes: checkout, the provider webhook, creators' earnings, payouts and payout settings,
and the buyer's total spent (for the gateway's dashboard)."""

import uuid
from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pinbid_kit.api import ApiModel, Money, PlainText
from pinbid_kit.auth import require
from pinbid_kit.tokens import Principal, TokenVerifier
from pydantic import Field

from .checkout import Checkout
from .domain.money import to_money
from .domain.payout_settings import PayoutSettings
from .earnings import Earnings
from .models import Payout
from .onboarding import Onboarding
from .payout_settings import PayoutSettingsService
from .webhooks import Webhooks

Short = Annotated[PlainText, Field(max_length=300)]


class CheckoutIn(ApiModel):
    bid_id: uuid.UUID


class UrlOut(ApiModel):
    url: str


class WebhookOut(ApiModel):
    received: bool
    outcome: str


class EarningsOut(ApiModel):
    total_earnings: Money
    this_month_earnings: Money
    pending_payouts: Money
    pending_balance: Money  # not released yet: the stages to come while comments stay pinned
    available_balance: Money  # released and not paid out
    released_earnings: Money
    refunded_earnings: Money  # the creator's share that went back to brands (placements that ended early)


class PayoutOut(ApiModel):
    id: uuid.UUID
    period: str
    amount: Money  # gross: what the buyers paid for the bids in this payout
    fees: Money  # the platform's 10%
    net_amount: Money  # what the creator receives
    currency: str
    method: str
    status: Literal["COMPLETED", "PENDING", "FAILED"]
    failure_reason: str | None
    created_at: datetime
    paid_at: datetime | None

    @classmethod
    def of(cls, p: Payout) -> "PayoutOut":
        status = {"PAID": "COMPLETED", "CREATED": "PENDING"}.get(p.status, "FAILED")
        return cls(id=p.id, period=p.period, amount=to_money(p.gross_cents), fees=to_money(p.fee_cents),
                   net_amount=to_money(p.net_cents), currency=p.currency, method=p.method, status=status,
                   failure_reason=p.failure_reason if p.status == "FAILED" else None, created_at=p.created_at,
                   paid_at=p.settled_at if p.status == "PAID" else None)


class PayoutSettingsIn(ApiModel):
    """Every field may be missing or empty: the rules of SPEC section 5 answer with their own messages."""

    payout_method: Short | None = None
    minimum_payout: Annotated[Money, Field(max_digits=12, decimal_places=2)] | None = None
    schedule: Short | None = None
    paypal_email: Short | None = None
    bank_account: Short | None = None
    currency: Short | None = None
    routing_number: Short | None = None
    sort_code: Short | None = None
    account_name: Short | None = None
    tax_form_submitted: bool = False

    def domain(self) -> PayoutSettings:
        return PayoutSettings(**{name: getattr(self, name) for name in PayoutSettings.__dataclass_fields__})


class PayoutSettingsOut(ApiModel):
    payout_method: str
    minimum_payout: Money
    schedule: str
    paypal_email: str | None
    bank_account: str | None
    currency: str
    routing_number: str | None
    sort_code: str | None
    account_name: str | None
    tax_form_submitted: bool
    saved: bool

    @classmethod
    def of(cls, s: PayoutSettings, saved: bool = True) -> "PayoutSettingsOut":
        return cls(saved=saved, **{name: getattr(s, name) for name in PayoutSettings.__dataclass_fields__})


class TotalSpentOut(ApiModel):
    total_spent: Money


class MonthlyEarningsOut(ApiModel):
    """One calendar month (UTC) of the Earnings chart."""

    month: str = Field(description="YYYY-MM")
    earnings: Money  # net earned on paid bids not refunded, by the day paid
    payouts: Money  # payouts paid that month

    @classmethod
    def of(cls, row: dict) -> "MonthlyEarningsOut":
        return cls(month=row["month"], earnings=to_money(row["earnings"]), payouts=to_money(row["payouts"]))


class MonthlySpendOut(ApiModel):
    """One calendar month (UTC) of the brand dashboard's spend chart."""

    month: str = Field(description="YYYY-MM")
    spent: Money  # paid for bids not refunded (buyer fee included), by the day paid


def routes(checkout: Checkout, webhooks: Webhooks, earnings: Earnings, payout_settings: PayoutSettingsService,
           onboarding: Onboarding, verifier: TokenVerifier) -> list[APIRouter]:
    buyer = Depends(require(verifier, "BUYER"))
    influencer = Depends(require(verifier, "INFLUENCER"))

    payments = APIRouter(prefix="/payments", tags=["payments"])

    @payments.post("/create-checkout-session", response_model=UrlOut)
    async def create_checkout_session(body: CheckoutIn, principal: Principal = buyer) -> UrlOut:
        return UrlOut(url=await checkout.start(principal, body.bid_id))

    @payments.post("/webhook", response_model=WebhookOut,
                   responses={400: {"description": "bad signature or malformed event; nothing changed"}})
    async def webhook(request: Request) -> WebhookOut:
        outcome = await webhooks.receive(await request.body(), request.headers.get("stripe-signature"))
        return WebhookOut(received=True, outcome=outcome)

    @payments.get("/spend-by-month", response_model=list[MonthlySpendOut])
    async def spend_by_month(principal: Principal = buyer) -> list[MonthlySpendOut]:
        """The last six months, oldest first, every month present."""
        return [MonthlySpendOut(month=row["month"], spent=to_money(row["spent"]))
                for row in await earnings.spend_by_month(principal.user_id)]

    creator = APIRouter(prefix="/influencer", tags=["earnings"])

    @creator.get("/earnings", response_model=EarningsOut)
    async def get_earnings(principal: Principal = influencer) -> EarningsOut:
        return EarningsOut(**await earnings.summary(principal.user_id))

    @creator.get("/earnings/report.csv", response_class=Response,
                 responses={200: {"content": {"text/csv": {}}, "description": "every earning, one a line"}})
    async def earnings_report(principal: Principal = influencer) -> Response:
        return Response(await earnings.report_csv(principal.user_id), media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": 'attachment; filename="pinbid-earnings.csv"'})

    @creator.get("/earnings/monthly", response_model=list[MonthlyEarningsOut])
    async def monthly_earnings(principal: Principal = influencer) -> list[MonthlyEarningsOut]:
        """The last six months, oldest first, every month present."""
        return [MonthlyEarningsOut.of(row) for row in await earnings.monthly(principal.user_id)]

    @creator.get("/payouts", response_model=list[PayoutOut])
    async def list_payouts(principal: Principal = influencer) -> list[PayoutOut]:
        return [PayoutOut.of(p) for p in await earnings.payouts(principal.user_id)]

    @creator.get("/payout-settings", response_model=PayoutSettingsOut)
    async def get_payout_settings(principal: Principal = influencer) -> PayoutSettingsOut:
        current, saved = await payout_settings.read(principal.user_id)
        return PayoutSettingsOut.of(current, saved)

    @creator.put("/payout-settings", response_model=PayoutSettingsOut)
    async def put_payout_settings(body: PayoutSettingsIn, principal: Principal = influencer) -> PayoutSettingsOut:
        return PayoutSettingsOut.of(await payout_settings.save(principal.user_id, body.domain()))

    @creator.post("/payout-settings/stripe-onboarding", response_model=UrlOut)
    async def stripe_onboarding(principal: Principal = influencer) -> UrlOut:
        return UrlOut(url=await onboarding.link(principal.user_id))

    buyers = APIRouter(prefix="/buyer", tags=["buyer"])

    @buyers.get("/total-spent", response_model=TotalSpentOut)
    async def total_spent(principal: Principal = buyer) -> TotalSpentOut:
        return TotalSpentOut(total_spent=await earnings.total_spent(principal.user_id))

    return [payments, creator, buyers]
