"""Migration 0003 moves what the single platform fee account holds into the 16 fee accounts, payment by payment,
so that refunding a payment completed before it finds the fee where the refund takes it back from."""

import uuid

import psycopg
from pinbid_kit.migrations import upgrade
from pinbid_payments.domain import ledger

PAYMENT = ("INSERT INTO payments (id, bid_id, slot_id, slot_title, buyer_id, creator_id, price_cents, fee_cents, "
           "creator_cents, buyer_fee_cents, amount_cents, currency, status, expires_at) VALUES (%s, gen_random_uuid(), "
           "gen_random_uuid(), 'Old', gen_random_uuid(), gen_random_uuid(), %s, %s, %s, 0, %s, 'USD', 'COMPLETED', "
           "now())")


def post(conn, payment_id: uuid.UUID, kind: str, postings: list[tuple[str, int]]) -> None:
    tx = uuid.uuid4()
    with conn.transaction():
        _post(conn, tx, payment_id, kind, postings)


def _post(conn, tx: uuid.UUID, payment_id: uuid.UUID, kind: str, postings: list[tuple[str, int]]) -> None:
    for account, _ in postings:
        conn.execute("INSERT INTO ledger_accounts VALUES (%s, %s, 0) ON CONFLICT DO NOTHING",
                     (account, ledger.normal_side(account).value))
    conn.execute("INSERT INTO ledger_transactions (id, kind, payment_id) VALUES (%s, %s, %s)", (tx, kind, payment_id))
    for account, cents in postings:
        conn.execute("INSERT INTO ledger_entries (transaction_id, account, amount_cents) VALUES (%s, %s, %s)",
                     (tx, account, cents))


def test_the_single_fee_account_is_split_by_payment(new_database):
    url = new_database()
    upgrade(url, "pinbid_payments", "0002")
    kept, refunded = [uuid.uuid4() for _ in range(5)], uuid.uuid4()
    with psycopg.connect(url, autocommit=True) as conn:
        for n, payment in enumerate([*kept, refunded]):
            price = 10_000 + 100 * n
            conn.execute(PAYMENT, (payment, price, price // 10, price - price // 10, price))
            post(conn, payment, "payment_received", [("buyer:b:charges", price), ("platform:fees", -(price // 10)),
                                                     ("creator:c:pending", -(price - price // 10))])
        price = 10_500
        post(conn, refunded, "payment_refunded", [("buyer:b:charges", -price), ("platform:fees", price // 10),
                                                  ("creator:c:pending", price - price // 10)])
    upgrade(url, "pinbid_payments")
    with psycopg.connect(url) as conn:
        balances = dict(conn.execute("SELECT account, balance_cents FROM ledger_accounts WHERE account LIKE "
                                     "'platform:fees%'").fetchall())
        assert balances.pop("platform:fees") == 0
        expected: dict[str, int] = {}
        for n, payment in enumerate(kept):
            account = ledger.platform_fees(payment)
            expected[account] = expected.get(account, 0) + (10_000 + 100 * n) // 10
        assert {a: b for a, b in balances.items() if b} == expected
        assert conn.execute("SELECT sum(amount_cents) FROM ledger_entries").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM ledger_transactions WHERE kind = 'fees_split'").fetchone()[0] == 1

