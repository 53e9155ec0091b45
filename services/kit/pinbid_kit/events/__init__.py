"""The catalog of integration events. Each payload model is the source of its JSON Schema in
contracts/events/ (written by `python -m pinbid_launcher.contracts`, checked in CI).

Money in events is always an integer number of minor units (cents) next to a currency code.
Consumers ignore fields they do not know, so adding a field is not a new version.
"""

from . import campaigns, identity, marketplace, payments, social  # noqa: F401  (registers every event type)
from .catalog import EVENTS, EventData, event, parse

__all__ = ["EVENTS", "EventData", "event", "parse"]
