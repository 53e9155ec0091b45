"""The OpenAPI of the whole public /api, as contracts/openapi.json holds it: the gateway's own routes
merged with every installed service's routes under the API base (`render`, written by contracts.py)."""

import json
from typing import Any

from pinbid_gateway.app import build as build_gateway
from pinbid_gateway.routing import Access, route_for
from pinbid_gateway.settings import GatewaySettings
from pinbid_gateway.upstreams import Upstreams
from pinbid_kit.paths import var_dir
from pinbid_kit.tokens import generate_keypair

from . import services

SCHEMA_REF = "#/components/schemas/"
ERROR_SCHEMA = {
    "type": "object",
    "title": "Error",
    "required": ["detail", "code"],
    "properties": {
        "detail": {"type": "string", "description": "A message a person can read."},
        "code": {"type": "string", "description": "A machine code."},
        "errors": {"type": "array", "items": {"type": "object", "required": ["field", "message"],
                   "properties": {"field": {"type": "string"}, "message": {"type": "string"}}}},
        "currentBid": {"type": ["number", "null"], "description": "On a refused bid that is too low "
                       "(code bid_too_low): the slot's current bid, null before the first bid."},
    },
}


def service_specs() -> dict[str, dict[str, Any]]:
    """Each installed service's own OpenAPI (built in-process; no database is touched)."""
    specs = {}
    for module in services.installed():
        settings = module.settings(database_url="postgresql://openapi@127.0.0.1:1/openapi")
        specs[module.name] = module.build(settings).app.openapi()
    return specs


def merged(base: str = "/api") -> dict[str, Any]:
    private, public = var_dir() / "keys" / "jwt-ed25519.pem", var_dir() / "keys" / "jwt-ed25519.pub"
    generate_keypair(private, public)
    gateway = build_gateway(GatewaySettings(jwt_public_key_file=public), upstreams=Upstreams({}))
    spec = gateway.app.openapi()
    spec["info"] = {"title": "Pinbid API", "version": "1.0.0",
                    "description": "The public API of Pinbid, served by the gateway under /api."}
    spec["servers"] = [{"url": "/", "description": "The gateway's own origin (every path starts with /api)."}]
    schemas = spec.setdefault("components", {}).setdefault("schemas", {})
    for service, service_spec in sorted(service_specs().items()):
        for path, operations in service_spec.get("paths", {}).items():
            if route_for(path) is None:
                continue
            spec["paths"][base + path] = operations
        for name, schema in service_spec.get("components", {}).get("schemas", {}).items():
            if name in schemas and schemas[name] != schema:
                raise SystemExit(f"schema {name} of {service} clashes with another service's; rename one")
            schemas[name] = schema
    schemas["Error"] = ERROR_SCHEMA
    spec["components"]["securitySchemes"] = {"bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}}
    for path, operations in spec["paths"].items():
        route = route_for(path.removeprefix(base))
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            responses.pop("422", None)
            responses["4XX"] = {"description": "An error", "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            if "security" not in operation:  # public: said so, not left to be guessed (an empty requirement)
                public = route is not None and route.access is Access.PUBLIC
                operation["security"] = [] if public else [{"bearer": []}]
    spec["paths"] = dict(sorted(spec["paths"].items()))
    # the schemas of the public paths only: the services' internal routes (not routed by the gateway) and
    # FastAPI's validation error (the gateway answers with Error) leave theirs behind
    spec["components"]["schemas"] = {name: schemas[name] for name in sorted(referenced(spec["paths"], schemas))}
    return spec


def referenced(paths: dict[str, Any], schemas: dict[str, Any]) -> set[str]:
    """The schemas the paths refer to, directly or through other schemas."""
    found: set[str] = set()
    pending: list[Any] = [paths]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            target = node.get("$ref")
            if isinstance(target, str) and target.startswith(SCHEMA_REF):
                name = target.removeprefix(SCHEMA_REF)
                if name not in found:
                    found.add(name)
                    pending.append(schemas[name])
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
    return found


def render() -> str:
    return json.dumps(merged(), indent=2, sort_keys=False) + "\n"
