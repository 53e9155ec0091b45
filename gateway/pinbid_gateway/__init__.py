"""Pinbid's gateway: the public /api (routing, tokens, limits), the dashboards and the live stream."""

SERVICE = "gateway"
