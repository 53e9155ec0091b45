from typing import Annotated

from fastapi import APIRouter, Query
from pinbid_kit.api import ApiModel, PlainText
from pinbid_kit.errors import Conflict, Invalid, TooManyRequests
from pinbid_kit.http import create_app
from pinbid_testing import client
from pydantic import AfterValidator, Field


def _whole(value: int) -> int:
    if value > 10:
        raise ValueError("The count must be at most 10.")
    return value


class Body(ApiModel):
    display_name: Annotated[str, Field(max_length=20)]
    count: Annotated[int, AfterValidator(_whole)] = 1


def app():
    router = APIRouter()

    @router.post("/things")
    async def create(body: Body) -> dict:
        return {"ok": body.display_name}

    @router.get("/search")
    async def search(q: Annotated[PlainText | None, Query(max_length=5)] = None) -> dict:
        return {"q": q}

    @router.get("/conflict")
    async def conflict() -> dict:
        raise Conflict("Auction ended.", code="auction_closed")

    @router.get("/invalid")
    async def invalid() -> dict:
        raise Invalid("Too low.", field="amount")

    @router.get("/slow-down")
    async def slow() -> dict:
        raise TooManyRequests("Wait.", retry_after=30)

    @router.get("/crash")
    async def crash() -> dict:
        raise RuntimeError("secret internals")

    return create_app("test", routers=[router])


async def test_validation_errors_name_the_fields_in_camel_case():
    async with client(app()) as http:
        response = await http.post("/things", json={"displayName": "x" * 21, "count": "many"})
    body = response.json()
    assert response.status_code == 422 and body["code"] == "validation_error"
    assert {e["field"] for e in body["errors"]} == {"displayName", "count"}
    assert body["detail"].startswith("Display name: ")


async def test_the_detail_people_read_never_names_a_field_in_code():
    async with client(app()) as http:
        ours = await http.post("/things", json={"displayName": "a", "count": 11})
        missing = await http.post("/things", json={"count": 2})
        unknown = await http.post("/things", json={"displayName": "a", "adminLevel": 1})
    assert ours.json()["detail"] == "The count must be at most 10."
    assert ours.json()["errors"] == [{"field": "count", "message": "The count must be at most 10."}]
    assert missing.json()["detail"] == "Display name is required."
    assert unknown.json()["detail"] == "Admin level is not allowed."


async def test_a_text_too_long_is_told_in_characters_even_when_checked_after_its_validator():
    async with client(app()) as http:
        response = await http.get("/search", params={"q": "abcdef"})
    assert response.status_code == 422
    assert response.json()["detail"] == "Q: Use at most 5 characters."
    assert response.json()["errors"] == [{"field": "q", "message": "Use at most 5 characters."}]


async def test_unknown_fields_and_malformed_json_are_422():
    async with client(app()) as http:
        unknown = await http.post("/things", json={"displayName": "a", "count": 1, "admin": True})
        malformed = await http.post("/things", content=b"{not json", headers={"content-type": "application/json"})
    assert unknown.status_code == 422 and unknown.json()["errors"][0] == {"field": "admin",
                                                                           "message": "This field is not allowed."}
    assert malformed.status_code == 422 and malformed.json()["code"] == "validation_error"


async def test_domain_errors_render_in_the_error_format():
    async with client(app()) as http:
        conflict = await http.get("/conflict")
        invalid = await http.get("/invalid")
        slow = await http.get("/slow-down")
    assert conflict.status_code == 409 and conflict.json() == {"detail": "Auction ended.", "code": "auction_closed"}
    assert invalid.json()["errors"] == [{"field": "amount", "message": "Too low."}]
    assert slow.status_code == 429 and slow.headers["retry-after"] == "30"


async def test_unknown_route_method_and_crash_use_the_format_without_leaking():
    async with client(app()) as http:
        missing = await http.get("/nope")
        method = await http.delete("/conflict")
        crash = await http.get("/crash")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert method.status_code == 405 and method.json()["code"] == "method_not_allowed"
    assert crash.status_code == 500 and "secret" not in crash.text and crash.json()["code"] == "internal_error"


async def test_request_id_is_echoed_or_made():
    async with client(app()) as http:
        given = await http.get("/conflict", headers={"x-request-id": "abc-123"})
        made = await http.get("/conflict")
        bad = await http.get("/conflict", headers={"x-request-id": "bad id with spaces"})
    assert given.headers["x-request-id"] == "abc-123"
    assert len(made.headers["x-request-id"]) == 32
    assert bad.headers["x-request-id"] != "bad id with spaces"


async def test_health_and_metrics_endpoints():
    async with client(app()) as http:
        await http.get("/conflict")
        health = await http.get("/healthz")
        ready = await http.get("/readyz")
        metrics = await http.get("/metrics")
    assert health.json() == {"status": "ok", "service": "test"} and ready.status_code == 200
    assert ready.json()["service"] == "test"
    assert 'pinbid_http_requests_total{method="GET",route="/conflict",service="test",status="409"}' in metrics.text
