"""Secrets and personal data at rest (Instagram tokens and sessions, bank and PayPal details):
encrypted with Fernet (AES-128-CBC + HMAC-SHA256), and shown masked (••••1234) when read back."""

from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken, MultiFernet


class SecretBox:
    """Encrypts with the first key; decrypts with any (so keys can be rotated: put the new one first)."""

    def __init__(self, keys: list[bytes]):
        if not keys:
            raise ValueError("at least one encryption key is needed")
        self._fernet = MultiFernet([Fernet(k) for k in keys])

    @classmethod
    def from_setting(cls, value: str) -> "SecretBox":
        """`value` holds one or more comma-separated Fernet keys."""
        return cls([k.strip().encode() for k in value.split(",") if k.strip()])

    def seal(self, plaintext: str) -> str:
        return self._fernet.encrypt(plaintext.encode()).decode()

    def open(self, sealed: str) -> str:
        try:
            return self._fernet.decrypt(sealed.encode()).decode()
        except InvalidToken as exc:
            raise ValueError("cannot decrypt: wrong key or damaged value") from exc


def load_or_create_key(path: Path) -> str:
    """A local key file for the embedded default; production passes keys in the environment."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(Fernet.generate_key())
        path.chmod(0o600)
    return path.read_text().strip()


def mask(value: str | None, *, keep: int = 4) -> str | None:
    """'12345678' -> '••••5678'; short values are masked whole."""
    if value is None:
        return None
    tail = value[-keep:] if len(value) >= keep * 2 else ""
    return "••••" + tail
