"""Every service checks its URLs when the launcher reads its settings, before it migrates or connects: one line
naming each wrong variable, never the password a database URL carries."""

import pytest
from pinbid_gateway.settings import GatewaySettings
from pinbid_kit.settings import ConfigurationError
from pinbid_launcher import services


@pytest.mark.parametrize("module", services.installed(), ids=lambda module: module.name)
def test_every_service_names_a_malformed_database_amqp_or_public_url(module, monkeypatch):
    prefix = module.name.upper()
    monkeypatch.setenv(f"{prefix}_DATABASE_URL", "mysql://root:s3cret@db/pinbid")
    monkeypatch.setenv(f"{prefix}_AMQP_URL", "rabbit:5672")
    monkeypatch.setenv(f"{prefix}_PUBLIC_URL", "pinbid.example")
    with pytest.raises(ConfigurationError) as refused:
        module.settings()
    line = str(refused.value)
    assert "\n" not in line and "s3cret" not in line
    for variable in ("DATABASE_URL", "AMQP_URL", "PUBLIC_URL"):
        assert f"{prefix}_{variable}: must be" in line


def test_the_gateway_names_a_malformed_service_url(monkeypatch):
    monkeypatch.setenv("GATEWAY_MARKETPLACE_URL", "marketplace:8000")
    with pytest.raises(ConfigurationError, match="GATEWAY_MARKETPLACE_URL: must be an http"):
        GatewaySettings.load()
