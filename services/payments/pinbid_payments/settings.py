from pinbid_kit.setting_types import PostgresUrl, WebUrl
from pinbid_kit.settings import KitSettings
from pinbid_kit.web_rules import DEFAULT_PLATFORM_FEE_PERCENT
from pydantic import Field
from pydantic_settings import SettingsConfigDict

# The sandbox signs its webhooks with this; it is public on purpose (it only ever signs sandbox events).
SANDBOX_WEBHOOK_SECRET = "whsec_pinbid_sandbox_not_a_secret"


class PaymentsSettings(KitSettings):
    model_config = SettingsConfigDict(env_prefix="PAYMENTS_")
    keeps_secrets_at_rest = True

    database_url: PostgresUrl = "postgresql+psycopg://postgres@127.0.0.1:5432/pinbid_payments"
    pay_window_seconds: int = Field(default=48 * 3600, ge=60, description="time the buyer has to pay")
    pin_deadline_days: float = Field(default=3, gt=0, description="a paid bid not pinned by then is refunded")
    buyer_fee_cents: int = Field(default=0, ge=0, description="added to the price the buyer pays")
    platform_fee_percent: int = Field(default=DEFAULT_PLATFORM_FEE_PERCENT, ge=0, le=100)
    currency: str = "USD"
    # checkout: "sandbox" (served by this service) or "stripe"
    checkout_provider: str = Field(default="sandbox", pattern="^(sandbox|stripe)$")
    # payouts: "sandbox", or "live" (BANK_TRANSFER through Stripe Connect, PAYPAL through PayPal Payouts)
    payout_provider: str = Field(default="sandbox", pattern="^(sandbox|live)$")
    stripe_api_key: str = ""
    stripe_api_base: WebUrl | None = Field(default=None, description="only to point the SDK at a local fake")
    webhook_secret: str = SANDBOX_WEBHOOK_SECRET
    webhook_tolerance_seconds: int = Field(default=300, ge=1)
    sandbox_webhook_url: WebUrl | None = Field(default=None, description="default {public_url}/api/payments/webhook")
    paypal_client_id: str = ""
    paypal_client_secret: str = ""
    paypal_api_base: WebUrl = "https://api-m.sandbox.paypal.com"
    payout_batch_size: int = Field(default=100, ge=1)

    def uses_real_providers(self) -> bool:
        return self.checkout_provider == "stripe" or self.payout_provider == "live"

    def problems(self) -> list[str]:
        problems = super().problems()
        if self.uses_real_providers() and not self.stripe_api_key:
            problems.append(f"Set {self.env_name('stripe_api_key')}: Stripe checkout and live payouts need it.")
        if self.checkout_provider == "stripe" and self.webhook_secret.strip() in ("", SANDBOX_WEBHOOK_SECRET):
            problems.append(f"Set {self.env_name('webhook_secret')} to the signing secret of Stripe's webhook "
                            "endpoint: the sandbox's secret is public, so anyone could forge a payment.")
        if self.payout_provider == "live" and not (self.paypal_client_id and self.paypal_client_secret):
            problems.append(f"Set {self.env_name('paypal_client_id')} and {self.env_name('paypal_client_secret')}: "
                            "live payouts pay PayPal creators through PayPal Payouts.")
        return problems

    def webhook_url(self) -> str:
        return self.sandbox_webhook_url or f"{self.public_url.rstrip('/')}/api/payments/webhook"

    def browser_url(self, path: str) -> str:
        return f"{self.public_url.rstrip('/')}{path}"


SETTINGS = PaymentsSettings
