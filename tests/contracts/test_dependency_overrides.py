"""Every service's routes are declared at module level and take what they need through `Annotated`
dependencies (`pinbid_kit.deps.from_state`, `pinbid_kit.auth`), so a test can replace one with
`app.dependency_overrides`: here each service answers a route from a stand-in, with no database behind it."""

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from pinbid_gateway.app import Gateway
from pinbid_gateway.settings import GatewaySettings
from pinbid_gateway.upstreams import Upstreams
from pinbid_kit import auth
from pinbid_kit.deps import from_state
from pinbid_kit.tokens import Principal, TokenVerifier, generate_keypair
from pinbid_kit.web_rules import ServedSettings, web_rules
from pinbid_launcher import services


class Answers:
    """A stand-in for a service object: each awaited method answers what it was given."""

    def __init__(self, **answers: Any):
        self._answers = answers

    def __getattr__(self, name: str) -> Callable[..., Any]:
        async def method(*args: Any, **kwargs: Any) -> Any:
            return self._answers[name]

        return method


def principal(role: str) -> Principal:
    return Principal(user_id=uuid.UUID(int=1), role=role, token_version=0, issued_at=0, token="stand-in")


@dataclass(frozen=True)
class Case:
    service: str
    path: str
    overrides: dict[Callable[..., Any], Any]
    expected: Any


CASES = [
    Case("content", "/blog/categories", {from_state("blog"): Answers(categories=["Guides"])},
         {"categories": ["Guides"]}),
    Case("identity", "/notifications/unread-count",
         {auth.signed_in: principal("BUYER"), from_state("notifications"): Answers(unread_count=3)},
         {"unreadCount": 3}),
    Case("marketplace", "/marketplace/categories",
         {auth.signed_in: principal("BUYER"), from_state("queries"): SimpleNamespace(categories=lambda: ["Food"])},
         ["Food"]),
    Case("payments", "/buyer/total-spent",
         {auth.buyer: principal("BUYER"), from_state("earnings"): Answers(total_spent=Decimal("12.50"))},
         {"totalSpent": 12.5}),
    Case("social", f"/instagram/comments/{uuid.UUID(int=2)}",
         {auth.signed_in: principal("BUYER"), from_state("pins"): Answers(buyer_comments=[])}, []),
    Case("gateway", "/runtime-config.json",
         {from_state("settings"): SimpleNamespace(api_base="/elsewhere",
                                                   served=lambda: ServedSettings(platform_fee_percent=15))},
         {"apiBase": "/elsewhere", "rules": web_rules(ServedSettings(platform_fee_percent=15))}),
]


@pytest.fixture(scope="module")
def apps(tmp_path_factory) -> dict[str, Any]:
    var = tmp_path_factory.mktemp("var")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PINBID_VAR", str(var))
        apps = {module.name: module.build(module.settings()).app for module in services.installed()}
        keys = var / "keys"
        generate_keypair(keys / "jwt.pem", keys / "jwt.pub")
        gateway = Gateway(GatewaySettings(), Upstreams({}), TokenVerifier.from_file(keys / "jwt.pub"))
        return {**apps, "gateway": gateway.app}


def answering(value: Any) -> Callable[[], Any]:
    return lambda: value


@pytest.mark.parametrize("case", CASES, ids=[case.service for case in CASES])
async def test_a_route_answers_from_an_overridden_dependency(apps: dict[str, Any], case: Case) -> None:
    app = apps[case.service]
    app.dependency_overrides.update({dependency: answering(value) for dependency, value in case.overrides.items()})
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as client:
            answer = await client.get(case.path)
    finally:
        app.dependency_overrides.clear()
    assert answer.status_code == 200, answer.text
    assert answer.json() == case.expected


def test_every_service_and_the_gateway_have_a_case(apps: dict[str, Any]) -> None:
    assert sorted(case.service for case in CASES) == sorted(apps)
