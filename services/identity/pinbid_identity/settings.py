from pathlib import Path

from pinbid_kit.paths import var_dir
from pinbid_kit.settings import MailSettings
from pydantic import Field
from pydantic_settings import SettingsConfigDict


class IdentitySettings(MailSettings):
    model_config = SettingsConfigDict(env_prefix="IDENTITY_", env_file=".env", extra="ignore")

    database_url: str = "postgresql+psycopg://postgres@127.0.0.1:5432/pinbid_identity"
    jwt_private_key_file: Path = Field(default_factory=lambda: var_dir() / "keys" / "jwt-ed25519.pem")
    token_ttl_seconds: int = Field(default=12 * 3600, ge=60)
    reset_token_ttl_seconds: int = Field(default=3600, ge=60)
    throttle_window_seconds: int = Field(default=900, ge=1)
    login_failures_per_email: int = Field(default=5, ge=1, description="failed logins per email and window")
    login_attempts_per_ip: int = Field(default=30, ge=1, description="logins per client address and window")
    argon2_time_cost: int = Field(default=2, ge=1)
    argon2_memory_kib: int = Field(default=19_456, ge=8)
    argon2_parallelism: int = Field(default=1, ge=1)

