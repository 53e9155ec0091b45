from decimal import Decimal
from pathlib import Path

from pinbid_kit import product_rules, web_rules
from pinbid_kit.paths import repo_root
from pinbid_kit.setting_types import WebUrl
from pinbid_kit.settings import KitSettings
from pydantic import Field, IPvAnyNetwork
from pydantic_settings import SettingsConfigDict

SERVICES = ("identity", "marketplace", "payments", "social", "content")


class GatewaySettings(KitSettings):
    model_config = SettingsConfigDict(env_prefix="GATEWAY_")

    # Base URLs of the services in the distributed run; a service with no URL is "not available yet".
    identity_url: WebUrl | None = None
    marketplace_url: WebUrl | None = None
    payments_url: WebUrl | None = None
    social_url: WebUrl | None = None
    content_url: WebUrl | None = None
    web_dist: Path = Field(default_factory=lambda: repo_root() / "web" / "dist")
    api_base: str = "/api"
    cors_origins: list[str] = Field(default_factory=list)
    max_body_bytes: int = Field(default=1_048_576, ge=1024)
    # screenshot uploads (routing.UPLOAD_PREFIXES): social's largest screenshot, plus the form around it
    upload_max_body_bytes: int = Field(default=product_rules.SCREENSHOT_MAX_BYTES + 65_536, ge=1024)
    upstream_timeout_seconds: float = Field(default=30.0, gt=0)
    # When set, /metrics, /docs and /openapi.json are served on this port only, not on the public one.
    operator_port: int | None = Field(default=None, ge=1, le=65535)
    # how often an idle live stream sends a comment, so proxies and browsers keep it open
    live_heartbeat_seconds: float = Field(default=15.0, gt=0)
    # security.txt's Contact (a mailto: or https: URL); mailto:security@<the site's host> when unset
    security_contact: str | None = None
    # Proxies (addresses or networks) whose X-Forwarded-For is believed; none by default (see clients.py).
    trusted_proxies: list[IPvAnyNetwork] = Field(default_factory=list)
    # The services' settings the web shows, each read from the service's own variable (web_rules), so that the web
    # shows what is enforced: payments' fee, marketplace's bid increment, social's trust windows.
    platform_fee_percent: int = Field(default=web_rules.DEFAULT_PLATFORM_FEE_PERCENT, ge=0, le=100,
                                      validation_alias=web_rules.PLATFORM_FEE_PERCENT_VARIABLE.lower())
    bid_increment: Decimal = Field(default=web_rules.DEFAULT_BID_STEP, gt=0,
                                   validation_alias=web_rules.BID_STEP_VARIABLE.lower())
    acceptance_hours: int = Field(default=web_rules.DEFAULT_ACCEPTANCE_HOURS, ge=1,
                                  validation_alias=web_rules.ACCEPTANCE_HOURS_VARIABLE.lower())
    recheck_answer_hours: int = Field(default=web_rules.DEFAULT_RECHECK_ANSWER_HOURS, ge=1,
                                      validation_alias=web_rules.RECHECK_ANSWER_HOURS_VARIABLE.lower())
    dispute_answer_hours: int = Field(default=web_rules.DEFAULT_DISPUTE_ANSWER_HOURS, ge=1,
                                      validation_alias=web_rules.DISPUTE_ANSWER_HOURS_VARIABLE.lower())

    def served(self) -> web_rules.ServedSettings:
        return web_rules.ServedSettings(
            platform_fee_percent=self.platform_fee_percent, bid_increment=self.bid_increment,
            acceptance_hours=self.acceptance_hours, recheck_answer_hours=self.recheck_answer_hours,
            dispute_answer_hours=self.dispute_answer_hours)

    def service_urls(self) -> dict[str, str]:
        urls = {name: getattr(self, f"{name}_url") for name in SERVICES}
        return {name: url.rstrip("/") for name, url in urls.items() if url}
