"""The official Instagram API with Instagram Login, over httpx (base URLs are settings, so tests
point them at a locally served fake that answers in the real shapes).

Tokens travel in the Authorization header where the API allows it; the token endpoints take them
as query parameters, so a filter redacts `access_token`, `client_secret` and `code` from httpx's
request log lines."""

import asyncio
import logging
import re
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlencode

import httpx
from pinbid_kit.no_cookies import cookieless_jar

from ..ports import Comment, CommentFigures, Grant, Media, Profile, ProviderError, ProviderRejected

SCOPES = ("instagram_business_basic", "instagram_business_manage_comments", "instagram_business_manage_insights")
MEDIA_FIELDS = "id,media_type,media_url,thumbnail_url,caption,permalink,like_count,comments_count,timestamp"
_SECRET_PARAMS = re.compile(r"((?:access_token|client_secret|code|fb_exchange_token)=)[^&\s\"']+")


class RedactSecrets(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            record.args = tuple(_SECRET_PARAMS.sub(r"\1[redacted]", str(a)) if isinstance(a, str | httpx.URL)
                                else a for a in record.args)
        record.msg = _SECRET_PARAMS.sub(r"\1[redacted]", str(record.msg))
        return True


_redact = RedactSecrets()
for _name in ("httpx", "httpcore"):
    if _redact not in logging.getLogger(_name).filters:
        logging.getLogger(_name).addFilter(_redact)


def _error(response: httpx.Response) -> tuple[str, int | None]:
    """The provider's message and error code (Graph errors: {"error": {"message", "type", "code"}};
    the OAuth endpoint: {"error_type", "code", "error_message"})."""
    try:
        body = response.json()
    except ValueError:
        return f"HTTP {response.status_code}", None
    error = body.get("error")
    if isinstance(error, dict):
        return str(error.get("message") or error.get("type") or response.status_code), error.get("code")
    return str(body.get("error_message") or error or response.status_code), body.get("code")


class InstagramGraph:
    """Implements `InstagramApi` against graph.instagram.com and api.instagram.com."""

    def __init__(self, *, app_id: str, app_secret: str, authorize_url: str, api_url: str, graph_url: str,
                 version: str, timeout: float, transport: httpx.AsyncBaseTransport | None = None):
        self.app_id = app_id
        self.app_secret = app_secret
        self._authorize = authorize_url
        self.api_url = api_url.rstrip("/")
        self.graph_url = graph_url.rstrip("/")
        self.version = version
        self.timeout = timeout
        # shared by every creator's calls: it keeps no cookie one of them was answered with
        self._http = httpx.AsyncClient(timeout=httpx.Timeout(timeout), transport=transport, cookies=cookieless_jar())
        self._per_media = asyncio.Semaphore(8)

    async def close(self) -> None:
        await self._http.aclose()

    def authorize_url(self, *, state: str, redirect_uri: str, login_hint: str | None) -> str:
        # login_hint is a sandbox nicety; Instagram's own page asks the person who they are.
        query = {"client_id": self.app_id, "redirect_uri": redirect_uri, "response_type": "code",
                 "scope": ",".join(SCOPES), "state": state, "force_reauth": "true"}
        return f"{self._authorize}?{urlencode(query)}"

    async def _call(self, method: str, url: str, *, token: str | None = None, **kwargs: Any) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        try:
            response = await self._http.request(method, url, headers=headers, **kwargs)
        except httpx.TimeoutException:
            raise ProviderError("Instagram did not answer in time. Please try again.") from None
        except httpx.HTTPError as exc:
            raise ProviderError(f"Instagram could not be reached ({type(exc).__name__}).") from None
        if response.status_code in (400, 401, 403, 404):
            message, code = _error(response)
            raise ProviderRejected(f"Instagram refused the request: {message}", status=response.status_code,
                                   missing=response.status_code == 404 or (code == 100 and "exist" in message))
        if response.status_code >= 300:
            raise ProviderError(f"Instagram answered with an error: {_error(response)[0]}")
        try:
            return response.json()
        except ValueError:
            raise ProviderError("Instagram answered with something that is not JSON.") from None

    def _graph(self, path: str) -> str:
        return f"{self.graph_url}/{self.version}/{path.lstrip('/')}"

    @staticmethod
    def _grant(body: dict[str, Any], user_id: str) -> Grant:
        try:
            expires = datetime.now(UTC) + timedelta(seconds=int(body.get("expires_in", 60 * 86400)))
            return Grant(access_token=str(body["access_token"]), expires_at=expires, instagram_user_id=user_id)
        except (KeyError, ValueError, TypeError):
            raise ProviderError("Instagram answered the token request in an unexpected shape.") from None

    async def exchange_code(self, code: str, redirect_uri: str) -> Grant:
        body = await self._call("POST", f"{self.api_url}/oauth/access_token", data={
            "client_id": self.app_id, "client_secret": self.app_secret, "grant_type": "authorization_code",
            "redirect_uri": redirect_uri, "code": code})
        short = body["data"][0] if isinstance(body.get("data"), list) and body["data"] else body
        if "access_token" not in short:
            raise ProviderError("Instagram answered the code exchange in an unexpected shape.")
        user_id = str(short.get("user_id", ""))
        long = await self._call("GET", f"{self.graph_url}/access_token", params={
            "grant_type": "ig_exchange_token", "client_secret": self.app_secret,
            "access_token": short["access_token"]})
        return self._grant(long, user_id)

    async def refresh(self, access_token: str) -> Grant:
        body = await self._call("GET", f"{self.graph_url}/refresh_access_token", params={
            "grant_type": "ig_refresh_token", "access_token": access_token})
        return self._grant(body, "")

    async def profile(self, access_token: str) -> Profile:
        body = await self._call("GET", self._graph("me"), token=access_token,
                                params={"fields": "user_id,username,account_type,followers_count,media_count"})
        try:
            return Profile(id=str(body.get("user_id") or body["id"]), username=str(body["username"]),
                           account_type=str(body.get("account_type", "")),
                           followers=int(body.get("followers_count", 0)))
        except (KeyError, ValueError):
            raise ProviderError("Instagram answered the profile request in an unexpected shape.") from None

    async def _views(self, access_token: str, media_id: str) -> int:
        async with self._per_media:
            try:
                body = await self._call("GET", self._graph(f"{media_id}/insights"), token=access_token,
                                        params={"metric": "views"})
            except ProviderRejected:  # e.g. media posted before the account became professional
                return 0
        for metric in body.get("data", []):
            if metric.get("name") == "views":
                values = metric.get("values") or [{}]
                return int(values[0].get("value", 0) or metric.get("total_value", {}).get("value", 0))
        return 0

    async def recent_media(self, access_token: str, limit: int) -> list[Media]:
        body = await self._call("GET", self._graph("me/media"), token=access_token,
                                params={"fields": MEDIA_FIELDS, "limit": limit})
        items = body.get("data", [])[:limit]
        views = await asyncio.gather(*(self._views(access_token, str(i["id"])) for i in items))
        media = []
        for item, seen in zip(items, views, strict=True):
            posted = item.get("timestamp")
            media.append(Media(
                id=str(item["id"]), media_type=str(item.get("media_type", "IMAGE")),
                media_url=str(item.get("thumbnail_url") if item.get("media_type") == "VIDEO" and
                              not item.get("media_url") else item.get("media_url", "")),
                permalink=str(item.get("permalink", "")), caption=str(item.get("caption", "")), views=seen,
                like_count=int(item.get("like_count", 0)), comments_count=int(item.get("comments_count", 0)),
                posted_at=datetime.strptime(posted, "%Y-%m-%dT%H:%M:%S%z") if posted else None))
        return media

    async def comments(self, access_token: str, media_id: str) -> list[Comment]:
        body = await self._call("GET", self._graph(f"{media_id}/comments"), token=access_token,
                                params={"fields": "id,text,username,hidden,like_count,timestamp,replies{id}",
                                        "limit": 50})
        return [Comment(id=str(c["id"]), text=str(c.get("text", "")), username=str(c.get("username", "")),
                        like_count=int(c.get("like_count", 0)),
                        replies=len((c.get("replies") or {}).get("data", [])), hidden=bool(c.get("hidden", False)))
                for c in body.get("data", [])]

    async def post_comment(self, access_token: str, media_id: str, text: str) -> str:
        body = await self._call("POST", self._graph(f"{media_id}/comments"), token=access_token,
                                params={"message": text})
        if "id" not in body:
            raise ProviderError("Instagram did not return the new comment's id.")
        return str(body["id"])

    async def comment_figures(self, access_token: str, comment_id: str) -> CommentFigures:
        try:
            body = await self._call("GET", self._graph(comment_id), token=access_token,
                                    params={"fields": "id,hidden,like_count,replies{id}"})
        except ProviderRejected as rejected:
            if rejected.missing:  # Instagram answers 400, code 100 "does not exist" for a deleted comment
                return CommentFigures(exists=False)
            raise
        return CommentFigures(exists=True, likes=int(body.get("like_count", 0)),
                              replies=len((body.get("replies") or {}).get("data", [])),
                              hidden=bool(body.get("hidden", False)))
