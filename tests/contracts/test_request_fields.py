"""Every string a request can carry into a service (body fields, query and path parameters) goes through the
kit's text rule, so a NUL or a bidi override is a 422 naming the field: this walks every route of every
service and tries one on each string it finds. Money fields take JSON numbers only."""

from collections.abc import Iterator
from decimal import Decimal
from typing import Annotated, Any, get_args

import pytest
from fastapi.routing import APIRoute
from pinbid_launcher import services
from pydantic import BaseModel, TypeAdapter, ValidationError

# Strings that are never stored or shown: passwords are only hashed (or handed once to Instagram), and the
# newsletter's link tokens are only hashed or HMAC-checked, answering a redirect for anything unknown.
NOT_TEXT = {("identity", "password"), ("identity", "currentPassword"), ("identity", "newPassword"),
            ("social", "password"), ("content", "token")}
UNSAFE = ["a\x00b", "a\u202eb"]


@pytest.fixture(scope="module")
def apps(tmp_path_factory) -> dict[str, Any]:
    var = tmp_path_factory.mktemp("var")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PINBID_VAR", str(var))
        return {module.name: module.build(module.settings()).app for module in services.installed()}


def _routes(container: Any) -> Iterator[APIRoute]:
    for route in getattr(container, "routes", []):
        if isinstance(route, APIRoute):
            yield route
        included = getattr(route, "original_router", None)  # how FastAPI keeps an included router
        if included is not None:
            yield from _routes(included)


def _all_fields(apps: dict[str, Any], *, with_body_only: bool = False) -> list[tuple[str, str, str, Any]]:
    return [(service, route.path, name, annotation)
            for service, app in apps.items() for route in _routes(app)
            if route.dependant.body_params or not with_body_only
            for name, annotation in _fields(route)]


def _models(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [model for arg in get_args(annotation) for model in _models(arg)]


def _fields(route: APIRoute) -> list[tuple[str, Any]]:
    """(wire name, annotation with its constraints) of every value a request to the route may carry."""
    found, models = [], []
    dependant = route.dependant
    for param in [*dependant.query_params, *dependant.path_params, *dependant.body_params]:
        info = param.field_info
        nested = _models(info.annotation)
        if nested:
            models.extend(nested)
        else:
            found.append((param.alias, Annotated[info.annotation, *info.metadata] if info.metadata
                          else info.annotation))
    while models:
        model = models.pop()
        for name, info in model.model_fields.items():
            nested = _models(info.annotation)
            if nested:
                models.extend(nested)
            else:
                found.append((info.alias or name, Annotated[info.annotation, *info.metadata] if info.metadata
                              else info.annotation))
    return found


def _accepts(annotation: Any, value: Any) -> bool:
    try:
        TypeAdapter(annotation).validate_python(value)
        return True
    except ValidationError:
        return False


def test_no_request_string_accepts_a_nul_or_a_bidi_override(apps):
    strings = [field for field in _all_fields(apps) if _accepts(field[3], "plain text")]
    assert len(strings) >= 40  # the walk found the services' string fields (there are about 50)
    unchecked = sorted({(service, path, name) for service, path, name, annotation in strings
                        if (service, name) not in NOT_TEXT and any(_accepts(annotation, v) for v in UNSAFE)})
    assert unchecked == []


def test_no_request_body_takes_money_as_a_string(apps):
    """A body field that reads 1.5 as a Decimal is money: it must refuse the string "50"."""
    money = [field for field in _all_fields(apps, with_body_only=True) if _is_money(field[3])]
    assert len(money) >= 5  # bids, Buy Now, slots, payout settings
    assert sorted((service, path, name) for service, path, name, annotation in money
                  if _accepts(annotation, "50")) == []


def _is_money(annotation: Any) -> bool:
    try:
        return isinstance(TypeAdapter(annotation).validate_python(1.5), Decimal)
    except ValidationError:
        return False
