from typing import Literal

from pinbid_kit.setting_types import PostgresUrl, WebUrl
from pinbid_kit.settings import KitSettings
from pydantic import Field
from pydantic_settings import SettingsConfigDict


class SocialSettings(KitSettings):
    model_config = SettingsConfigDict(env_prefix="SOCIAL_", env_file=".env", extra="ignore")
    keeps_secrets_at_rest = True

    database_url: PostgresUrl = "postgresql+psycopg://postgres@127.0.0.1:5432/pinbid_social"
    # sandbox: the built-in simulator (default, offline). real: the Instagram API + instagrapi.
    instagram_mode: Literal["sandbox", "real"] = "sandbox"
    instagram_app_id: str = ""
    instagram_app_secret: str = ""
    instagram_authorize_url: WebUrl = "https://www.instagram.com/oauth/authorize"
    instagram_api_url: WebUrl = "https://api.instagram.com"
    instagram_graph_url: WebUrl = "https://graph.instagram.com"
    instagram_graph_version: str = "v21.0"
    provider_timeout_seconds: float = Field(default=10.0, gt=0, description="limit for every provider call")
    state_ttl_seconds: int = Field(default=600, ge=30, description="lifetime of a signed OAuth state")
    recent_posts: int = Field(default=12, ge=1, le=50, description="posts read per sync and used for stats")
    posts_stale_seconds: int = Field(default=300, ge=0, description="GET /instagram/posts syncs when older")
    token_refresh_days_before: int = Field(default=10, ge=1, description="refresh long-lived tokens this early")
    verified_min_followers: int = Field(default=10_000, ge=0)
    verified_min_engagement_percent: str = Field(default="1.00", description="a Decimal, as text")
    pin_sync_every_seconds: float = Field(default=60.0, gt=0)
    pin_sync_interval_seconds: int = Field(default=900, ge=1, description="each pinned comment is checked this often")
    pin_sync_batch: int = Field(default=200, ge=1)
    pin_sync_concurrency: int = Field(default=20, ge=1)
    sandbox_seed: int = 20261122
    sandbox_posts_per_account: int = Field(default=9, ge=1, le=30)
    web_risk_key: str = Field(default="", description="Google Web Risk API key: links are checked with uris.search "
                                                    "when set, else against the local deny list")
    web_risk_url: WebUrl = "https://webrisk.googleapis.com"
    link_deny_list_file: str = Field(default="", description="hosts a short link may not target (default: the "
                                                             "packaged pinbid_social/link_deny_list.txt)")
    instagrapi_delay_seconds: float = Field(default=0.0, ge=0, description="instagrapi's pause between calls")

    def uses_real_providers(self) -> bool:
        return self.instagram_mode == "real"
