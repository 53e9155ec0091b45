"""contracts/asyncapi.yaml (AsyncAPI 3.0) from the event catalog: one channel per event type on the
topic exchange `pinbid.events` (routing key = event type), who publishes it (the service named by the type's
first word), who consumes it, and each envelope's payload schema (`render`, written by contracts.py)."""

import copy
from typing import Any

import yaml
from pinbid_kit.bus.base import matches
from pinbid_kit.bus.rabbit import DEAD_LETTER_EXCHANGE, EXCHANGE
from pinbid_kit.envelope import Envelope
from pinbid_kit.events.contracts import schemas
from pinbid_kit.revocations import EVENT as SESSIONS_REVOKED

from .services import installed

GATEWAY = "gateway"


def publisher(event_type: str) -> str:
    return event_type.split(".", 1)[0]


def consumers_of(event_type: str, patterns: dict[str, list[str]]) -> list[str]:
    return sorted(service for service, own in patterns.items() if any(matches(p, event_type) for p in own))


def _components(event_schemas: dict[str, dict]) -> tuple[dict[str, dict], dict[str, dict]]:
    """Each event's payload schema under components.schemas, its `$defs` hoisted beside it."""
    shared: dict[str, dict] = {}
    payloads: dict[str, dict] = {}
    for event_type, schema in event_schemas.items():
        schema = copy.deepcopy(schema)
        for key in ("$schema", "$id"):
            schema.pop(key, None)
        for name, definition in schema.pop("$defs", {}).items():
            if name in shared and shared[name] != definition:
                raise SystemExit(f"schema {name} of {event_type} clashes with another event's; rename one")
            shared[name] = definition
        payloads[event_type] = schema
    return payloads, shared


def _local_refs(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: (v.replace("#/$defs/", "#/components/schemas/") if k == "$ref" else _local_refs(v))
                for k, v in node.items()}
    if isinstance(node, list):
        return [_local_refs(v) for v in node]
    return node


def envelope_schema() -> dict:
    schema = Envelope.model_json_schema(by_alias=True)
    schema.pop("title", None)
    schema["required"] = list(schema["properties"])  # every field is on the wire, defaults included
    schema["description"] = ("Every event is this envelope; `data` is the payload of its `type`. A redelivery "
                             "carries the same `id`: deduplicate on it.")
    return schema


def document(patterns: dict[str, list[str]], broadcast: list[str]) -> dict:
    """`patterns`: each service's durable-queue binding patterns; `broadcast`: the processes that also take
    the session revocations on a per-process queue."""
    payloads, shared = _components(schemas())
    channels, operations, messages = {}, {}, {}
    for event_type, payload in payloads.items():
        source = publisher(event_type)
        channels[event_type] = {
            "address": event_type,
            "title": event_type,
            "description": payload.get("description", ""),
            "messages": {event_type: {"$ref": f"#/components/messages/{event_type}"}},
            "bindings": {"amqp": {"is": "routingKey", "exchange": {
                "name": EXCHANGE, "type": "topic", "durable": True, "autoDelete": False, "vhost": "/"},
                "bindingVersion": "0.3.0"}},
        }
        messages[event_type] = {
            "name": event_type,
            "title": event_type,
            "contentType": "application/json",
            "payload": {"allOf": [
                {"$ref": "#/components/schemas/Envelope"},
                {"type": "object", "required": ["type", "source", "data"], "properties": {
                    "type": {"const": event_type}, "source": {"const": source},
                    "data": {"$ref": f"#/components/schemas/{event_type}"}}},
            ]},
        }
        channel = {"$ref": f"#/channels/{event_type}"}
        operations[f"{source}.send.{event_type}"] = {
            "action": "send", "channel": channel, "summary": f"{source} publishes it (through its outbox)",
            "x-pinbid-service": source,
        }
        for service in consumers_of(event_type, patterns):
            operations[f"{service}.receive.{event_type}"] = {
                "action": "receive", "channel": channel,
                "summary": f"{service} consumes it from its durable queue `{service}` "
                           f"(dead letters go to `{service}.dlq` on `{DEAD_LETTER_EXCHANGE}`)",
                "x-pinbid-service": service, "x-pinbid-queue": service,
            }
        if event_type == SESSIONS_REVOKED:
            for service in sorted(broadcast):
                operations[f"{service}.broadcast.{event_type}"] = {
                    "action": "receive", "channel": channel,
                    "summary": f"every {service} process takes it on its own exclusive `broadcast.*` queue",
                    "x-pinbid-service": service, "x-pinbid-queue": "broadcast.<random>",
                }
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Pinbid events",
            "version": "1.0.0",
            "description": (
                f"The integration events of Pinbid on the RabbitMQ topic exchange `{EXCHANGE}` (routing key = "
                "event type). Each service binds one durable quorum queue named after itself; a deployment "
                "with `BUS_PREFIX` set puts `<prefix>.` before the exchange and every queue name. Payload "
                "schemas are also in contracts/events/. Amounts are integers in minor units, never floats."),
        },
        "defaultContentType": "application/json",
        "servers": {"rabbitmq": {"host": "localhost:5672", "protocol": "amqp", "protocolVersion": "0.9.1",
                                 "description": "The broker of a deployment (RABBITMQ_URL)."}},
        "channels": channels,
        "operations": dict(sorted(operations.items())),
        "components": {
            "messages": messages,
            "schemas": _local_refs({"Envelope": envelope_schema(), **dict(sorted(shared.items())), **payloads}),
        },
    }


def installed_consumers() -> tuple[dict[str, list[str]], list[str]]:
    """Each installed service built without a database, as the OpenAPI generator does."""
    patterns, broadcast = {}, [GATEWAY]
    for module in installed():
        service = module.build(module.settings(database_url="postgresql://asyncapi@127.0.0.1:1/asyncapi"))
        patterns[module.name] = service.consumers.patterns
        if service.revocations is not None:
            broadcast.append(module.name)
    return patterns, broadcast


def render() -> str:
    return yaml.safe_dump(document(*installed_consumers()), sort_keys=False, allow_unicode=True, width=120)
