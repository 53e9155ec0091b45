"""What the Stripe adapters do with a call Stripe refuses: a `ProviderError` that says what was refused."""

from collections.abc import Iterator
from contextlib import contextmanager

import stripe

from ..ports import ProviderError


@contextmanager
def refused_as_provider_error(what: str) -> Iterator[None]:
    try:
        yield
    except stripe.StripeError as exc:
        raise ProviderError(f"Stripe refused the {what}: {exc.user_message or exc}") from exc
