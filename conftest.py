import pytest

pytest_plugins = ["pinbid_testing.plugin"]


@pytest.fixture
def identity_settings(new_database, tmp_path):
    """identity_settings(**changes) -> IdentitySettings for an identity a test builds: its own migrated database,
    its signing keys at tmp_path/k.pem and k.pub (the gateway's verifier reads k.pub), mail into tmp_path/mail, and
    password hashing made cheap."""
    from pinbid_identity.settings import IdentitySettings

    def settings(**changes) -> IdentitySettings:
        return IdentitySettings(**{
            "database_url": new_database("pinbid_identity"), "jwt_private_key_file": tmp_path / "k.pem",
            "jwt_public_key_file": tmp_path / "k.pub", "mail_folder": tmp_path / "mail", "argon2_time_cost": 1,
            "argon2_memory_kib": 1024, **changes})

    return settings


@pytest.fixture
def gateway_before_identity_and_marketplace(identity_settings, new_database, tmp_path):
    """(gateway, identity, marketplace) built, not started: the two services on their own databases, the gateway
    before them in process. Start the services with pinbid_testing.running and attach the gateway to its bus."""
    from pinbid_gateway.app import Gateway
    from pinbid_gateway.settings import GatewaySettings
    from pinbid_gateway.upstreams import Upstreams
    from pinbid_identity.app import build as build_identity
    from pinbid_kit.tokens import TokenVerifier
    from pinbid_marketplace.app import build as build_marketplace
    from pinbid_marketplace.settings import MarketplaceSettings

    keys = {"jwt_public_key_file": tmp_path / "k.pub"}
    identity = build_identity(identity_settings())
    marketplace = build_marketplace(MarketplaceSettings(database_url=new_database("pinbid_marketplace"), **keys))
    upstreams = Upstreams.in_process({"identity": identity.app, "marketplace": marketplace.app}, timeout=30)
    gateway = Gateway(GatewaySettings(web_dist=tmp_path / "dist", **keys), upstreams,
                      TokenVerifier.from_file(tmp_path / "k.pub"))
    return gateway, identity, marketplace
