"""Payouts by Stripe Connect: an Express account per creator (onboarding link), then transfers to it."""

import stripe

from ..ports import PayoutOrder, PayoutResult, ProviderError
from .stripe_refusals import refused_as_provider_error


class StripeConnect:
    def __init__(self, client: stripe.StripeClient):
        self.client = client

    async def create_account(self, email: str | None, country: str, idempotency_key: str) -> str:
        params = {"type": "express", "country": country,
                  "capabilities": {"transfers": {"requested": True}}}
        if email:
            params["email"] = email
        with refused_as_provider_error("account"):
            account = await self.client.v1.accounts.create_async(params=params,
                                                                 options={"idempotency_key": idempotency_key})
        return account.id

    async def onboarding_link(self, account_id: str, refresh_url: str, return_url: str) -> str:
        with refused_as_provider_error("onboarding link"):
            link = await self.client.v1.account_links.create_async(params={
                "account": account_id, "refresh_url": refresh_url, "return_url": return_url,
                "type": "account_onboarding"})
        return link.url

    async def send(self, order: PayoutOrder) -> PayoutResult:
        account = order.destination.get("stripe_account_id")
        if not account:
            return PayoutResult("FAILED", reason="No Stripe account is connected for bank transfers.")
        try:
            transfer = await self.client.v1.transfers.create_async(
                params={"amount": order.net_cents, "currency": order.currency.lower(), "destination": account,
                        "transfer_group": f"payout-{order.payout_id}",
                        "metadata": {"payout_id": str(order.payout_id), "period": order.period}},
                options={"idempotency_key": order.idempotency_key})
        except stripe.InvalidRequestError as exc:
            return PayoutResult("FAILED", reason=exc.user_message or str(exc))
        except stripe.StripeError as exc:
            raise ProviderError(f"Stripe transfer failed: {exc}") from exc
        # a transfer moves the money into the creator's Stripe balance at once; Stripe pays the bank from there
        return PayoutResult("PAID", reference=transfer.id)

    async def status(self, order: PayoutOrder, reference: str) -> PayoutResult:
        return PayoutResult("PAID", reference=reference)
