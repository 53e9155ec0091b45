"""Google Web Risk's Lookup API (`uris.search`) over httpx: is this address known for malware, social engineering
or unwanted software. The key goes in a header (never in a logged URL); the base URL is a setting, so tests use a
fake server."""

import httpx

from ..ports import ProviderError

THREAT_TYPES = ("MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE")


class WebRisk:
    def __init__(self, *, key: str, base_url: str, timeout: float,
                 transport: httpx.AsyncBaseTransport | None = None):
        self.key, self.base_url, self.timeout, self.transport = key, base_url.rstrip("/"), timeout, transport

    async def threat(self, url: str, host: str) -> str | None:
        params = [("uri", url), *(("threatTypes", t) for t in THREAT_TYPES)]
        try:
            async with httpx.AsyncClient(timeout=self.timeout, transport=self.transport) as http:
                answer = await http.get(f"{self.base_url}/v1/uris:search", params=params,
                                        headers={"X-Goog-Api-Key": self.key})
        except httpx.HTTPError as failed:
            raise ProviderError(f"The link check did not answer ({type(failed).__name__}).") from None
        if answer.status_code != 200:
            raise ProviderError(f"The link check failed (HTTP {answer.status_code}).")
        try:
            found = answer.json().get("threat") or {}
        except ValueError:
            raise ProviderError("The link check answered something unreadable.") from None
        kinds = found.get("threatTypes") or []
        return ", ".join(kinds) if kinds else None
