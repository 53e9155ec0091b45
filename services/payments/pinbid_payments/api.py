"""Payments' HTTP routes: checkout, the provider webhook, creators' earnings, payouts and payout settings,
and the buyer's total spent (for the gateway's dashboard)."""

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from pinbid_kit.auth import Buyer, Influencer, Operator
from pinbid_kit.deps import from_state
from pinbid_kit.errors import Invalid
from pinbid_kit.step_up import FreshInfluencer

from .campaigns import Campaigns
from .checkout import Checkout
from .domain.money import to_money
from .onboarding import Onboarding
from .operator_refunds import OperatorPayments
from .payout_settings import PayoutSettingsService
from .queries import DeskQueries, Earnings
from .schemas import (
    CheckoutIn,
    DisputeMoneyOut,
    EarningsOut,
    MonthlyEarningsOut,
    MonthlySpendOut,
    OpsPaymentOut,
    PayoutOut,
    PayoutSettingsIn,
    PayoutSettingsOut,
    RefundIn,
    TotalSpentOut,
    UrlOut,
    WebhookOut,
)
from .webhooks import Webhooks

CheckoutDep = Annotated[Checkout, Depends(from_state("checkout"))]
CampaignsDep = Annotated[Campaigns, Depends(from_state("campaigns"))]
WebhooksDep = Annotated[Webhooks, Depends(from_state("webhooks"))]
EarningsDep = Annotated[Earnings, Depends(from_state("earnings"))]
PayoutSettingsDep = Annotated[PayoutSettingsService, Depends(from_state("payout_settings"))]
OnboardingDep = Annotated[Onboarding, Depends(from_state("onboarding"))]
OperatorPaymentsDep = Annotated[OperatorPayments, Depends(from_state("operator_payments"))]
DeskQueriesDep = Annotated[DeskQueries, Depends(from_state("payment_desk"))]


payments = APIRouter(prefix="/payments", tags=["payments"])


@payments.post("/create-checkout-session", response_model=UrlOut)
async def create_checkout_session(body: CheckoutIn, principal: Buyer, checkout: CheckoutDep) -> UrlOut:
    return UrlOut(url=await checkout.start(principal, body.bid_id))


@payments.post("/webhook", response_model=WebhookOut,
               responses={400: {"description": "bad signature or malformed event; nothing changed"}})
async def webhook(request: Request, webhooks: WebhooksDep) -> WebhookOut:
    outcome = await webhooks.receive(await request.body(), request.headers.get("stripe-signature"))
    return WebhookOut(received=True, outcome=outcome)


@payments.get("/spend-by-month", response_model=list[MonthlySpendOut])
async def spend_by_month(principal: Buyer, earnings: EarningsDep) -> list[MonthlySpendOut]:
    """The last six months, oldest first, every month present."""
    return [MonthlySpendOut(month=row["month"], spent=to_money(row["spent"]))
            for row in await earnings.spend_by_month(principal.user_id)]


creator = APIRouter(prefix="/influencer", tags=["earnings"])


@creator.get("/earnings", response_model=EarningsOut)
async def get_earnings(principal: Influencer, earnings: EarningsDep) -> EarningsOut:
    return EarningsOut(**await earnings.summary(principal.user_id))


@creator.get("/earnings/report.csv", response_class=Response,
             responses={200: {"content": {"text/csv": {}}, "description": "every earning, one a line"}})
