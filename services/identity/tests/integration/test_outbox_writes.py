"""Issue 32: a use case of identity writes what it causes to the outbox once (one insert, one NOTIFY): the
suspension (the suspension, the revoked sessions, the operator's action and the notice's event), the restore,
the sign-up (the user and the signals observed)."""

from pinbid_testing.statements import counting_statements

from .conftest import bearer
from .test_desk import desk, person  # noqa: F401  (desk is a fixture)


async def test_suspension_restore_and_sign_up_each_write_the_outbox_once(http, service, desk):  # noqa: F811
    operator, _ = desk
    with counting_statements(service.db) as signed_up:
        _, user, _ = await person(http)
    with counting_statements(service.db) as suspended:
        answer = await http.post(f"/ops/users/{user['id']}/suspend", headers=bearer(operator),
                                 json={"reason": "Bids from the creator's own second account"})
        assert answer.status_code == 200, answer.text
    with counting_statements(service.db) as restored:
        answer = await http.post(f"/ops/users/{user['id']}/restore", headers=bearer(operator),
                                 json={"reason": "Checked: a different person"})
        assert answer.status_code == 200, answer.text
    assert [c.outbox_writes() for c in (signed_up, suspended, restored)] == [(1, 1), (1, 1), (1, 1)]
