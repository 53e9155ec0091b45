"""Ports to the outside payment systems and their adapters (sandbox, Stripe, Stripe Connect, PayPal)."""
