"""A campaign's money as rules: what a fund call pays in, a draw's cover, the return's plan, a reversal's split,
the ledger's four campaign transactions, and the funding's webhooks read."""

import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pinbid_payments.domain import ledger
from pinbid_payments.domain.campaigns import (
    CampaignClosed,
    NothingToFund,
    Refundable,
    covers,
    return_plan,
    reversal_from_balance,
    to_fund,
)
from pinbid_payments.domain.money import split
from pinbid_payments.domain.webhooks import (
    CardCharged,
    ChargeDisputed,
    ChargeRefunded,
    FundingExpired,
    FundingPaid,
    Ignored,
    Malformed,
    interpret,
)

CAMPAIGN, BUYER, CREATOR, PAYMENT = (uuid.uuid4() for _ in range(4))


def test_a_fund_call_pays_in_the_budget_not_funded_yet():
    assert to_fund(status="ACTIVE", settled=False, budget_cents=500_00, funded_cents=0) == 500_00
    assert to_fund(status="PAUSED", settled=False, budget_cents=500_00, funded_cents=300_00) == 200_00
    with pytest.raises(NothingToFund):
        to_fund(status="ACTIVE", settled=False, budget_cents=500_00, funded_cents=500_00)
    with pytest.raises(NothingToFund):  # a budget lowered below what was paid in: the excess goes back at the end
        to_fund(status="ACTIVE", settled=False, budget_cents=100_00, funded_cents=500_00)
    with pytest.raises(CampaignClosed):
        to_fund(status="ENDED", settled=False, budget_cents=500_00, funded_cents=0)
    with pytest.raises(CampaignClosed):
        to_fund(status="ACTIVE", settled=True, budget_cents=500_00, funded_cents=0)


def test_the_balance_covers_a_positive_price_up_to_itself():
    assert covers(40_00, 40_00) and covers(40_01, 40_00)
    assert not covers(39_99, 40_00) and not covers(0, 0) and not covers(100, -1)


def test_the_return_takes_each_funding_in_the_order_given_in_part_where_needed():
    newest, older = uuid.uuid4(), uuid.uuid4()
    assert return_plan(30_00, [Refundable(newest, 50_00), Refundable(older, 100_00)]) == [(newest, 30_00)]
    assert return_plan(130_00, [Refundable(newest, 50_00), Refundable(older, 100_00)]) == [
        (newest, 50_00), (older, 80_00)]
    assert return_plan(10_00, [Refundable(newest, 0), Refundable(older, 100_00)]) == [(older, 10_00)]
    assert return_plan(0, [Refundable(newest, 50_00)]) == []
    with pytest.raises(ValueError):  # the ledger and the provider's charges disagree: stop, never guess
        return_plan(60_00, [Refundable(newest, 50_00)])


@given(st.integers(min_value=0, max_value=10**9), st.lists(st.integers(min_value=0, max_value=10**8), max_size=8))
def test_a_plan_returns_exactly_what_is_left_and_never_more_than_a_funding_holds(left, holds):
    fundings = [Refundable(uuid.uuid4(), cents) for cents in holds]
    if left > sum(holds):
        with pytest.raises(ValueError):
            return_plan(left, fundings)
        return
    plan = return_plan(left, fundings)
    held = {f.funding_id: f.cents for f in fundings}
    assert sum(cents for _, cents in plan) == left
    assert all(0 < cents <= held[funding_id] for funding_id, cents in plan)


@given(st.integers(min_value=1, max_value=10**9), st.integers(min_value=0, max_value=10**9))
def test_a_reversal_takes_what_the_balance_holds_and_the_rest_is_a_loss(taken, balance):
    from_balance = reversal_from_balance(taken, balance)
    assert 0 <= from_balance <= min(taken, balance)
    assert from_balance == min(taken, balance)
    tx = ledger.campaign_funding_reversed(CAMPAIGN, BUYER, taken, from_balance=from_balance)
    assert sum(p.amount_cents for p in tx.postings) == 0


