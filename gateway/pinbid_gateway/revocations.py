"""Which tokens were revoked: the lowest valid token version per user, fed by identity's
`sessions_revoked` events and, at start-up, by identity's list of recent revocations."""

import uuid

from pinbid_kit.envelope import Envelope
from pinbid_kit.events.identity import SessionsRevoked
from pinbid_kit.tokens import Principal


class Revocations:
    def __init__(self) -> None:
        self._min_version: dict[uuid.UUID, int] = {}
        self.loaded = False

    def apply(self, user_id: uuid.UUID, token_version: int) -> None:
        if token_version > self._min_version.get(user_id, 0):
            self._min_version[user_id] = token_version

    def is_revoked(self, principal: Principal) -> bool:
        return principal.token_version < self._min_version.get(principal.user_id, 0)

    async def on_event(self, envelope: Envelope, _headers: dict[str, str]) -> None:
        data = SessionsRevoked.model_validate(envelope.data)
        self.apply(data.user_id, data.token_version)
