"""Settings every service shares: refusing to start misconfigured, and the database pool's bounds."""

import pytest
from cryptography.fernet import Fernet
from pinbid_kit.settings import ConfigurationError, KitSettings
from pydantic_settings import SettingsConfigDict


class RealSettings(KitSettings):
    model_config = SettingsConfigDict(env_prefix="TESTSVC_", extra="ignore")

    keeps_secrets_at_rest = True
    provider: str = "sandbox"

    def uses_real_providers(self) -> bool:
        return self.provider == "real"


def test_real_providers_without_encryption_keys_refuse_to_start_with_one_line():
    with pytest.raises(ConfigurationError) as refused:
        RealSettings(provider="real")
    message = str(refused.value)
    assert isinstance(refused.value, SystemExit)  # the process ends with this line and status 1, no traceback
    assert "TESTSVC_ENCRYPTION_KEYS" in message and "\n" not in message


def test_keys_that_are_not_fernet_keys_refuse_to_start():
    with pytest.raises(ConfigurationError, match="TESTSVC_ENCRYPTION_KEYS must hold Fernet keys"):
        RealSettings(provider="real", encryption_keys="not-a-key")


def test_sandbox_without_keys_and_real_with_keys_start():
    assert RealSettings().encryption_keys == ""  # the embedded default keeps its local key file
    keys = f"{Fernet.generate_key().decode()},{Fernet.generate_key().decode()}"
    assert RealSettings(provider="real", encryption_keys=keys).secret_box().open(
        RealSettings(provider="real", encryption_keys=keys).secret_box().seal("x")) == "x"


def test_the_pool_is_bounded_by_settings(monkeypatch):
    monkeypatch.setenv("TESTSVC_DB_POOL_SIZE", "3")
    monkeypatch.setenv("TESTSVC_DB_MAX_OVERFLOW", "2")
    monkeypatch.setenv("TESTSVC_DB_POOL_TIMEOUT", "0.5")
    settings = RealSettings()
    assert (settings.db_pool_size, settings.db_max_overflow, settings.db_pool_timeout) == (3, 2, 0.5)
    assert settings.env_name("db_pool_size") == "TESTSVC_DB_POOL_SIZE"


def test_standalone_without_encryption_keys_or_jwt_public_key_refuses_to_start_naming_them(tmp_path):
    with pytest.raises(ConfigurationError) as refused:
        RealSettings(standalone=True, jwt_public_key_file=tmp_path / "missing.pub")
    message = str(refused.value)
    assert "TESTSVC_ENCRYPTION_KEYS" in message and "TESTSVC_JWT_PUBLIC_KEY_FILE" in message
    assert "\n" not in message


def test_standalone_with_keys_starts_and_a_process_that_encrypts_nothing_needs_only_the_jwt_key(tmp_path):
    class PlainSettings(KitSettings):
        model_config = SettingsConfigDict(env_prefix="PLAINSVC_", extra="ignore")

    public_key = tmp_path / "jwt.pub"
    public_key.write_text("-----BEGIN PUBLIC KEY-----\n")
    PlainSettings(standalone=True, jwt_public_key_file=public_key)
    with pytest.raises(ConfigurationError, match="PLAINSVC_JWT_PUBLIC_KEY_FILE"):
        PlainSettings(standalone=True, jwt_public_key_file=tmp_path / "none.pub")
    RealSettings(standalone=True, jwt_public_key_file=public_key, encryption_keys=Fernet.generate_key().decode())
    PlainSettings(jwt_public_key_file=tmp_path / "none.pub")  # the embedded run makes what it lacks


def test_a_malformed_url_or_number_stops_with_one_line_naming_each_variable(monkeypatch):
    monkeypatch.setenv("TESTSVC_PUBLIC_URL", "127.0.0.1:8000")
    monkeypatch.setenv("TESTSVC_DATABASE_URL", "mysql://root:s3cret@db/pinbid")
    monkeypatch.setenv("TESTSVC_AMQP_URL", "guest:guest@rabbit")
    monkeypatch.setenv("TESTSVC_DB_POOL_SIZE", "ten")
    with pytest.raises(ConfigurationError) as refused:
        RealSettings.load()
    message = str(refused.value)
    assert message.startswith("Refusing to start: ") and "\n" not in message
    assert "TESTSVC_PUBLIC_URL: must be an http(s) URL with a host, not '127.0.0.1:8000'." in message
    assert "TESTSVC_DATABASE_URL: must be a PostgreSQL URL" in message
    assert "TESTSVC_AMQP_URL: must be an AMQP URL" in message
    assert "TESTSVC_DB_POOL_SIZE: input should be a valid integer" in message
    assert "s3cret" not in message and "guest:guest" not in message  # URLs with passwords are never repeated