async def earnings_report(principal: Influencer, earnings: EarningsDep) -> Response:
    return Response(await earnings.report_csv(principal.user_id), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": 'attachment; filename="pinbid-earnings.csv"'})


@creator.get("/earnings/monthly", response_model=list[MonthlyEarningsOut])
async def monthly_earnings(principal: Influencer, earnings: EarningsDep) -> list[MonthlyEarningsOut]:
    """The last six months, oldest first, every month present."""
    return [MonthlyEarningsOut.of(row) for row in await earnings.monthly(principal.user_id)]


@creator.get("/payouts", response_model=list[PayoutOut])
async def list_payouts(principal: Influencer, earnings: EarningsDep) -> list[PayoutOut]:
    return [PayoutOut.of(p) for p in await earnings.payouts(principal.user_id)]


@creator.get("/payout-settings", response_model=PayoutSettingsOut)
async def get_payout_settings(principal: Influencer, payout_settings: PayoutSettingsDep) -> PayoutSettingsOut:
    current, saved = await payout_settings.read(principal.user_id)
    return PayoutSettingsOut.of(current, saved)


@creator.put("/payout-settings", response_model=PayoutSettingsOut)
async def put_payout_settings(body: PayoutSettingsIn, principal: FreshInfluencer,
                              payout_settings: PayoutSettingsDep) -> PayoutSettingsOut:
    """Where the money goes: with two-step sign-in on, the session must have proved it in the last few minutes
    (401 `step_up_required`, see pinbid_kit.step_up)."""
    return PayoutSettingsOut.of(await payout_settings.save(principal.user_id, body.domain()))


@creator.post("/payout-settings/stripe-onboarding", response_model=UrlOut)
async def stripe_onboarding(principal: FreshInfluencer, onboarding: OnboardingDep) -> UrlOut:
    """Connects a Stripe account to be paid into: a step-up, as for the payout settings."""
    return UrlOut(url=await onboarding.link(principal.user_id))


buyers = APIRouter(prefix="/buyer", tags=["buyer"])


@buyers.get("/total-spent", response_model=TotalSpentOut)
async def total_spent(principal: Buyer, earnings: EarningsDep) -> TotalSpentOut:
    return TotalSpentOut(total_spent=await earnings.total_spent(principal.user_id))


@buyers.post("/campaigns/{campaign_id}/fund", response_model=UrlOut,
             responses={404: {"description": "campaign_not_found (another brand's, unknown, or not arrived yet)"},
                        409: {"description": "campaign_ended, or nothing_to_fund"}})
async def fund_campaign(campaign_id: uuid.UUID, principal: Buyer, campaigns: CampaignsDep) -> UrlOut:
    """Pay the campaign's budget not funded yet through Checkout: the URL of its checkout page (the same one
    while it is open). The gateway sends this one path of `/buyer/campaigns` to payments."""
    return UrlOut(url=await campaigns.fund(principal, campaign_id))


ops = APIRouter(prefix="/ops/payments", tags=["ops"])


@ops.get("", response_model=list[OpsPaymentOut])
async def find_payments(_: Operator, desk: DeskQueriesDep, bid_id: Annotated[uuid.UUID | None, Query(
        alias="bidId")] = None, user_id: Annotated[uuid.UUID | None, Query(alias="userId")] = None,
) -> list[OpsPaymentOut]:
    """A bid's payment, or a user's (as buyer or creator); one of the two is required."""
    if bid_id is None and user_id is None:
        raise Invalid("Give a bidId or a userId.", field="bidId", code="filter_required")
    return [OpsPaymentOut.of(p, released) for p, released in await desk.find(bid_id=bid_id, user_id=user_id)]


@ops.get("/dispute-outcomes", response_model=DisputeMoneyOut, responses={404: {"description": "payment_not_found"}})
async def dispute_outcomes(_: Operator, desk: DeskQueriesDep,
                           bid_id: Annotated[uuid.UUID, Query(alias="bidId")]) -> DisputeMoneyOut:
    """For the operator's decision on a disputed bid: what the brand paid, what the creator has been released and
    paid out, and what CONTINUE, REFUND_UNEARNED and REFUND_ALL would each move if decided now."""
    return DisputeMoneyOut.of(*await desk.standing(bid_id))


@ops.post("/{payment_id}/refund", response_model=OpsPaymentOut,
          responses={409: {"description": "already_refunded, or not_paid"}})
async def refund_payment(payment_id: uuid.UUID, body: RefundIn, operator: Operator,
                         desk: OperatorPaymentsDep) -> OpsPaymentOut:
    """Refund the brand in full: releases stop; what was released is taken back from the creator (owed if it was
    already paid out). `status` is REFUNDING while the provider has not taken the refund yet."""
    return OpsPaymentOut.of(*await desk.refund(operator, payment_id, body.reason))


ROUTERS = (payments, creator, buyers, ops)
