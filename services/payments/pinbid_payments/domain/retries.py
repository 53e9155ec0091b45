"""How long a refund the provider refused waits before it is tried again: 5 minutes, doubling up to a day."""

from datetime import timedelta

FIRST_RETRY = timedelta(minutes=5)
LONGEST_WAIT = timedelta(days=1)


def retry_delay(attempts: int) -> timedelta:
    return min(FIRST_RETRY * 2 ** max(attempts - 1, 0), LONGEST_WAIT)
