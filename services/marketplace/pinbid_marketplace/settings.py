from decimal import Decimal

from pinbid_kit.product_rules import DEFAULT_PIN_DURATION_DAYS, PIN_DURATION_DAYS
from pinbid_kit.setting_types import PostgresUrl
from pinbid_kit.settings import KitSettings
from pinbid_kit.web_rules import DEFAULT_BID_STEP
from pydantic import Field
from pydantic_settings import SettingsConfigDict

from .domain.listing import COUNT_CAP


class MarketplaceSettings(KitSettings):
    model_config = SettingsConfigDict(env_prefix="MARKETPLACE_")

    database_url: PostgresUrl = "postgresql+psycopg://postgres@127.0.0.1:5432/pinbid_marketplace"
    currency: str = "USD"
    # the gateway reads the same variable to show it (pinbid_kit.web_rules)
    bid_step: Decimal = Field(default=DEFAULT_BID_STEP, gt=0, description="proxy bidding increment")
    soft_close_seconds: int = Field(default=120, ge=0, description="0 disables the soft close")
    second_price_increment: Decimal = Field(default=Decimal("0.00"), ge=0)
    closer_interval_seconds: float = Field(default=1.0, gt=0)
    closer_batch_size: int = Field(default=50, ge=1)
    open_counts_fold_seconds: float = Field(default=10.0, gt=0, description="how often open-slot counts are folded")
    min_auction_hours: int = Field(default=1, ge=0)
    max_auction_days: int = Field(default=30, ge=1)
    # the pin durations the web offers span these (pinbid_kit.product_rules)
    min_duration_days: int = Field(default=min(PIN_DURATION_DAYS), ge=1)
    max_duration_days: int = Field(default=max(PIN_DURATION_DAYS), ge=1)
    default_duration_days: int = Field(default=DEFAULT_PIN_DURATION_DAYS, ge=1)
    meaning_index_seconds: float = Field(default=2.0, gt=0, description="how often each process's AI search index "
                                         "takes in the slots opened, re-embedded or closed by other processes")
    second_chance_hours: int = Field(default=48, ge=1, le=24 * 14, description="how long a runner-up has to "
                                     "answer a second-chance offer")
    offer_lapse_interval_seconds: float = Field(default=30.0, gt=0, description="how often lapsed second-chance "
                                                "offers are expired")
    campaign_clock_seconds: float = Field(default=5.0, gt=0, description="how often campaigns past their end are "
                                          "ended, paid-in drafts started, and ended ones settled")
    page_limit_max: int = Field(default=50, ge=1)
    listing_count_cap: int = Field(default=COUNT_CAP, ge=1, description="a listing counts its matches up to this "
                                   "many (past it, \"at least\") and pages no deeper")


SETTINGS = MarketplaceSettings
