"""Pinbid's social service: Instagram connection, posts and stats, comments, pinning and pinned-comment tracking."""

SERVICE = "social"
