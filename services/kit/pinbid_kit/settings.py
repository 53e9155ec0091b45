"""Settings every service shares; each service subclasses with its own env prefix."""

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Literal, Self

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

if TYPE_CHECKING:
    from .secrets import SecretBox

from .paths import var_dir


class ConfigurationError(SystemExit):
    """A setting that makes the process unsafe to run. It stops the process at start with its message on one
    line and exit status 1, not a stack trace (that is what SystemExit does with a message)."""


class KitSettings(BaseSettings):
    """Common settings. Values come from the environment (and an optional .env file)."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")
    # whether the service encrypts secrets at rest (payments, social): then it needs ENCRYPTION_KEYS standalone
    keeps_secrets_at_rest: ClassVar[bool] = False

    database_url: str = "postgresql+psycopg://postgres@127.0.0.1:5432/pinbid"
    bus: Literal["inprocess", "rabbitmq"] = "inprocess"
    amqp_url: str = "amqp://guest:guest@127.0.0.1:5672/"
    # put before every exchange and queue name: deployments sharing a broker (and vhost) stay apart
    bus_prefix: str = Field(default="", pattern=r"^[A-Za-z0-9_-]*$")
    bus_max_deliveries: int = Field(default=5, ge=1, description="deliveries before a message is dead-lettered")
    # Events a process handles at once (RabbitMQ prefetch); unset: 8, or fewer if the pool is smaller. Each
    # handler holds a database connection; unbounded, a backlog after a broker outage arrived all at once,
    # exhausted the pool and was dead-lettered.
    bus_prefetch: int | None = Field(default=None, ge=1)
    jwt_public_key_file: Path = Field(default_factory=lambda: var_dir() / "keys" / "jwt-ed25519.pub")
    relay_batch_size: int = Field(default=100, ge=1)
    relay_idle_seconds: float = Field(default=1.0, gt=0)
    # Published outbox rows are kept this long, so a service added later or restored from a backup can be
    # replayed what it missed (python -m pinbid_launcher replay-outbox).
    outbox_retention_days: float = Field(default=7.0, gt=0)
    log_level: str = "INFO"
    log_json: bool = True
    public_url: str = "http://127.0.0.1:8000"
    host: str = "127.0.0.1"
    port: int = 8000
    migrate_on_start: bool = True
    # Fernet key(s), comma-separated, newest first. Empty: a key file under var/keys (sandbox providers only).
    encryption_keys: str = ""
    db_pool_size: int = Field(default=10, ge=1, description="connections kept open to the database")
    db_max_overflow: int = Field(default=20, ge=0, description="extra connections opened under load")
    db_pool_timeout: float = Field(default=5.0, gt=0, description="wait for a free connection, then 503")

    @model_validator(mode="after")
    def _refuse_to_start_misconfigured(self) -> Self:
        problems = self.problems()
        if problems:
            raise ConfigurationError("Refusing to start: " + " ".join(problems))
        return self

    def uses_real_providers(self) -> bool:
        """Whether a real outside provider (Stripe, Instagram) is configured; services with one say when."""
        return False

    def problems(self) -> list[str]:
        """What must change before this process may start, one sentence each, naming the variable."""
        from .secrets import SecretBox

        found = []
        if self.bus_prefetch is not None and self.bus_prefetch > self.db_pool_size + self.db_max_overflow:
            found.append(f"{self.env_name('bus_prefetch')} ({self.bus_prefetch}) must not exceed the connections "
                         f"the pool may open ({self.env_name('db_pool_size')} + {self.env_name('db_max_overflow')}"
                         f" = {self.db_pool_size + self.db_max_overflow}): each event handled holds one.")
        keys = self.env_name("encryption_keys")
        if not self.encryption_keys.strip():
            if self.uses_real_providers():
                found.append(f"Set {keys} (Fernet keys, comma-separated): with real providers the secrets at rest "
                             "need keys from the environment, not a key file made on the spot.")
            return found
        try:
            SecretBox.from_setting(self.encryption_keys)
        except ValueError:
            found.append(f"{keys} must hold Fernet keys (32 url-safe base64-encoded bytes each), comma-separated.")
        return found

    def events_at_once(self) -> int:
        return self.bus_prefetch or min(8, self.db_pool_size + self.db_max_overflow)

    def refuse_to_run_standalone_without_secrets(self) -> None:
        """A service or gateway in its own process (make up, compose, Kubernetes) shares its keys with the other
        pods and with its next start: they must come from the environment, never be made on the spot."""
        problems = []
        if self.keeps_secrets_at_rest and not self.encryption_keys.strip():
            problems.append(f"Set {self.env_name('encryption_keys')} (Fernet keys, comma-separated, newest "
                            "first): outside the embedded run every replica and restart must share them.")
        if not self.jwt_public_key_file.is_file():
            problems.append(f"Set {self.env_name('jwt_public_key_file')} to a readable JWT public key file "
                            f"({self.jwt_public_key_file} does not exist).")
        if problems:
            raise ConfigurationError("Refusing to start: " + " ".join(problems))

    def env_name(self, field: str) -> str:
        """The environment variable of a field, e.g. PAYMENTS_WEBHOOK_SECRET."""
        return f"{self.model_config.get('env_prefix') or ''}{field}".upper()

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
