from pathlib import Path

from pinbid_kit.paths import var_dir
from pinbid_kit.setting_types import PostgresUrl
from pinbid_kit.settings import MailSettings
from pydantic import Field
from pydantic_settings import SettingsConfigDict

# the article files ship beside the package (services/content/articles)
DEFAULT_ARTICLES = Path(__file__).resolve().parent.parent / "articles"


class ContentSettings(MailSettings):
    model_config = SettingsConfigDict(env_prefix="CONTENT_")

    database_url: PostgresUrl = "postgresql+psycopg://postgres@127.0.0.1:5432/pinbid_content"
    articles_dir: Path = DEFAULT_ARTICLES
    articles_sync_seconds: float = Field(default=60, gt=0, description="how often the article folder is re-read")
    confirm_token_ttl_seconds: int = Field(default=48 * 3600, ge=60)
    subscribe_mail_interval_seconds: int = Field(default=600, ge=1,
                                                 description="at most one subscription mail per address per interval")
    newsletter_secret: str = Field(default="", description="HMAC key of unsubscribe links; empty: a key file in var/")
    mail_from: str = "Pinbid <newsletter@pinbid.local>"

    def unsubscribe_key(self) -> bytes:
        if self.newsletter_secret:
            return self.newsletter_secret.encode()
        from pinbid_kit.secrets import load_or_create_key

        return load_or_create_key(var_dir() / "keys" / "newsletter.key").encode()


SETTINGS = ContentSettings
