"""The operator's desk behind the gateway: /ops needs the OPERATOR role; a suspended user's old token is refused."""

from datetime import UTC, datetime, timedelta

import pyotp
from pinbid_gateway.routing import Access, route_for
from pinbid_identity.domain.second_factor import code_at
from pinbid_identity.operators import Operators
from pinbid_identity.passwords import Passwords
from pinbid_testing import eventually

from .conftest import bearer, session


def test_ops_paths_need_the_operator_role_and_go_to_their_owner():
    owners = {"/ops/users": "identity", "/ops/users/1/suspend": "identity", "/ops/audit": "identity",
              "/ops/disputes/9/decision": "social", "/ops/payments": "payments", "/ops/payments/3/refund": "payments",
              "/ops/flags/4/clear": "marketplace", "/ops/anything-else": "identity"}
    for path, service in owners.items():
        route = route_for(path)
        assert (route.service, route.access) == (service, Access.OPERATOR), path


async def operator_token(identity, http) -> str:
    accounts = identity.state["accounts"]
    operators = Operators(identity.db, Passwords(time_cost=1, memory_kib=1024, parallelism=1), accounts.secret_box,
                          "Pinbid")
    enrolled = await operators.enroll("desk@example.com", "Desk")
    secret = pyotp.parse_uri(enrolled.otpauth_uri).secret
    code = code_at(secret, datetime.now(UTC) + timedelta(seconds=30))
    login = await http.post("/api/auth/login", json={"email": "desk@example.com", "password": enrolled.password,
                                                     "code": code})
    assert login.status_code == 200, login.text
    return login.json()["token"]


async def test_ops_calls_are_refused_to_buyers_creators_and_anonymous_callers(stack):
    http, _, identity = stack
    buyer, _ = await session(http)
    creator, _ = await session(http, "INFLUENCER")
    for path in ("/api/ops/users?q=a", "/api/ops/audit", "/api/ops/flags?status=OPEN", "/api/ops/nothing"):
        anonymous = await http.get(path)
        assert anonymous.status_code == 403 and anonymous.json()["code"] == "not_signed_in", path
        for token in (buyer, creator):
            refused = await http.get(path, headers=bearer(token))
            assert refused.status_code == 403 and refused.json()["code"] == "wrong_role", path
    suspend = await http.post("/api/ops/users/00000000-0000-0000-0000-000000000001/suspend", json={"reason": "x"},
                              headers=bearer(buyer))
    assert suspend.status_code == 403
    operator = await operator_token(identity, http)
    assert (await http.get("/api/ops/users?q=desk", headers=bearer(operator))).json()[0]["email"] == "desk@example.com"
    # routed to marketplace, which this stack has as an echo
    assert (await http.get("/api/ops/flags", headers=bearer(operator))).json()["path"] == "/ops/flags"


async def test_a_suspended_users_old_token_is_refused_through_the_gateway(stack):
    http, _, identity = stack
    token, body = await session(http)
    me = (await http.get("/api/auth/me", headers=bearer(token))).json()
    operator = await operator_token(identity, http)
    suspended = await http.post(f"/api/ops/users/{me['id']}/suspend", json={"reason": "Shill bidding"},
                                headers=bearer(operator))
    assert suspended.status_code == 200 and suspended.json()["status"] == "SUSPENDED"

    async def refused() -> bool:
        answer = await http.get("/api/marketplace/slots", headers=bearer(token))
        return answer.status_code == 403 and answer.json()["code"] == "token_revoked"

    await eventually(refused)
    assert (await http.get("/api/auth/me", headers=bearer(token))).status_code == 403
    login = await http.post("/api/auth/login", json={"email": body["email"], "password": body["password"]})
    assert login.status_code == 403 and login.json()["code"] == "account_suspended"
    assert "Shill bidding" in login.json()["detail"]
