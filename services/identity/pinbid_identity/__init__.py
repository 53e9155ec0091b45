"""Pinbid's identity service: users, sessions, password reset and notifications."""

SERVICE = "identity"
