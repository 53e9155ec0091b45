"""Account signals identity observes on sign-in: the device (an id the web keeps in the browser) and the client
address, and the account's email (a mailbox both roles can be seen holding). Values are hashed by
`pinbid_kit.events.trust.signal_hash`, so equal values match across users and the value itself never leaves
identity."""

import re

DEVICE_ID = re.compile(r"^[A-Za-z0-9_-]{16,128}$")


def device_id(cookie: str | None, header: str | None) -> str | None:
    """The browser's device id, from the `pinbid_device` cookie or the `X-Pinbid-Device` header; anything that
    does not look like one the web made is ignored (a signal must not be forged into a match by odd text)."""
    for candidate in (cookie, header):
        if candidate and DEVICE_ID.match(candidate.strip()):
            return candidate.strip()
    return None


def address_signal_value(address: str) -> str | None:
    """The address as observed; unknown or empty addresses are no signal."""
    address = address.strip()
    return None if not address or address == "unknown" else address
