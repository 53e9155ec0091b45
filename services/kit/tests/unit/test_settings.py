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
    settings = RealSettings(jwt_public_key_file=tmp_path / "missing.pub")
    with pytest.raises(ConfigurationError) as refused:
        settings.refuse_to_run_standalone_without_secrets()
    message = str(refused.value)
    assert "TESTSVC_ENCRYPTION_KEYS" in message and "TESTSVC_JWT_PUBLIC_KEY_FILE" in message
    assert "\n" not in message


def test_standalone_with_keys_starts_and_a_process_that_encrypts_nothing_needs_only_the_jwt_key(tmp_path):
    class PlainSettings(KitSettings):
        model_config = SettingsConfigDict(env_prefix="PLAINSVC_", extra="ignore")

    public_key = tmp_path / "jwt.pub"
    public_key.write_text("-----BEGIN PUBLIC KEY-----\n")
    PlainSettings(jwt_public_key_file=public_key).refuse_to_run_standalone_without_secrets()
    with pytest.raises(ConfigurationError, match="PLAINSVC_JWT_PUBLIC_KEY_FILE"):
        PlainSettings(jwt_public_key_file=tmp_path / "none.pub").refuse_to_run_standalone_without_secrets()
    RealSettings(jwt_public_key_file=public_key, encryption_keys=Fernet.generate_key().decode()
                 ).refuse_to_run_standalone_without_secrets()


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


def test_handling_more_events_at_once_than_the_pool_has_connections_refuses_to_start():
    with pytest.raises(ConfigurationError, match=r"TESTSVC_BUS_PREFETCH \(20\) must not exceed .* = 10"):
        RealSettings(bus_prefetch=20, db_pool_size=5, db_max_overflow=5)
    assert RealSettings(bus_prefetch=10, db_pool_size=5, db_max_overflow=5).events_at_once() == 10
    assert RealSettings().events_at_once() == 8
    assert RealSettings(db_pool_size=3, db_max_overflow=2).events_at_once() == 5  # never more than the pool
