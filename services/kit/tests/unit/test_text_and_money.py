"""The kit's field types: text without control or invisible formatting characters, money as JSON numbers."""

from decimal import Decimal
from typing import Annotated

import pytest
from fastapi import APIRouter, Query
from hypothesis import given
from hypothesis import strategies as st
from pinbid_kit.api import ApiModel, Money, MultilineText, PlainText
from pinbid_kit.http import create_app
from pinbid_kit.text import unsafe_character
from pinbid_testing import client
from pydantic import Field

REFUSED = ["\x00", "\x07", "\x1b", "\x1f", "\x7f", "\x85", "\u202e", "\u202a", "\u2066", "\u2069", "\u200b",
           "\u200e", "\ufeff", "\u00ad", "\u2028", "\u2029"]
ALLOWED = ["Zoë O'Brien", "東京の写真", "ملخّص", "family 👨\u200d👩\u200d👧", "flag 🏴\U000e0067\U000e0062\U000e0073"
           "\U000e0063\U000e0074\U000e007f", "می\u200cخواهم", "<b>& 'quotes'</b>", "Robert'); DROP TABLE users;--"]


@pytest.mark.parametrize("bad", REFUSED)
def test_control_bidi_and_invisible_characters_are_refused_anywhere(bad):
    assert unsafe_character(f"ok{bad}ok") == bad
    assert unsafe_character(f"ok{bad}ok", multiline=True) == bad


@pytest.mark.parametrize("good", ALLOWED)
def test_real_writing_is_allowed(good):
    assert unsafe_character(good) is None


def test_line_breaks_and_tabs_only_in_multiline_text():
    for brk in ("\n", "\r\n", "\t"):
        assert unsafe_character(f"one{brk}two") is not None
        assert unsafe_character(f"one{brk}two", multiline=True) is None


@given(st.text())
def test_accepted_text_never_holds_a_nul_or_a_bidi_override(text):
    if unsafe_character(text, multiline=True) is None:
        assert "\x00" not in text and "\u202e" not in text and "\u2066" not in text


class Body(ApiModel):
    name: Annotated[PlainText, Field(max_length=50)]
    note: MultilineText = ""
    price: Money | None = None


def app():
    router = APIRouter()

    @router.post("/things")
    async def create(body: Body) -> dict:
        return {"name": body.name, "note": body.note, "price": str(body.price)}

    @router.get("/search")
    async def search(q: Annotated[PlainText | None, Query(max_length=20)] = None) -> dict:
        return {"q": q}

    return create_app("test", routers=[router])


async def test_a_nul_or_bidi_override_in_a_body_is_a_422_naming_the_field():
    async with client(app()) as http:
        nul = await http.post("/things", json={"name": "Maya\x00Makes"})
        bidi = await http.post("/things", json={"name": "ok", "note": "pay \u202egnp.exe"})
        fine = await http.post("/things", json={"name": "  Maya Makes ", "note": "line one\nline two"})
    assert nul.status_code == 422 and nul.json()["errors"][0]["field"] == "name"
    assert nul.json()["code"] == "validation_error" and "control characters" in nul.json()["detail"]
    assert bidi.status_code == 422 and bidi.json()["errors"][0]["field"] == "note"
    assert fine.status_code == 200 and fine.json()["name"] == "Maya Makes"
    assert fine.json()["note"] == "line one\nline two"


async def test_a_nul_in_a_query_string_is_a_422_naming_the_parameter():
    async with client(app()) as http:
        nul = await http.get("/search", params={"q": "a\x00b"})
        fine = await http.get("/search", params={"q": "latte"})
    assert nul.status_code == 422 and nul.json()["errors"][0]["field"] == "q"
    assert fine.json() == {"q": "latte"}


@pytest.mark.parametrize("price", ["1e3", " 50 ", "50", "50.00", "", True, [50], {"amount": 50}])
async def test_money_is_a_json_number_only(price):
    async with client(app()) as http:
        response = await http.post("/things", json={"name": "x", "price": price})
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["field"] == "price"


@pytest.mark.parametrize(("price", "expected"), [(19.99, "19.99"), (0.1, "0.1"), (50, "50"), (1e3, "1000.0")])
async def test_json_numbers_become_exact_decimals(price, expected):
    async with client(app()) as http:
        response = await http.post("/things", json={"name": "x", "price": price})
    assert response.status_code == 200 and Decimal(response.json()["price"]) == Decimal(expected)


def test_money_is_a_number_in_the_contract_and_on_the_wire():
    class Out(ApiModel):
        total: Money

    assert Body.model_json_schema()["properties"]["price"]["anyOf"][0] == {"type": "number"}
    assert Out.model_json_schema(mode="serialization")["properties"]["total"]["type"] == "number"
    assert Out(total=Decimal("12.50")).model_dump_json() == '{"total":12.5}'
