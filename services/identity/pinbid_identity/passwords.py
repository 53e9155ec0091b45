"""argon2id password hashing, run off the event loop."""

import asyncio

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError


class Passwords:
    def __init__(self, *, time_cost: int, memory_kib: int, parallelism: int):
        self._hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism)
        # verified against when the email is unknown, so both cases cost the same
        self._decoy = self._hasher.hash("decoy-password-for-timing")

    async def hash(self, password: str) -> str:
        return await asyncio.to_thread(self._hasher.hash, password)

    async def verify(self, password_hash: str | None, password: str) -> bool:
        def check() -> bool:
            try:
                return self._hasher.verify(password_hash or self._decoy, password) and password_hash is not None
            except (VerificationError, InvalidHashError):
                return False

        return await asyncio.to_thread(check)

    def needs_rehash(self, password_hash: str) -> bool:
        return self._hasher.check_needs_rehash(password_hash)
