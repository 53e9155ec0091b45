from pathlib import Path
from typing import Literal

from pinbid_kit import web_rules
from pinbid_kit.objects import ObjectStore, object_store, read_secret
from pinbid_kit.paths import var_dir
from pinbid_kit.setting_types import PostgresUrl, WebUrl
from pinbid_kit.settings import KitSettings
from pydantic import Field
from pydantic_settings import SettingsConfigDict


class SocialSettings(KitSettings):
    model_config = SettingsConfigDict(env_prefix="SOCIAL_")
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

    # trust (issue 22): the acceptance window, rechecks and disputes on the "I pin in the app" path; the gateway
    # reads the same variables to show them (pinbid_kit.web_rules)
    acceptance_hours: int = Field(default=web_rules.DEFAULT_ACCEPTANCE_HOURS, ge=1,
                                  description="a MANUAL placement is accepted by silence after")
    recheck_answer_hours: int = Field(default=web_rules.DEFAULT_RECHECK_ANSWER_HOURS, ge=1,
                                      description="time to answer a fresh-screenshot request")
    dispute_answer_hours: int = Field(default=web_rules.DEFAULT_DISPUTE_ANSWER_HOURS, ge=1,
                                      description="time for the creator to answer a dispute")
    trust_every_seconds: float = Field(default=60.0, gt=0, description="the acceptance and recheck job's period")
    decodes_at_once: int = Field(default=1, ge=1, le=8, description="screenshots decoded at once per process (one "
                                                                    "per person in any case): up to 320 MB each")
    # where screenshots are kept: files under var/objects (embedded run) or an S3-compatible store (MinIO)
    object_store: Literal["local", "s3"] = "local"
    object_store_dir: Path = Field(default_factory=lambda: var_dir() / "objects")
    s3_endpoint: str = Field(default="", description="host:port of the S3-compatible store, e.g. minio:9000")
    s3_bucket: str = "pinbid-evidence"
    s3_region: str | None = None
    s3_secure: bool = Field(default=False, description="https to the store")
    s3_access_key: str = ""
    s3_secret_key: str = ""
    s3_secret_key_file: Path | None = Field(default=None, description="the secret key from a file (a k8s secret)")

    def uses_real_providers(self) -> bool:
        return self.instagram_mode == "real"

    def problems(self) -> list[str]:
        found = super().problems()
        if self.object_store == "s3":
            missing = [self.env_name(f) for f in ("s3_endpoint", "s3_bucket", "s3_access_key") if not getattr(self, f)]
            if not self.s3_secret_key and self.s3_secret_key_file is None:
                missing.append(f"{self.env_name('s3_secret_key')} (or {self.env_name('s3_secret_key_file')})")
            if missing:
                found.append(f"Set {', '.join(missing)}: {self.env_name('object_store')}=s3 keeps screenshots in "
                             "an S3-compatible store.")
        return found

    def objects(self) -> ObjectStore:
        return object_store(self.object_store, local_root=self.object_store_dir, endpoint=self.s3_endpoint,
                            bucket=self.s3_bucket, access_key=self.s3_access_key,
                            secret_key=read_secret(self.s3_secret_key, self.s3_secret_key_file),
                            secure=self.s3_secure, region=self.s3_region)


SETTINGS = SocialSettings
