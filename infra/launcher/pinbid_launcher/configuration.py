"""A standalone process's settings, read and checked before it imports the web stack or touches a database: with a
missing secret or a malformed value it stops in a fraction of a second with one line (ConfigurationError), not
after two seconds of imports, on every restart of a pod that cannot run."""

from pinbid_gateway.settings import GatewaySettings

from . import services


def service(name: str):
    return services.get(name).settings(standalone=True)


def gateway() -> GatewaySettings:
    return GatewaySettings.load(standalone=True)
