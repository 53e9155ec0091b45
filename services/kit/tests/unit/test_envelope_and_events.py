import json
import uuid

import jsonschema
import pytest
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import EVENTS, parse
from pinbid_kit.events.contracts import schemas
from pinbid_kit.events.identity import UserRegistered
from pinbid_kit.paths import repo_root


def test_envelope_round_trips_with_camel_case_fields():
    env = Envelope(type="identity.user.registered.v1", source="identity", correlation_id="req-1", data={"a": 1})
    raw = json.loads(env.to_json())
    assert set(raw) == {"id", "type", "version", "occurredAt", "source", "correlationId", "data"}
    assert Envelope.from_json(env.to_json()) == env


def test_every_event_type_is_versioned_and_named_by_its_service():
    for event_type in EVENTS:
        service, *_, version = event_type.split(".")
        assert service in {"identity", "marketplace", "payments", "social"}
        assert version.startswith("v") and version[1:].isdigit()


def test_checked_in_contracts_match_the_catalog():
    folder = repo_root() / "contracts" / "events"
    for event_type, schema in schemas().items():
        assert json.loads((folder / f"{event_type}.json").read_text()) == schema


def test_a_payload_validates_against_its_published_schema():
    data = UserRegistered(user_id=uuid.uuid4(), email="a@b.co", name="A", role="BUYER").payload()
    jsonschema.validate(data, schemas()["identity.user.registered.v1"])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**data, "role": "ADMIN"}, schemas()["identity.user.registered.v1"])


def test_parse_gives_the_typed_payload_and_ignores_unknown_fields():
    user_id = uuid.uuid4()
    env = Envelope(type="identity.user.registered.v1", source="x",
                   data={"userId": str(user_id), "email": "a@b.co", "name": "A", "role": "BUYER", "future": 1})
    parsed = parse(env)
    assert isinstance(parsed, UserRegistered) and parsed.user_id == user_id
