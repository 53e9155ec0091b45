"""A software authenticator for tests: it makes passkeys (EC P-256 keys) and answers WebAuthn ceremonies with the
JSON a browser sends (`RegistrationResponseJSON` with attestation "none", `AuthenticationResponseJSON`), so the
server's real verification runs on them. Knobs let a test answer as a wrong site would, or as a copied key."""

import base64
import hashlib
import json
import os
import struct
from dataclasses import dataclass, field

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

FLAG_USER_PRESENT = 0x01
FLAG_USER_VERIFIED = 0x04
FLAG_ATTESTED_DATA = 0x40


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def cbor(value) -> bytes:
    """Enough CBOR for WebAuthn (RFC 8949): integers, byte and text strings, maps."""
    def head(major: int, n: int) -> bytes:
        if n < 24:
            return bytes([major << 5 | n])
        for info, fmt in ((24, ">B"), (25, ">H"), (26, ">I"), (27, ">Q")):
            if n < 1 << (8 * struct.calcsize(fmt)):
                return bytes([major << 5 | info]) + struct.pack(fmt, n)
        raise ValueError("too large")
    if isinstance(value, bool):
        raise TypeError("no booleans needed")
    if isinstance(value, int):
        return head(0, value) if value >= 0 else head(1, -1 - value)
    if isinstance(value, bytes):
        return head(2, len(value)) + value
    if isinstance(value, str):
        encoded = value.encode()
        return head(3, len(encoded)) + encoded
    if isinstance(value, dict):
        return head(5, len(value)) + b"".join(cbor(k) + cbor(v) for k, v in value.items())
    raise TypeError(type(value))


@dataclass
class SoftPasskey:
    credential_id: bytes
    key: ec.EllipticCurvePrivateKey
    user_handle: bytes
    rp_id: str
    sign_count: int = 0

    def cose_public_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})


@dataclass
class SoftAuthenticator:
    """One device holding passkeys, used from `origin`. `counts`: whether it increments its sign counter (synced
    passkeys often report 0 each time)."""

    origin: str
    counts: bool = True
    passkeys: list[SoftPasskey] = field(default_factory=list)

    def register(self, options: dict, *, origin: str | None = None, rp_id: str | None = None,
                 verified: bool = True) -> dict:
        """navigator.credentials.create(): a new passkey for the options' relying party and user."""
        rp = rp_id or options["rp"]["id"]
        passkey = SoftPasskey(os.urandom(32), ec.generate_private_key(ec.SECP256R1()),
                              unb64url(options["user"]["id"]), rp)
        self.passkeys.append(passkey)
        flags = FLAG_USER_PRESENT | FLAG_ATTESTED_DATA | (FLAG_USER_VERIFIED if verified else 0)
        attested = bytes(16) + struct.pack(">H", len(passkey.credential_id)) + passkey.credential_id \
            + passkey.cose_public_key()
        auth_data = hashlib.sha256(rp.encode()).digest() + bytes([flags]) + struct.pack(">I", 0) + attested
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        return {"id": b64url(passkey.credential_id), "rawId": b64url(passkey.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64url(client_data),
                             "attestationObject": b64url(cbor({"fmt": "none", "attStmt": {}, "authData": auth_data})),
                             "transports": ["internal"]},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}

    def authenticate(self, options: dict, passkey: SoftPasskey | None = None, *, origin: str | None = None,
                     rp_id: str | None = None, sign_count: int | None = None, verified: bool = True) -> dict:
        """navigator.credentials.get(): an assertion by `passkey` (by default the first one the options allow, or
        this device's first for a discoverable sign-in). `sign_count` overrides the counter (a copied key)."""
        if passkey is None:
            allowed = {unb64url(c["id"]) for c in options.get("allowCredentials") or []}
            passkey = next(p for p in self.passkeys if not allowed or p.credential_id in allowed)
        if sign_count is None:
            if self.counts:
                passkey.sign_count += 1
            sign_count = passkey.sign_count
        flags = FLAG_USER_PRESENT | (FLAG_USER_VERIFIED if verified else 0)
        rp = rp_id or options.get("rpId") or passkey.rp_id
        auth_data = hashlib.sha256(rp.encode()).digest() + bytes([flags]) + struct.pack(">I", sign_count)
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = passkey.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": b64url(passkey.credential_id), "rawId": b64url(passkey.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64url(client_data), "authenticatorData": b64url(auth_data),
                             "signature": b64url(signature), "userHandle": b64url(passkey.user_handle)},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin or self.origin,
                           "crossOrigin": False}, separators=(",", ":")).encode()
