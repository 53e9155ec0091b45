"""Issue 32: each use case writes what it causes to the outbox once, in one statement with one NOTIFY. The named
ones: the full refund's reversal (the refund, the creator's debt, its recovery from the releases not paid out,
the dispute's settlement), the early end's refund (the partial refund and the dispute's settlement), and a
release that pays back a debt (the release and the recovery)."""

import uuid

from pinbid_payments.domain import ledger
from pinbid_testing.statements import counting_statements

from .test_trust_money import (
    accepted,
    decided,
    disputed,
    kept,
    paid_and_app_pinned,
    paid_out_after_acceptance,
    twice,
)


async def test_a_reversal_with_a_debt_recovered_and_a_dispute_settled_is_one_outbox_write(pay):
    creator, refunded = await paid_out_after_acceptance(pay)  # a refund now makes a debt
    other = await pay.approve(40_000, creator=creator)
    await pay.pay(other)
    await pay.pin(other)  # 9,000 released, not paid out: what the debt is recovered from
    dispute = uuid.uuid4()
    await twice(pay, disputed(pay, refunded, dispute))
    await twice(pay, decided(pay, refunded, dispute, "REFUND_ALL"))

    with counting_statements(pay.db) as counted:
        assert await pay.service.state["refunds"].run_once() == 1
    assert counted.outbox_writes() == (1, 1)
    kinds = [e["kind"] for e in await pay.events("payments.recovery.recorded.v1")]
    assert kinds == ["OWED", "RECOVERED"]
    assert len(await pay.events("payments.payment.refunded.v1")) == 1
    [settled] = await pay.events("payments.dispute.settled.v1")
    assert (settled["refundedCents"], settled["recoveredCents"], settled["owedCents"]) == (40_000, 9_000, 9_000)
    assert (await pay.balance(ledger.creator_owed(creator)),
            await pay.balance(ledger.creator_available(creator))) == (0, 0)


async def test_an_early_end_refunded_with_its_dispute_settled_is_one_outbox_write(pay):
    approved = await paid_and_app_pinned(pay)
    await twice(pay, accepted(pay, approved))
    dispute = uuid.uuid4()
    await twice(pay, disputed(pay, approved, dispute))
    pay.clock.advance(days=1)
    await kept(pay, approved, 1)
    await twice(pay, decided(pay, approved, dispute, "REFUND_UNEARNED"))

    with counting_statements(pay.db) as counted:
        assert await pay.service.state["refunds"].run_once() == 1
    assert counted.outbox_writes() == (1, 1)
    assert len(await pay.events("payments.payment.partially_refunded.v1")) == 1
    assert len(await pay.events("payments.dispute.settled.v1")) == 1


async def test_a_release_that_pays_back_a_debt_is_one_outbox_write(pay):
    creator, refunded = await paid_out_after_acceptance(pay)
    payment_id = await pay.scalar("SELECT id FROM payments WHERE bid_id = :b", b=refunded.bid_id)
    answer = await pay.http.post(f"/ops/payments/{payment_id}/refund", json={"reason": "Fake screenshot"},
                                 headers=pay.token(uuid.uuid4(), "OPERATOR"))
    assert answer.status_code == 200, answer.text
    other = await pay.approve(8_000, creator=creator)
    await pay.pay(other)

    with counting_statements(pay.db) as counted:
        await pay.pin(other)  # 1,800 released, all of it recovered
    assert counted.outbox_writes() == (1, 1)
    assert [e["kind"] for e in await pay.events("payments.recovery.recorded.v1")] == ["OWED", "RECOVERED"]
    assert len(await pay.events("payments.earning.released.v1")) == 2
