"""the platform's fee revenue in 16 accounts instead of one hot balance row

Every completed payment credited `platform:fees`, whose balance row the ledger trigger updates: completions queued
on that one row. Fees now go to `platform:fees:<last hex digit of the payment id>` (domain/ledger.py). This moves
what the single account holds into those accounts, payment by payment, with one balanced ledger transaction
(`fees_split`), so that a later refund of an earlier payment finds its fee in the account it takes it back from.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25 02:00:00.000000
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        DO $$
        DECLARE
            tx uuid := gen_random_uuid();
        BEGIN
            CREATE TEMPORARY TABLE fee_split ON COMMIT DROP AS
                SELECT 'platform:fees:' || right(t.payment_id::text, 1) AS account, -sum(e.amount_cents) AS cents
                FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
                WHERE e.account = 'platform:fees' AND t.payment_id IS NOT NULL
                GROUP BY 1 HAVING sum(e.amount_cents) <> 0;
            IF NOT EXISTS (SELECT 1 FROM fee_split) THEN
                RETURN;
            END IF;
            INSERT INTO ledger_accounts (account, normal_side, balance_cents)
                SELECT account, 'CREDIT', 0 FROM fee_split ON CONFLICT (account) DO NOTHING;
            INSERT INTO ledger_transactions (id, kind) VALUES (tx, 'fees_split');
            INSERT INTO ledger_entries (transaction_id, account, amount_cents)
                SELECT tx, 'platform:fees', sum(cents) FROM fee_split
                UNION ALL SELECT tx, account, -cents FROM fee_split ORDER BY 2;
        END $$""")


def downgrade() -> None:
    pass  # the ledger is append-only: the split stays, and the sum of the fee accounts is the same revenue
