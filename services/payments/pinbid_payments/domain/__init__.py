"""Payments' pure rules: money splits, the ledger's shape, payout schedules, payout settings, webhooks."""
