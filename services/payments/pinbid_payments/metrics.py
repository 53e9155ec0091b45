"""What pages someone about money (alerts in k8s/components/observability/alerts.yaml)."""

from prometheus_client import Counter

PAY_WINDOWS_EXPIRED = Counter("pinbid_pay_windows_expired_total", "Approved bids whose pay window ran out unpaid")
WEBHOOKS_REFUSED = Counter("pinbid_webhooks_refused_total", "Payment webhooks refused, by reason", ["code"])
PAYOUTS_FAILED = Counter("pinbid_payouts_failed_total", "Payouts the provider refused")
REFUNDS_FAILED = Counter("pinbid_refunds_failed_total",
                         "Refunds the provider refused or could not take (each is tried again later)")
