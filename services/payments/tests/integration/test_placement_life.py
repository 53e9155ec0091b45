"""The whole life of a placement in simulated time: paid, pinned (a quarter released), kept day after day (released
pro rata), unpinned early (nothing more released), the unearned share refunded through the provider (refused once,
tried again later), the ledger balanced at every step; and a placement kept to its end, released in full."""

import uuid

from pinbid_kit.events.social import CommentUnpinned, PlacementKept
from pinbid_payments.domain import ledger
from pinbid_payments.metrics import REFUNDS_FAILED
from pinbid_payments.ports import ProviderError

DURATION = 10


async def kept(pay, approved, day: int, duration: int = DURATION) -> None:
    await pay.deliver(PlacementKept(bid_id=approved.bid_id, slot_id=approved.slot_id, creator_id=approved.creator_id,
                                    pinned_at=pay.clock(), checked_at=pay.clock(), days_kept=day,
                                    duration_days=duration), source="social")


async def balanced(pay) -> bool:
    per_transaction = await pay.rows("SELECT transaction_id, sum(amount_cents) FROM ledger_entries "
                                     "GROUP BY transaction_id HAVING sum(amount_cents) <> 0")
    return per_transaction == [] and await pay.scalar("SELECT coalesce(sum(amount_cents), 0) FROM ledger_entries") == 0


async def money(pay, approved) -> tuple[int, int, int, int]:
    """The buyer's charge, the creator's pending and available, the platform's fees."""
    return (await pay.balance(ledger.buyer_charges(approved.buyer_id)),
            await pay.balance(ledger.creator_pending(approved.creator_id)),
            await pay.balance(ledger.creator_available(approved.creator_id)),
            await pay.balance(ledger.PLATFORM_FEES))


class RefusesOnce:
    """The checkout provider, refusing the first partial refund it is asked for (as a provider outage would)."""

    def __init__(self, inner):
        self.inner, self.refused = inner, 0

    async def open_checkout(self, order):
        return await self.inner.open_checkout(order)

    async def refund(self, payment_intent, idempotency_key, *, amount_cents=None):
        if amount_cents is not None and not self.refused:
            self.refused += 1
            raise ProviderError("the provider is unavailable")
        return await self.inner.refund(payment_intent, idempotency_key, amount_cents=amount_cents)


async def test_pinned_released_in_stages_unpinned_early_and_refunded_pro_rata(pay):
    approved = await pay.approve(20_000)  # the creator's share 18,000, the platform's fee 2,000
    await pay.pay(approved)
    assert await money(pay, approved) == (20_000, 18_000, 0, 2_000) and await balanced(pay)

    await pay.pin(approved)
    assert await money(pay, approved) == (20_000, 13_500, 4_500, 2_000) and await balanced(pay)  # a quarter
    for day in (1, 2, 3):
        pay.clock.advance(days=1)
        await kept(pay, approved, day)
        assert await balanced(pay)
    await kept(pay, approved, 2)  # late and repeated days release nothing more
    await kept(pay, approved, 3)
    released = 4_500 + 13_500 * 3 // DURATION
    assert await money(pay, approved) == (20_000, 18_000 - released, released, 2_000)

    refunds = pay.service.state["refunds"]
    provider = refunds.provider = RefusesOnce(refunds.provider)
    pay.clock.advance(hours=5)
    await pay.deliver(CommentUnpinned(bid_id=approved.bid_id, slot_id=approved.slot_id,
                                      creator_id=approved.creator_id, comment_id="c1", unpinned_at=pay.clock(),
                                      reason="HIDDEN"), source="social")
    await kept(pay, approved, 4)  # a day reported after the end releases nothing
    assert await money(pay, approved) == (20_000, 18_000 - released, released, 2_000)

    failed_before = REFUNDS_FAILED._value.get()
    assert await refunds.run_once() == 0  # refused: kept, counted, tried again later
    assert REFUNDS_FAILED._value.get() == failed_before + 1 and provider.refused == 1
    assert await pay.scalar("SELECT early_refund_attempts FROM payments WHERE bid_id = :b", b=approved.bid_id) == 1
    assert await refunds.run_once() == 0  # not due again yet
    pay.clock.advance(minutes=6)
    assert await refunds.run_once() == 1
    assert await refunds.run_once() == 0

    creator_back = 18_000 - released
    fee_back = 2_000 * creator_back // 18_000
    assert await money(pay, approved) == (20_000 - creator_back - fee_back, 0, released, 2_000 - fee_back)
    assert await balanced(pay)
    [event] = await pay.events("payments.payment.partially_refunded.v1")
    assert (event["refundCents"], event["amountCents"], event["reason"]) == (creator_back + fee_back, 20_000,
                                                                             "HIDDEN")
    checkout = await pay.rows("SELECT amount_refunded_cents, refunded FROM sandbox_checkouts "
                              "WHERE metadata->>'bid_id' = :b", b=str(approved.bid_id))
    assert checkout == [(creator_back + fee_back, False)]  # at the provider: the same part, not the whole
    earning = await pay.rows("SELECT status, released_cents, refunded_cents FROM earnings")
    assert earning == [("ENDED_EARLY", released, creator_back)]
    summary = (await pay.http.get("/influencer/earnings",
                                  headers=pay.token(approved.creator_id, "INFLUENCER"))).json()
    # what the brand got back, gross (its share of the fee included), as the brand's refund said
    assert (summary["releasedEarnings"], summary["refundedEarnings"]) == (released / 100,
                                                                           (creator_back + fee_back) / 100)
    assert summary["totalEarnings"] == released / 100


async def test_a_placement_kept_to_its_end_is_released_in_full_and_paid_out_in_parts(pay):
    approved = await pay.approve(10_000)
    await pay.pay(approved)
    await pay.pin(approved)
    for day in range(1, 8):
        pay.clock.advance(days=1)
        await kept(pay, approved, day, duration=7)
    await pay.complete(approved)
    assert await money(pay, approved) == (10_000, 0, 9_000, 1_000) and await balanced(pay)
    releases = await pay.rows("SELECT stage, cents, fee_cents FROM earning_releases ORDER BY stage")
    assert [r[0] for r in releases] == [0, 1, 2, 3, 4, 5, 6, 7]  # the remainder is all in by day 7
    assert sum(r[1] for r in releases) == 9_000 and sum(r[2] for r in releases) == 1_000
    assert await pay.scalar("SELECT status FROM earnings") == "AVAILABLE"


async def test_an_unpin_before_any_release_or_of_an_unknown_bid_changes_nothing(pay):
    await pay.deliver(CommentUnpinned(bid_id=uuid.uuid4(), slot_id=uuid.uuid4(), creator_id=uuid.uuid4(),
                                      comment_id="c", unpinned_at=pay.clock()), source="social")
    approved = await pay.approve(10_000)
    await pay.pay(approved)
    await pay.deliver(CommentUnpinned(bid_id=approved.bid_id, slot_id=approved.slot_id,
                                      creator_id=approved.creator_id, comment_id="c", unpinned_at=pay.clock()),
                      source="social")  # never pinned: the pin deadline's full refund applies, not this
    assert await pay.scalar("SELECT ended_early_at FROM payments") is None
    assert await money(pay, approved) == (10_000, 9_000, 0, 1_000)
