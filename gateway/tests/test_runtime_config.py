"""/runtime-config.json carries the rules the web shows, with the platform fee as payments charges it."""

import re

import pytest
from pinbid_gateway.app import Gateway
from pinbid_gateway.settings import GatewaySettings
from pinbid_gateway.upstreams import Upstreams
from pinbid_kit import instagram_rules as ig
from pinbid_kit.tokens import TokenVerifier, generate_keypair
from pinbid_payments.settings import PaymentsSettings
from pinbid_testing import client


async def runtime_config(tmp_path) -> dict:
    generate_keypair(tmp_path / "k.pem", tmp_path / "k.pub")
    settings = GatewaySettings(web_dist=tmp_path / "dist", jwt_public_key_file=tmp_path / "k.pub")
    gateway = Gateway(settings, Upstreams({}), TokenVerifier.from_file(tmp_path / "k.pub"))
    async with client(gateway.app) as http:
        response = await http.get("/runtime-config.json")
    assert response.status_code == 200
    return response.json()


@pytest.mark.parametrize("fee", ["15", "0"])
async def test_the_fee_shown_is_the_fee_payments_charges(monkeypatch, tmp_path, fee):
    monkeypatch.setenv("PAYMENTS_PLATFORM_FEE_PERCENT", fee)
    config = await runtime_config(tmp_path)
    assert config["rules"]["platformFeePercent"] == PaymentsSettings().platform_fee_percent == int(fee)


async def test_the_default_fee_without_the_setting(monkeypatch, tmp_path):
    monkeypatch.delenv("PAYMENTS_PLATFORM_FEE_PERCENT", raising=False)
    config = await runtime_config(tmp_path)
    assert config["rules"]["platformFeePercent"] == PaymentsSettings().platform_fee_percent == 10


async def test_the_patterns_and_limits_are_the_ones_the_services_enforce(tmp_path):
    rules = (await runtime_config(tmp_path))["rules"]
    disclosure = re.compile(rules["disclosureStart"]["source"], re.IGNORECASE)
    for text in ["#ad Summer", "Ad · @n: hi", "Sponsored: hi", "Paid partnership with @n", "Summer #ad", "adorable"]:
        assert bool(disclosure.match(text)) == ig.starts_with_disclosure(text)
    handle = re.compile(rules["handlePattern"])
    assert handle.match("maya.makes") and not handle.match("maya makes") and not handle.match("x" * 31)
    assert rules["maxCommentLength"] == ig.MAX_COMMENT_LENGTH == 2200
    assert rules["maxNewCommentLength"] == ig.MAX_NEW_COMMENT_LENGTH == 2162
    assert (rules["maxHashtags"], rules["maxMentions"]) == (ig.MAX_HASHTAGS, ig.MAX_MENTIONS)
