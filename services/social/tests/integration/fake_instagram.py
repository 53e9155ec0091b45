"""A locally served stand-in for api.instagram.com and graph.instagram.com that answers in the real
response shapes (as documented for the Instagram API with Instagram Login)."""

from urllib.parse import parse_qs

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

APP_ID, APP_SECRET = "1234567890", "app-secret-value"


def oauth_error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error_type": "OAuthException", "code": status, "error_message": message}, status)


def graph_error(message: str, code: int = 190, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": "OAuthException", "code": code,
                                   "fbtrace_id": "AbCdEf"}}, status)


def fake_instagram() -> FastAPI:
    app = FastAPI()
    app.state.codes = {"good-code": "17841400000000001"}
    app.state.tokens = {}  # token -> user id
    app.state.comments = {"17900000000000001": [
        {"id": "17850000000000001", "text": "Love it", "username": "northwind.coffee", "like_count": 4,
         "timestamp": "2026-11-20T10:00:00+0000", "replies": {"data": [{"id": "1790"}]}},
        {"id": "17850000000000002", "text": "Nice", "username": "lena.loops", "like_count": 1,
         "timestamp": "2026-11-20T11:00:00+0000"}]}
    app.state.requests = []

    def bearer(request: Request) -> str | None:
        header = request.headers.get("authorization", "")
        token = header.removeprefix("Bearer ") if header.startswith("Bearer ") else request.query_params.get(
            "access_token")
        return token if token in app.state.tokens else None

    @app.middleware("http")
    async def record(request: Request, call_next):
        app.state.requests.append((request.method, request.url.path, dict(request.query_params)))
        return await call_next(request)

    @app.post("/oauth/access_token")
    async def short_token(request: Request):
        form = {k: v[0] for k, v in parse_qs((await request.body()).decode()).items()}
        client_id, client_secret, grant_type, code = (form.get(k, "") for k in
                                                      ("client_id", "client_secret", "grant_type", "code"))
        if client_id != APP_ID or client_secret != APP_SECRET or grant_type != "authorization_code":
            return oauth_error("Invalid client")
        user = app.state.codes.pop(code, None)
        if user is None:
            return oauth_error("This authorization code has been used")
        app.state.tokens["short-" + code] = user
        return {"data": [{"access_token": "short-" + code, "user_id": user,
                          "permissions": "instagram_business_basic,instagram_business_manage_comments"}]}

    @app.get("/access_token")
    async def long_token(request: Request, grant_type: str, client_secret: str, access_token: str):
        if grant_type != "ig_exchange_token" or client_secret != APP_SECRET or access_token not in app.state.tokens:
            return graph_error("Invalid OAuth access token")
        app.state.tokens["IGQVJlong" + access_token] = app.state.tokens[access_token]
        return {"access_token": "IGQVJlong" + access_token, "token_type": "bearer", "expires_in": 5183944}

    @app.get("/refresh_access_token")
    async def refresh(grant_type: str, access_token: str):
        if grant_type != "ig_refresh_token" or access_token not in app.state.tokens:
            return graph_error("Invalid OAuth access token")
        app.state.tokens[access_token + "r"] = app.state.tokens[access_token]
        return {"access_token": access_token + "r", "token_type": "bearer", "expires_in": 5183944}

    @app.get("/v21.0/me")
    async def me(request: Request, fields: str):
        if not bearer(request):
            return graph_error("Invalid OAuth access token - Cannot parse access token", status=401)
        return {"user_id": "17841400000000001", "username": "maya.makes", "account_type": "MEDIA_CREATOR",
                "followers_count": 48210, "media_count": 2, "id": "7000000000000001"}

    @app.get("/v21.0/me/media")
    async def media(request: Request, fields: str, limit: int = 25):
        if not bearer(request):
            return graph_error("Invalid OAuth access token", status=401)
        return {"data": [
            {"id": "17900000000000001", "media_type": "IMAGE", "media_url": "https://scontent.example/1.jpg",
             "caption": "Morning", "permalink": "https://www.instagram.com/p/DAbCdEfGhIj/", "like_count": 900,
             "comments_count": 2, "timestamp": "2026-11-19T08:00:00+0000"},
            {"id": "17900000000000002", "media_type": "VIDEO", "media_url": "https://scontent.example/2.mp4",
             "thumbnail_url": "https://scontent.example/2.jpg", "caption": "Reel",
             "permalink": "https://www.instagram.com/reel/DXyZ123/", "like_count": 1500, "comments_count": 40,
             "timestamp": "2026-11-18T08:00:00+0000"}][:limit],
            "paging": {"cursors": {"before": "a", "after": "b"}}}

    @app.get("/v21.0/{media_id}/insights")
    async def insights(media_id: str, request: Request, metric: str):
        if not bearer(request):
            return graph_error("Invalid OAuth access token", status=401)
        value = {"17900000000000001": 30000, "17900000000000002": 52000}[media_id]
        return {"data": [{"name": "views", "period": "lifetime", "values": [{"value": value}],
                          "title": "Views", "description": "...", "id": f"{media_id}/insights/views/lifetime"}]}

    @app.get("/v21.0/{media_id}/comments")
    async def comments(media_id: str, request: Request):
        if not bearer(request):
            return graph_error("Invalid OAuth access token", status=401)
        return {"data": app.state.comments.get(media_id, [])}

    @app.post("/v21.0/{media_id}/comments")
    async def post_comment(media_id: str, request: Request, message: str):
        if not bearer(request):
            return graph_error("Invalid OAuth access token", status=401)
        new_id = f"1786{len(app.state.requests):013d}"
        app.state.comments.setdefault(media_id, []).append(
            {"id": new_id, "text": message, "username": "maya.makes", "like_count": 0})
        return {"id": new_id}

    @app.get("/v21.0/{comment_id}")
    async def comment(comment_id: str, request: Request, fields: str):
        if not bearer(request):
            return graph_error("Invalid OAuth access token", status=401)
        for items in app.state.comments.values():
            for c in items:
                if c["id"] == comment_id:
                    return {"id": comment_id, "like_count": c.get("like_count", 0) + 7,
                            "replies": {"data": [{"id": "1"}, {"id": "2"}]}}
        return graph_error(f"Unsupported get request. Object with ID '{comment_id}' does not exist", code=100)

    return app
