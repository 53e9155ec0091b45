"""The JSON Schema of every event in the catalog: what contracts/events/<type>.json hold (the launcher's
`python -m pinbid_launcher.contracts` writes and checks them)."""

from . import identity, marketplace, payments, social  # noqa: F401  (registers the events)
from .catalog import EVENTS


def schemas() -> dict[str, dict]:
    out = {}
    for event_type, model in sorted(EVENTS.items()):
        schema = model.model_json_schema(by_alias=True)
        schema = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"https://pinbid.example/contracts/events/{event_type}.json",
            "title": event_type,
            "description": model.description,
            **{k: v for k, v in schema.items() if k not in ("title", "description")},
        }
        out[event_type] = schema
    return out
