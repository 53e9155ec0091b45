"""EdDSA (Ed25519) JWTs. Identity signs with the private key; the gateway and services verify
with the public key. `tv` (token version) lets a password change revoke every earlier token."""

import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .revocations import Revocations

ISSUER = "pinbid-identity"
AUDIENCE = "pinbid"
ROLES = ("INFLUENCER", "BUYER", "OPERATOR")  # OPERATOR: staff, never signed up for, signed in with a second factor


@dataclass(frozen=True)
class Principal:
    user_id: uuid.UUID
    role: str
    token_version: int
    issued_at: int
    token: str
    # `mf`: the account has a second factor on (turning it on or off revokes earlier tokens, so this stays true);
    # `sf`: when this session last proved it (epoch seconds), for the step-up rule in pinbid_kit.step_up
    second_factor_on: bool = False
    second_factor_at: int | None = None


class InvalidToken(Exception):
    pass


class RevokedToken(InvalidToken):
    """A valid signature on a token whose version was revoked (password or email changed since)."""


def generate_keypair(private_path: Path, public_path: Path) -> None:
    """Writes a new Ed25519 key pair (PEM) unless the private key already exists."""
    if private_path.exists():
        if not public_path.exists():
            key = serialization.load_pem_private_key(private_path.read_bytes(), password=None)
            public_path.write_bytes(_public_pem(key.public_key()))
        return
    private_path.parent.mkdir(parents=True, exist_ok=True)
    key = Ed25519PrivateKey.generate()
    private_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                          serialization.NoEncryption())
    )
    private_path.chmod(0o600)
    public_path.write_bytes(_public_pem(key.public_key()))


def _public_pem(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


class TokenSigner:
    def __init__(self, private_key_pem: bytes, *, ttl_seconds: int):
        self._key = serialization.load_pem_private_key(private_key_pem, password=None)
        self.ttl_seconds = ttl_seconds

    def sign(self, user_id: uuid.UUID, role: str, token_version: int, *, ttl_seconds: int | None = None,
             second_factor_on: bool = False, second_factor_at: int | None = None) -> str:
        """`ttl_seconds` overrides the signer's lifetime for this token (operators' tokens are short-lived);
        `second_factor_on` and `second_factor_at` become the `mf` and `sf` claims (see Principal)."""
        now = int(time.time())
        claims = {"sub": str(user_id), "role": role, "tv": token_version, "iat": now,
                  "exp": now + (ttl_seconds or self.ttl_seconds), "iss": ISSUER, "aud": AUDIENCE,
                  "jti": uuid.uuid4().hex}
        if second_factor_on:
            claims["mf"] = True
        if second_factor_at is not None:
            claims["sf"] = int(second_factor_at)
        return jwt.encode(claims, self._key, algorithm="EdDSA")


class TokenVerifier:
    """Verifies tokens; a verified token is remembered (by its exact text) until it expires, since the
    signature check is the costliest step of a request through the gateway. A token whose version is
    revoked is refused, cached or not."""

    CACHE_SIZE = 10_000

    def __init__(self, public_key_pem: bytes | None = None, *, key_file: Path | None = None):
        self._key = serialization.load_pem_public_key(public_key_pem) if public_key_pem else None
        self._key_file = key_file
        self._verified: OrderedDict[str, tuple[Principal, int]] = OrderedDict()
        self.revocations = Revocations()

    @classmethod
    def from_file(cls, path: Path) -> "TokenVerifier":
        """Reads the key on first use: in a distributed start identity may write it after this process starts."""
        return cls(key_file=path)

    def _public_key(self):
        if self._key is None:
            assert self._key_file is not None
            self._key = serialization.load_pem_public_key(self._key_file.read_bytes())
        return self._key

    def verify(self, token: str) -> Principal:
        principal = self._signed_principal(token)
        if self.revocations.is_revoked(principal.user_id, principal.token_version):
            raise RevokedToken("revoked")
        return principal

    def expiry(self, token: str) -> int:
        """When an accepted token expires (seconds since the epoch); refuses it as `verify` does."""
        self.verify(token)
        return self._verified[token][1]

    def _signed_principal(self, token: str) -> Principal:
        cached = self._verified.get(token)
        if cached is not None:
            if cached[1] <= time.time():
                del self._verified[token]
                raise InvalidToken("expired")
            self._verified.move_to_end(token)
            return cached[0]
        principal, expires = self._verify(token)
        self._verified[token] = (principal, expires)
        if len(self._verified) > self.CACHE_SIZE:
            self._verified.popitem(last=False)
        return principal

    def _verify(self, token: str) -> tuple[Principal, int]:
        try:
            claims = jwt.decode(token, self._public_key(), algorithms=["EdDSA"], audience=AUDIENCE, issuer=ISSUER,
                                options={"require": ["exp", "iat", "sub", "role", "tv"]})
            role = claims["role"]
            if role not in ROLES:
                raise InvalidToken("unknown role")
            proved_at = claims.get("sf")
            principal = Principal(uuid.UUID(claims["sub"]), role, int(claims["tv"]), int(claims["iat"]), token,
                                  second_factor_on=claims.get("mf") is True,
                                  second_factor_at=int(proved_at) if proved_at is not None else None)
            return principal, int(claims["exp"])
        except (jwt.PyJWTError, ValueError, TypeError, KeyError) as exc:
            raise InvalidToken(str(exc)) from exc
