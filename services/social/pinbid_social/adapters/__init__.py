"""Adapters behind the Instagram ports: the sandbox simulator and the real providers."""