def test_the_campaign_transactions_balance_and_the_balance_is_owed_to_the_brand():
    account = ledger.campaign_balance(CAMPAIGN)
    assert ledger.normal_side(account) is ledger.Side.CREDIT
    money = split(40_00)
    drawn = ledger.campaign_drawn(PAYMENT, CAMPAIGN, CREATOR, money)
    assert {p.account: p.amount_cents for p in drawn.postings} == {
        account: 40_00, ledger.platform_fees(PAYMENT): -4_00, ledger.creator_pending(CREATOR): -36_00}
    funded = ledger.campaign_funded(CAMPAIGN, BUYER, 100_00)
    assert {p.account: p.amount_cents for p in funded.postings} == {
        ledger.buyer_charges(BUYER): 100_00, account: -100_00}
    returned = ledger.campaign_returned(CAMPAIGN, BUYER, 60_00)
    assert {p.account: p.amount_cents for p in returned.postings} == {
        account: 60_00, ledger.buyer_charges(BUYER): -60_00}
    reversed_ = ledger.campaign_funding_reversed(CAMPAIGN, BUYER, 100_00, from_balance=60_00)
    assert {p.account: p.amount_cents for p in reversed_.postings} == {
        ledger.buyer_charges(BUYER): -100_00, account: 60_00, ledger.REFUND_LOSSES: 40_00}
    with pytest.raises(ledger.Unbalanced):
        ledger.campaign_funding_reversed(CAMPAIGN, BUYER, 10_00, from_balance=11_00)
    refunded = ledger.payment_refunded(PAYMENT, BUYER, CREATOR, to_buyer=40_00, from_fees=4_00,
                                       from_pending=36_00, from_available=0, payer=account)
    assert {p.account: p.amount_cents for p in refunded.postings}[account] == -40_00  # back to the balance


def event(kind: str, obj: dict) -> dict:
    return {"id": "evt_1", "type": kind, "data": {"object": obj}}


def test_a_fundings_webhooks_are_told_from_a_bids_by_their_metadata():
    funding = uuid.uuid4()
    metadata = {"funding_id": str(funding), "campaign_id": str(CAMPAIGN)}
    paid = interpret(event("checkout.session.completed", {
        "id": "cs_1", "payment_status": "paid", "amount_total": 500, "currency": "usd", "payment_intent": "pi_1",
        "metadata": metadata}))
    assert paid == FundingPaid(funding, "cs_1", "pi_1", 500, "USD")
    assert interpret(event("checkout.session.expired", {"id": "cs_1", "metadata": metadata})) == FundingExpired(
        funding, "cs_1")
    refunded = interpret(event("charge.refunded", {"amount": 500, "amount_refunded": 200, "payment_intent": "pi_1",
                                                   "metadata": metadata}))
    assert isinstance(refunded, ChargeRefunded) and refunded.funding_id == funding and refunded.payment_id is None
    charged = interpret(event("charge.succeeded", {"payment_intent": "pi_1", "metadata": metadata,
                                                   "payment_method_details": {"card": {"fingerprint": "fp"}}}))
    assert isinstance(charged, CardCharged) and charged.funding_id == funding
    assert interpret(event("charge.dispute.created", {"amount": 500, "payment_intent": "pi_1"})) == ChargeDisputed(
        "pi_1", 500)
    assert isinstance(interpret(event("charge.dispute.created", {"amount": 500})), Ignored)


@pytest.mark.parametrize("metadata", [{"funding_id": "nope"}, {"funding_id": "1; DROP TABLE"}, ["funding_id"], "x"])
def test_a_malformed_funding_metadata_is_refused(metadata):
    with pytest.raises(Malformed):
        interpret(event("checkout.session.completed", {"id": "cs", "payment_status": "paid", "amount_total": 1,
                                                       "currency": "usd", "metadata": metadata}))
