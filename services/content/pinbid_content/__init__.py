"""Pinbid's content service: the blog and the newsletter."""

SERVICE = "content"
