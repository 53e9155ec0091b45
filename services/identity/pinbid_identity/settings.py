import os
from pathlib import Path

from pinbid_kit.paths import var_dir
from pinbid_kit.setting_types import PostgresUrl
from pinbid_kit.settings import MailSettings
from pydantic import Field
from pydantic_settings import SettingsConfigDict

from .domain.throttle import LoginPolicy


class IdentitySettings(MailSettings):
    model_config = SettingsConfigDict(env_prefix="IDENTITY_")
    # on its first start (compose keeps the pair in its `keys` volume); later starts read it back
    makes_its_jwt_keys = True
    keeps_secrets_at_rest = True  # the operators' TOTP secrets

    database_url: PostgresUrl = "postgresql+psycopg://postgres@127.0.0.1:5432/pinbid_identity"
    jwt_private_key_file: Path = Field(default_factory=lambda: var_dir() / "keys" / "jwt-ed25519.pem")
    token_ttl_seconds: int = Field(default=12 * 3600, ge=60)
    # operators' tokens: short-lived, as they can move money and suspend accounts
    operator_token_ttl_seconds: int = Field(default=3600, ge=60)
    totp_issuer: str = Field(default="Pinbid", min_length=1, max_length=60,
                             description="the issuer shown in the operator's authenticator app")
    reset_token_ttl_seconds: int = Field(default=3600, ge=60)
    # Failed logins only (successes never count): per (email, client address) and per client address in
    # one window, and per email alone, much higher, as the last resort against guessing from many addresses.
    throttle_window_seconds: int = Field(default=900, ge=1)
    login_failures_per_email_and_client: int = Field(default=5, ge=1)
    login_failures_per_client: int = Field(default=30, ge=1)
    login_failures_per_email: int = Field(default=50, ge=1)
    email_throttle_window_seconds: int = Field(default=3600, ge=1)
    argon2_time_cost: int = Field(default=2, ge=1)
    argon2_memory_kib: int = Field(default=19_456, ge=8)
    argon2_parallelism: int = Field(default=1, ge=1)
    # At most one notice mail of a kind about one slot (or payment, payout) per this many seconds per user.
    notice_mail_coalesce_seconds: float = Field(default=300, ge=0)
    reminders_every_seconds: float = Field(default=30, gt=0, description="how often due reminders are fired")

    def standalone_problems(self) -> list[str]:
        found = super().standalone_problems()
        if not self.jwt_private_key_file.is_file() and not _can_create(self.jwt_private_key_file):
            found.append(f"Set {self.env_name('jwt_private_key_file')} to the JWT private key file, or to a path "
                         f"where identity can write a new key pair ({self.jwt_private_key_file} does not exist "
                         "and cannot be written).")
        return found

    def login_policy(self) -> LoginPolicy:
        return LoginPolicy(per_email_and_client=self.login_failures_per_email_and_client,
                           per_client=self.login_failures_per_client, window_seconds=self.throttle_window_seconds,
                           per_email=self.login_failures_per_email,
                           email_window_seconds=self.email_throttle_window_seconds)


def _can_create(path: Path) -> bool:
    """Whether a file can be written at `path` (its nearest existing folder is writable)."""
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder.is_dir() and os.access(folder, os.W_OK)


SETTINGS = IdentitySettings
