"""contracts/asyncapi.yaml: every event, its publisher, the consumers the services really register, and
payload schemas that validate real envelopes."""

import copy
import json
import uuid

import jsonschema
import pytest
import yaml
from pinbid_kit.envelope import Envelope
from pinbid_kit.events import EVENTS
from pinbid_kit.events.payments import PayoutPaid
from pinbid_kit.paths import repo_root
from pinbid_kit.revocations import EVENT as SESSIONS_REVOKED
from pinbid_launcher.asyncapi import document, installed_consumers, render


@pytest.fixture(scope="module")
def consumers():
    return installed_consumers()


@pytest.fixture(scope="module")
def doc(consumers):
    return document(*consumers)


def receivers(doc, event_type, action="receive"):
    return {op["x-pinbid-service"] for op in doc["operations"].values()
            if op["action"] == "receive" and op["channel"]["$ref"] == f"#/channels/{event_type}"
            and (action == "broadcast") == (op["x-pinbid-queue"] != op["x-pinbid-service"])}


def test_checked_in_file_is_the_generated_one():
    assert (repo_root() / "contracts" / "asyncapi.yaml").read_text() == render()


def test_is_asyncapi_3_with_one_channel_per_event_on_the_topic_exchange(doc):
    assert doc["asyncapi"] == "3.0.0"
    assert set(doc["channels"]) == set(EVENTS)
    for event_type, channel in doc["channels"].items():
        assert channel["address"] == event_type
        exchange = channel["bindings"]["amqp"]["exchange"]
        assert (exchange["name"], exchange["type"]) == ("pinbid.events", "topic")


def test_every_channel_has_exactly_its_owning_service_as_publisher(doc, consumers):
    patterns, _ = consumers
    for event_type in EVENTS:
        senders = [op["x-pinbid-service"] for op in doc["operations"].values()
                   if op["action"] == "send" and op["channel"]["$ref"] == f"#/channels/{event_type}"]
        assert senders == [event_type.split(".")[0]]
        assert senders[0] in patterns, f"{event_type} is published by a service that is not installed"


def test_consumers_are_the_handlers_the_services_register(doc):
    from pinbid_launcher.services import installed

    registered = {t: set() for t in EVENTS}
    for module in installed():
        service = module.build(module.settings(database_url="postgresql://test@127.0.0.1:1/test"))
        for registration in service.consumers.registrations:
            registered[registration.pattern].add(module.name)
    for event_type, services in registered.items():
        assert receivers(doc, event_type) == services, event_type
    assert registered["payments.payout.paid.v1"] == {"identity"}  # the catalog is not trivially empty


def test_gateway_and_services_with_token_checks_take_revocations_by_broadcast(doc, consumers):
    _, broadcast = consumers
    assert "gateway" in broadcast
    assert receivers(doc, SESSIONS_REVOKED, action="broadcast") == set(broadcast)
    for event_type in set(EVENTS) - {SESSIONS_REVOKED}:
        assert receivers(doc, event_type, action="broadcast") == set()


def test_payload_schemas_are_the_event_contracts(doc):
    folder = repo_root() / "contracts" / "events"
    schemas = doc["components"]["schemas"]
    for event_type in EVENTS:
        contract = json.loads((folder / f"{event_type}.json").read_text())
        for key in ("$schema", "$id", "$defs"):
            contract.pop(key, None)
        text = json.dumps(contract).replace("#/$defs/", "#/components/schemas/")
        assert schemas[event_type] == json.loads(text)


def message_validator(doc, event_type):
    schema = {"$ref": f"#/components/messages/{event_type}/payload", "components": doc["components"]}
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_a_real_envelope_validates_and_a_broken_one_does_not(doc):
    data = PayoutPaid(payout_id=uuid.uuid4(), creator_id=uuid.uuid4(), period="2026-W47", gross_cents=10_000,
                      fee_cents=1_000, net_cents=9_000, currency="USD", idempotency_key="payout-1")
    envelope = json.loads(Envelope(type=PayoutPaid.event_type, source="payments", data=data.payload()).to_json())
    validator = message_validator(doc, PayoutPaid.event_type)
    validator.validate(envelope)

    for broken in ({**envelope, "source": "marketplace"}, {**envelope, "type": "payments.payout.failed.v1"},
                   {**envelope, "data": {**envelope["data"], "netCents": 90.5}}):
        assert not validator.is_valid(broken)
    missing_id = copy.deepcopy(envelope)
    del missing_id["id"]
    assert not validator.is_valid(missing_id)


def test_every_reference_resolves(doc):
    text = yaml.safe_dump(doc)
    for ref in {line.split("$ref: ")[1].strip("'\" ") for line in text.splitlines() if "$ref: " in line}:
        node = doc
        for part in ref.removeprefix("#/").split("/"):
            node = node[part]
        assert node, ref