@pytest.mark.parametrize("url", ["http://a\x01b", "http://pinbid.example/\x00x", "http://exa mple.com",
                                 "https://pinbid.example/\n", "http://pinbid.example/\x7f"])
def test_a_url_with_a_space_or_a_control_character_is_refused(url):
    with pytest.raises(ConfigurationError, match="TESTSVC_PUBLIC_URL: must be an http\\(s\\) URL with a host"):
        RealSettings.load(public_url=url)  # NUL cannot travel in an environment variable, the rest can


def test_a_list_setting_that_is_not_json_stops_with_one_line_naming_it(monkeypatch):
    class ListSettings(KitSettings):
        model_config = SettingsConfigDict(env_prefix="LISTSVC_", extra="ignore")
        origins: list[str] = []

    monkeypatch.setenv("LISTSVC_ORIGINS", "https://a.example")
    with pytest.raises(ConfigurationError, match=r"^Refusing to start: LISTSVC_ORIGINS: not valid JSON"):
        ListSettings.load()


def test_urls_of_every_accepted_form_are_kept_as_written():
    settings = RealSettings(database_url="postgresql:///pinbid?host=/var/run/postgresql",
                            database_listen_url="postgres://app:pw@db:5432/pinbid",
                            amqp_url="amqps://user:pw@rabbit:5671/pinbid", public_url="https://pinbid.example/")
    assert settings.public_url == "https://pinbid.example/"
    assert settings.listen_url() == "postgres://app:pw@db:5432/pinbid"
    assert RealSettings().listen_url() == RealSettings().database_url  # no pooler: LISTEN where it queries


def test_a_pooled_database_needs_a_direct_listen_url_and_no_migrations_at_start():
    with pytest.raises(ConfigurationError) as refused:
        RealSettings(database_pooled=True)
    message = str(refused.value)
    assert "Set TESTSVC_DATABASE_LISTEN_URL" in message and "Set TESTSVC_MIGRATE_ON_START=false" in message
    pooled = RealSettings(database_pooled=True, migrate_on_start=False,
                          database_url="postgresql://app:pw@pgbouncer:6432/pinbid",
                          database_listen_url="postgresql://app:pw@postgres:5432/pinbid")
    assert pooled.listen_url() == "postgresql://app:pw@postgres:5432/pinbid"


def test_a_value_sealed_under_the_old_key_is_read_after_rotation_and_new_values_use_the_new_key():
    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    sealed_before = RealSettings(encryption_keys=old).secret_box().seal("IBAN DE89370400440532013000")
    rotated = RealSettings(encryption_keys=f"{new},{old}").secret_box()  # newest first
    assert rotated.open(sealed_before) == "IBAN DE89370400440532013000"
    sealed_after = rotated.seal("new value")
    assert RealSettings(encryption_keys=new).secret_box().open(sealed_after) == "new value"
    with pytest.raises(ValueError, match="cannot decrypt"):
        RealSettings(encryption_keys=old).secret_box().open(sealed_after)


def test_the_bus_prefix_is_a_plain_name():
    assert RealSettings(bus_prefix="pinbid_e2e").bus_prefix == "pinbid_e2e"
    with pytest.raises(ValueError):
        RealSettings(bus_prefix="a.b/c")


def test_a_process_handles_no_more_events_at_once_than_its_pool_has_connections_whatever_the_prefetch():
    assert RealSettings(bus_prefetch=64, db_pool_size=5, db_max_overflow=5).events_at_once() == 8
    assert RealSettings().bus_prefetch == 32 and RealSettings().events_at_once() == 8
    assert RealSettings(bus_prefetch=2, db_pool_size=3, db_max_overflow=2).events_at_once() == 5  # the pool's size
