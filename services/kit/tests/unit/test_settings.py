"""Settings every service shares: refusing to start misconfigured, and the database pool's bounds."""

import pytest
from cryptography.fernet import Fernet
from pinbid_kit.settings import ConfigurationError, KitSettings
from pydantic_settings import SettingsConfigDict


class RealSettings(KitSettings):
    model_config = SettingsConfigDict(env_prefix="TESTSVC_", extra="ignore")

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
