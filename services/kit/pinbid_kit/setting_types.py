"""Settings that are URLs, checked when the settings are read: a process given a wrong one stops before it
connects anywhere, with a line naming the variable (see KitSettings.load)."""

from typing import Annotated
from urllib.parse import urlsplit

from pydantic import AfterValidator


def _url(schemes: tuple[str, ...], what: str, *, needs_host: bool, show_value: bool) -> AfterValidator:
    def check(value: str) -> str:
        parts = urlsplit(value)
        try:
            parts.port  # noqa: B018 - raises ValueError on a port that is not a number
            well_formed = parts.scheme in schemes and (parts.hostname or not needs_host)
        except ValueError:
            well_formed = False
        # urlsplit keeps spaces and control characters; a link built from such a URL would be broken or forged
        well_formed = well_formed and not any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in value)
        if not well_formed:
            # database and broker URLs carry passwords: they are never repeated in the message
            raise ValueError(f"must be {what}" + (f", not {value!r}" if show_value else ""))
        return value

    return AfterValidator(check)


# a socket directory may be given as ?host=/path instead of a host name
PostgresUrl = Annotated[str, _url(("postgresql", "postgresql+psycopg", "postgres"),
                                  "a PostgreSQL URL (postgresql://user:password@host:port/database)",
                                  needs_host=False, show_value=False)]
AmqpUrl = Annotated[str, _url(("amqp", "amqps"), "an AMQP URL (amqp://user:password@host:port/vhost)",
                              needs_host=True, show_value=False)]
WebUrl = Annotated[str, _url(("http", "https"), "an http(s) URL with a host", needs_host=True, show_value=True)]
