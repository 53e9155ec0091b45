"""Pinbid's payments service: checkout, provider webhooks, the ledger, earnings, payouts and payout settings."""

SERVICE = "payments"
