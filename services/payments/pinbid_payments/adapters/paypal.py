"""PayPal Payouts over its REST API: an OAuth2 client-credentials token, then a payout batch whose
`sender_batch_id` is our idempotency key (PayPal refuses a second batch with the same id)."""

import time

import httpx
from pinbid_kit.no_cookies import cookieless_jar

from ..ports import PayoutOrder, PayoutResult, ProviderError

_DONE = {"SUCCESS": "PAID", "DENIED": "FAILED", "CANCELED": "FAILED"}
_ITEM_FAILED = {"FAILED", "RETURNED", "BLOCKED", "REFUNDED", "REVERSED", "DENIED"}


class PayPalPayouts:
    def __init__(self, base_url: str, client_id: str, client_secret: str, *, http: httpx.AsyncClient | None = None):
        self.base_url = base_url.rstrip("/")
        self.client_id = client_id
        self.client_secret = client_secret
        self.http = http or httpx.AsyncClient(timeout=30, cookies=cookieless_jar())
        self._token: tuple[str, float] | None = None

    async def _access_token(self) -> str:
        if self._token and self._token[1] > time.monotonic() + 60:
            return self._token[0]
        try:
            response = await self.http.post(f"{self.base_url}/v1/oauth2/token",
                                            auth=(self.client_id, self.client_secret),
                                            data={"grant_type": "client_credentials"},
                                            headers={"Accept": "application/json"})
        except httpx.HTTPError as exc:
            raise ProviderError(f"PayPal cannot be reached: {exc!r}") from exc
        if response.status_code != 200:
            raise ProviderError(f"PayPal refused the credentials ({response.status_code})")
        body = response.json()
        self._token = (body["access_token"], time.monotonic() + int(body.get("expires_in", 0)))
        return self._token[0]

    async def _call(self, method: str, path: str, **kwargs) -> httpx.Response:
        token = await self._access_token()
        try:
            return await self.http.request(method, f"{self.base_url}{path}",
                                           headers={"Authorization": f"Bearer {token}",
                                                    "Content-Type": "application/json"}, **kwargs)
        except httpx.HTTPError as exc:
            raise ProviderError(f"PayPal cannot be reached: {exc!r}") from exc

    async def send(self, order: PayoutOrder) -> PayoutResult:
        email = order.destination.get("paypal_email")
        if not email:
            return PayoutResult("FAILED", reason="No PayPal email is set.")
        body = {
            "sender_batch_header": {"sender_batch_id": order.idempotency_key, "email_subject": "You have a payout!",
                                    "email_message": f"Your Pinbid earnings for {order.period}."},
            "items": [{"recipient_type": "EMAIL", "receiver": email, "sender_item_id": str(order.payout_id),
                       "note": f"Pinbid payout {order.period}",
                       "amount": {"value": f"{order.net_cents // 100}.{order.net_cents % 100:02d}",
                                  "currency": order.currency}}],
        }
        response = await self._call("POST", "/v1/payments/payouts", json=body)
        if response.status_code == 201:
            header = response.json()["batch_header"]
            return PayoutResult("PENDING", reference=header["payout_batch_id"])
        error = _error(response)
        original = _original_batch(error)
        if original:
            # PayPal refuses a reused sender_batch_id and links the original batch: it was sent before
            return PayoutResult("PENDING", reference=original)
        if 400 <= response.status_code < 500:
            return PayoutResult("FAILED", reason=error.get("message") or f"PayPal refused ({response.status_code})")
        raise ProviderError(f"PayPal failed ({response.status_code})")

    async def status(self, order: PayoutOrder, reference: str) -> PayoutResult:
        response = await self._call("GET", f"/v1/payments/payouts/{reference}")
        if response.status_code != 200:
            raise ProviderError(f"PayPal batch lookup failed ({response.status_code})")
        body = response.json()
        batch_status = body["batch_header"]["batch_status"]
        items = body.get("items") or []
        if items and items[0].get("transaction_status") in _ITEM_FAILED:
            errors = items[0].get("errors") or {}
            return PayoutResult("FAILED", reference=reference,
                                reason=errors.get("message") or f"PayPal item {items[0]['transaction_status']}")
        if items and items[0].get("transaction_status") == "SUCCESS":
            return PayoutResult("PAID", reference=reference)
        outcome = _DONE.get(batch_status)
        if outcome == "FAILED":
            return PayoutResult("FAILED", reference=reference, reason=f"PayPal batch {batch_status}")
        return PayoutResult(outcome or "PENDING", reference=reference)


def _error(response: httpx.Response) -> dict:
    try:
        body = response.json()
        return body if isinstance(body, dict) else {}
    except ValueError:
        return {}


def _original_batch(error: dict) -> str | None:
    for link in error.get("links") or []:
        href = str(link.get("href", ""))
        if "/v1/payments/payouts/" in href:
            return href.rstrip("/").rsplit("/", 1)[1]
    return None
