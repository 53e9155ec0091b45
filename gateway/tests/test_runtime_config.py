"""/runtime-config.json carries the rules the web shows, each as the service enforces it: the settings (the platform
fee, the bid increment, the trust windows) read from the service's own variables, the limits from the same code."""

import re
from datetime import timedelta

import pytest
from pinbid_gateway.app import Gateway
from pinbid_gateway.settings import GatewaySettings
from pinbid_gateway.upstreams import Upstreams
from pinbid_identity.domain.accounts import MIN_PASSWORD
from pinbid_kit import instagram_rules as ig
from pinbid_kit.tokens import TokenVerifier, generate_keypair
from pinbid_marketplace.domain.listing import TIME_LEFT, Limits
from pinbid_marketplace.settings import MarketplaceSettings
from pinbid_payments.settings import PaymentsSettings
from pinbid_social import screenshots
from pinbid_social.schemas import PlacementReportIn
from pinbid_social.settings import SocialSettings
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


async def test_the_trust_windows_and_the_bid_increment_shown_are_the_ones_the_services_run_with(monkeypatch, tmp_path):
    for variable, value in [("SOCIAL_ACCEPTANCE_HOURS", "36"), ("SOCIAL_RECHECK_ANSWER_HOURS", "12"),
                            ("SOCIAL_DISPUTE_ANSWER_HOURS", "96"), ("MARKETPLACE_BID_STEP", "2.50")]:
        monkeypatch.setenv(variable, value)
    rules = (await runtime_config(tmp_path))["rules"]
    social, marketplace = SocialSettings(), MarketplaceSettings()
    assert (social.acceptance_hours, social.recheck_answer_hours, social.dispute_answer_hours) == (36, 12, 96)
    assert rules["trustWindowHours"] == {"acceptance": 36, "recheckAnswer": 12, "disputeAnswer": 96}
    assert rules["bidIncrement"] == float(marketplace.bid_step) == 2.5


async def test_without_settings_the_defaults_the_services_run_with(monkeypatch, tmp_path):
    for variable in ["SOCIAL_ACCEPTANCE_HOURS", "SOCIAL_RECHECK_ANSWER_HOURS", "SOCIAL_DISPUTE_ANSWER_HOURS",
                     "MARKETPLACE_BID_STEP"]:
        monkeypatch.delenv(variable, raising=False)
    rules = (await runtime_config(tmp_path))["rules"]
    social = SocialSettings()
    assert rules["trustWindowHours"] == {"acceptance": social.acceptance_hours, "recheckAnswer":
                                         social.recheck_answer_hours, "disputeAnswer": social.dispute_answer_hours}
    assert (rules["trustWindowHours"]["disputeAnswer"], rules["bidIncrement"]) == (48, 1.0)
    assert rules["bidIncrement"] == float(MarketplaceSettings().bid_step)


async def test_the_products_limits_are_the_ones_the_services_enforce(tmp_path):
    rules = (await runtime_config(tmp_path))["rules"]
    assert rules["passwordMinLength"] == MIN_PASSWORD == 8
    report = PlacementReportIn.model_json_schema()["properties"]["reason"]
    assert rules["reasonMaxLength"] == report["maxLength"] == 1000
    assert rules["screenshot"]["maxBytes"] == screenshots.MAX_BYTES == 5 * 2**20
    assert {t["type"] for t in rules["screenshot"]["types"]} == set(screenshots.FORMATS.values())
    assert set(rules["timeLeftHours"]) == set(TIME_LEFT)
    assert all(timedelta(hours=hours) == TIME_LEFT[value] for value, hours in rules["timeLeftHours"].items())
    limits, durations = Limits(), rules["pinDurationDays"]
    assert (min(durations["choices"]), max(durations["choices"])) == (limits.min_duration_days,
                                                                      limits.max_duration_days)
    assert durations["default"] == MarketplaceSettings().default_duration_days
    lengths = rules["auctionLengthHours"]
    assert lengths["default"] in lengths["choices"] and all(
        limits.min_auction <= timedelta(hours=h) <= limits.max_auction for h in lengths["choices"])
