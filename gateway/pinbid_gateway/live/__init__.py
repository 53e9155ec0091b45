"""The live event stream: what each bus event tells which browser, fanned out by one hub per gateway."""

from .hub import Hub
from .messages import PATTERNS
from .stream import LiveStreams

__all__ = ["PATTERNS", "Hub", "LiveStreams"]
