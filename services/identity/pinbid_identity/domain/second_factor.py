"""The second factor: TOTP (RFC 6238, 30-second steps, 6 digits) with a code accepted once.

A code is matched against the current step and one step either side (clock drift between the phone and the
server); the step it matched is remembered, and a code of that step or an earlier one is refused afterwards,
so a code seen over a shoulder or in a log cannot be used again."""

import hashlib
import hmac
import re
import secrets
from datetime import datetime

import pyotp

STEP_SECONDS = 30
DRIFT_STEPS = 1
CODE = re.compile(r"^[0-9]{6}$")


def new_secret() -> str:
    return pyotp.random_base32()


def provisioning_uri(secret: str, account: str, issuer: str) -> str:
    """The otpauth:// URI an authenticator app reads (usually from a QR code)."""
    return pyotp.TOTP(secret).provisioning_uri(name=account, issuer_name=issuer)


def current_step(now: datetime) -> int:
    return int(now.timestamp()) // STEP_SECONDS


def accepted_step(secret: str, code: str, now: datetime, last_accepted_step: int | None) -> int | None:
    """The time step `code` belongs to, if it is valid now and newer than the last accepted one; else None."""
    code = code.strip()
    if not CODE.match(code):
        return None
    totp = pyotp.TOTP(secret)
    step = current_step(now)
    for candidate in range(step - DRIFT_STEPS, step + DRIFT_STEPS + 1):
        if last_accepted_step is not None and candidate <= last_accepted_step:
            continue
        if hmac.compare_digest(totp.generate_otp(candidate), code):
            return candidate
    return None


def code_at(secret: str, now: datetime) -> str:
    """The code an authenticator app shows at `now` (tests, the demo)."""
    return pyotp.TOTP(secret).generate_otp(current_step(now))


# --- recovery codes: single-use stand-ins for a TOTP code (a lost phone) ------------------------------------
RECOVERY_CODES = 10
_RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read from paper
_RECOVERY_HALF = 5
RECOVERY_CODE = re.compile(r"^[a-z0-9]{10}$")


def new_recovery_codes() -> list[str]:
    """Ten codes like `k7m2p-x9q4r` (about 49 bits each)."""
    def half() -> str:
        return "".join(secrets.choice(_RECOVERY_ALPHABET) for _ in range(_RECOVERY_HALF))
    return [f"{half()}-{half()}" for _ in range(RECOVERY_CODES)]


def recovery_code_digest(code: str) -> str | None:
    """The stored form of a typed recovery code (any case, spaces and dashes ignored); None when it cannot be one."""
    cleaned = re.sub(r"[\s-]", "", code).lower()
    if not RECOVERY_CODE.match(cleaned):
        return None
    return hashlib.sha256(cleaned.encode()).hexdigest()
