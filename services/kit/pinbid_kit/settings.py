"""Settings every service shares; each service subclasses with its own env prefix."""

import re
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Literal, Self

from pydantic import Field, ValidationError, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict, SettingsError

if TYPE_CHECKING:
    from .secrets import SecretBox

from .paths import var_dir
from .setting_types import AmqpUrl, PostgresUrl, WebUrl


class ConfigurationError(SystemExit):
    """A setting that makes the process unsafe to run. It stops the process at start with its message on one
    line and exit status 1, not a stack trace (that is what SystemExit does with a message)."""


class KitSettings(BaseSettings):
    """Common settings. Values come from the environment (and an optional .env file)."""

    # a service's settings add only their `env_prefix`; pydantic merges the rest of this config into theirs
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")
    # whether the service encrypts secrets at rest (payments, social): then it needs ENCRYPTION_KEYS standalone
    keeps_secrets_at_rest: ClassVar[bool] = False
    # whether the service makes its own JWT key pair when it has none (identity): then none is needed to start
    makes_its_jwt_keys: ClassVar[bool] = False

    # Set by the launcher for a process of its own (make up, compose, Kubernetes): its secrets must then come
    # from the environment, shared by every replica and restart, never be made on the spot.
    standalone: bool = False
    database_url: PostgresUrl = "postgresql+psycopg://postgres@127.0.0.1:5432/pinbid"
    # DATABASE_URL goes through a pooler in transaction mode (PgBouncer): a connection is this process's only
    # for one transaction, so psycopg prepares no statement on the server (another client would get the
    # connection, without them), and the outbox relay LISTENs on DATABASE_LISTEN_URL, straight to PostgreSQL.
    database_pooled: bool = False
    database_listen_url: PostgresUrl | None = None
    bus: Literal["inprocess", "rabbitmq"] = "inprocess"
    amqp_url: AmqpUrl = "amqp://guest:guest@127.0.0.1:5672/"
    # put before every exchange and queue name: deployments sharing a broker (and vhost) stay apart
    bus_prefix: str = Field(default="", pattern=r"^[A-Za-z0-9_-]*$")
    bus_max_deliveries: int = Field(default=5, ge=1, description="deliveries before a message is dead-lettered")
    # Deliveries RabbitMQ hands a process at once (its prefetch). A process handles at most `events_at_once()` of
    # them at a time (each holds a database connection; unbounded, a backlog after a broker outage exhausted the
    # pool and was dead-lettered); the others wait holding none, and those of a type taken in bursts join a burst.
    bus_prefetch: int = Field(default=32, ge=1)
    jwt_public_key_file: Path = Field(default_factory=lambda: var_dir() / "keys" / "jwt-ed25519.pub")
    relay_batch_size: int = Field(default=100, ge=1)
    relay_idle_seconds: float = Field(default=1.0, gt=0)
    # Published outbox rows are kept this long, so a service added later or restored from a backup can be
    # replayed what it missed (python -m pinbid_launcher replay-outbox).
    outbox_retention_days: float = Field(default=7.0, gt=0)
    log_level: str = "INFO"
    log_json: bool = True
    # localhost, not 127.0.0.1: a browser refuses an IP address as the passkeys' relying party ID
    public_url: WebUrl = "http://localhost:8000"
    host: str = "127.0.0.1"
    port: int = 8000
    migrate_on_start: bool = True
    # Fernet key(s), comma-separated, newest first. Empty: a key file under var/keys (sandbox providers only).
    encryption_keys: str = ""
    db_pool_size: int = Field(default=10, ge=1, description="connections kept open to the database")
    db_max_overflow: int = Field(default=20, ge=0, description="extra connections opened under load")
    db_pool_timeout: float = Field(default=5.0, gt=0, description="wait for a free connection, then 503")

    @classmethod
    def load(cls, **overrides) -> Self:
        """The settings from the environment (and `overrides`). A value that is not valid ends the process with
        ConfigurationError: one line naming each wrong variable, instead of pydantic's multi-line report."""
        try:
            return cls(**overrides)
        except ValidationError as exc:
            reasons = [f"{_variable(cls, error['loc'])}: {_reason(error['msg'])}." for error in exc.errors()]
            raise ConfigurationError("Refusing to start: " + " ".join(reasons)) from None
        except SettingsError as exc:  # a list or dict setting whose value is not JSON
            field = re.search(r'field "(\w+)"', str(exc))
            raise ConfigurationError(f"Refusing to start: {cls.env_name(field[1]) if field else exc}: "
                                     "not valid JSON (a list is written [\"a\", \"b\"]).") from None

    @model_validator(mode="after")
    def _refuse_to_start_misconfigured(self) -> Self:
        problems = self.problems() + (self.standalone_problems() if self.standalone else [])
        if problems:
            raise ConfigurationError("Refusing to start: " + " ".join(problems))
        return self

    def uses_real_providers(self) -> bool:
        """Whether a real outside provider (Stripe, Instagram) is configured; services with one say when."""
        return False

    def problems(self) -> list[str]:
        """What must change before this process may start, one sentence each, naming the variable."""
        return self._encryption_key_problems() + self._pooler_problems()

    def _encryption_key_problems(self) -> list[str]:
        from .secrets import SecretBox

        keys = self.env_name("encryption_keys")
        if not self.encryption_keys.strip():
            if self.uses_real_providers():
                return [f"Set {keys} (Fernet keys, comma-separated): with real providers the secrets at rest "
                        "need keys from the environment, not a key file made on the spot."]
            return []
        try:
            SecretBox.from_setting(self.encryption_keys)
        except ValueError:
            return [f"{keys} must hold Fernet keys (32 url-safe base64-encoded bytes each), comma-separated."]
        return []

    def _pooler_problems(self) -> list[str]:
        if not self.database_pooled:
            return []
        found = []
        if not self.database_listen_url:
            found.append(f"Set {self.env_name('database_listen_url')} to a direct PostgreSQL URL: with "
                         f"{self.env_name('database_pooled')} the relay cannot LISTEN through the pooler.")
        if self.migrate_on_start:
            found.append(f"Set {self.env_name('migrate_on_start')}=false and migrate with a direct URL "
                         "(python -m pinbid_launcher migrate): the migration lock is a session lock, which a "
                         "pooler in transaction mode does not keep.")
        return found

    def standalone_problems(self) -> list[str]:
        """A service or gateway in its own process shares its keys with the other pods and with its next start:
        they must come from the environment, never be made on the spot."""
        found = []
        if self.keeps_secrets_at_rest and not self.encryption_keys.strip():
            found.append(f"Set {self.env_name('encryption_keys')} (Fernet keys, comma-separated, newest "
                         "first): outside the embedded run every replica and restart must share them.")
        if not self.makes_its_jwt_keys and not self.jwt_public_key_file.is_file():
            found.append(f"Set {self.env_name('jwt_public_key_file')} to a readable JWT public key file "
                         f"({self.jwt_public_key_file} does not exist).")
        return found

    def events_at_once(self) -> int:
        """Deliveries a process handles at a time, each with a connection: 8, or fewer if the pool is smaller."""
        return min(8, self.db_pool_size + self.db_max_overflow)

    def listen_url(self) -> str:
        """Where the outbox relay LISTENs: straight to PostgreSQL, also when DATABASE_URL is pooled."""
        return self.database_listen_url or self.database_url

    @classmethod
    def env_name(cls, field: str) -> str:
        """The environment variable of a field, e.g. PAYMENTS_WEBHOOK_SECRET."""
        return f"{cls.model_config.get('env_prefix') or ''}{field}".upper()

    def secret_box(self) -> "SecretBox":
        from .secrets import SecretBox, load_or_create_key

        return SecretBox.from_setting(self.encryption_keys or load_or_create_key(var_dir() / "keys" / "data.key"))


def _variable(settings: type[KitSettings], location: tuple) -> str:
    return settings.env_name(str(location[0])) if location else settings.__name__


def _reason(message: str) -> str:
    """pydantic's message without its 'Value error, ' label: 'must be an http(s) URL with a host, …'."""
    message = message.removeprefix("Value error, ")
    return message[:1].lower() + message[1:]


class MailSettings(KitSettings):
    """Settings of a service that sends mail: SMTP when a host is set, else .eml files in a folder."""

    mail_from: str = "Pinbid <no-reply@pinbid.local>"
    mail_folder: Path = Field(default_factory=lambda: var_dir() / "mail")
    smtp_host: str | None = None
    smtp_port: int = 587
    smtp_username: str | None = None
    smtp_password: str | None = None
    smtp_starttls: bool = True
