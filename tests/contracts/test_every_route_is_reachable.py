"""Every path a service serves is reachable: routed by the gateway's table (so it is in the public API and its
contract), or one of the few the gateway itself calls to compose the dashboards. A new endpoint left out of the
table would otherwise be missing from /api and from contracts/openapi.json without a word."""

from pinbid_gateway.routing import route_for
from pinbid_launcher.openapi import service_specs

# read by the gateway's dashboards (gateway/pinbid_gateway/dashboards.py), never by a browser
GATEWAY_ONLY = {"/influencer/dashboard-figures", "/buyer/dashboard-figures", "/buyer/total-spent"}


def test_every_service_path_is_routed_or_read_by_the_gateway():
    unreachable = sorted((service, path) for service, spec in service_specs().items()
                         for path in spec.get("paths", {}) if route_for(path) is None and path not in GATEWAY_ONLY)
    assert unreachable == []
