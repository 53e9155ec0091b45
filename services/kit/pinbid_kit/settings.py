"""Settings every service shares; each service subclasses with its own env prefix."""

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

if TYPE_CHECKING:
    from .secrets import SecretBox

from .paths import var_dir


class KitSettings(BaseSettings):
    """Common settings. Values come from the environment (and an optional .env file)."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = "postgresql+psycopg://postgres@127.0.0.1:5432/pinbid"
    bus: Literal["inprocess", "rabbitmq"] = "inprocess"
    amqp_url: str = "amqp://guest:guest@127.0.0.1:5672/"
    bus_max_deliveries: int = Field(default=5, ge=1, description="deliveries before a message is dead-lettered")
    jwt_public_key_file: Path = Field(default_factory=lambda: var_dir() / "keys" / "jwt-ed25519.pub")
    relay_batch_size: int = Field(default=100, ge=1)
    relay_idle_seconds: float = Field(default=1.0, gt=0)
    log_level: str = "INFO"
    log_json: bool = True
    otel_exporter_otlp_endpoint: str | None = None
    public_url: str = "http://127.0.0.1:8000"
    host: str = "127.0.0.1"
    port: int = 8000
    migrate_on_start: bool = True
    # Fernet key(s), comma-separated, newest first. Empty: a key file under var/keys (embedded default only).
    encryption_keys: str = ""

    def secret_box(self) -> "SecretBox":
        from .secrets import SecretBox, load_or_create_key

        return SecretBox.from_setting(self.encryption_keys or load_or_create_key(var_dir() / "keys" / "data.key"))


class MailSettings(KitSettings):
    """Settings of a service that sends mail: SMTP when a host is set, else .eml files in a folder."""

    mail_from: str = "Pinbid <no-reply@pinbid.local>"
    mail_folder: Path = Field(default_factory=lambda: var_dir() / "mail")
    smtp_host: str | None = None
    smtp_port: int = 587
    smtp_username: str | None = None
    smtp_password: str | None = None
    smtp_starttls: bool = True
