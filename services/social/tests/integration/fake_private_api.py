"""A locally served stand-in for Instagram's private API (i.instagram.com, b.i.instagram.com) that answers
what instagrapi's login, pin, unpin and comment calls expect, so the REAL `instagrapi.Client` can be
tested without network: `route_to(client, fake)` mounts on the client's `requests` sessions an adapter
that sends every https call to this server instead (the original host travels in `X-Original-Host`).

The login follows the installed instagrapi (3.2.x): the Android CAA (Bloks) flow first, and the legacy
`accounts/login/` when the CAA answer routes back to it (`CAA_LOGIN_FALLBACK`); the fake answers CAA
with a session for a plain account and falls back for 2FA, challenge and wrong passwords, or always when
`caa_login` is False. The password arrives encrypted with the RSA key the fake served (`qe/sync/`
headers) and is decrypted and checked here."""

import base64
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit, urlunsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from requests.adapters import HTTPAdapter

KEY_ID = 41
_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
_PUBLIC_PEM = _KEY.public_key().public_bytes(serialization.Encoding.PEM,
                                             serialization.PublicFormat.SubjectPublicKeyInfo)
CAA = "/api/v1/bloks/async_action/com.bloks.www."


@dataclass
class Account:
    username: str
    password: str
    pk: int
    two_factor_code: str | None = None
    challenge: bool = False


@dataclass
class Call:
    host: str
    method: str
    path: str
    query: dict[str, str]
    form: dict[str, Any]
    headers: dict[str, str]


@dataclass
class FakePrivateApi:
    accounts: dict[str, Account] = field(default_factory=dict)
    caa_login: bool = True
    comments: dict[int, set[int]] = field(default_factory=dict)  # media pk -> comment pks on it
    any_comment: bool = False  # every media and comment exists (when the ids are made elsewhere)
    pinned: dict[int, set[int]] = field(default_factory=dict)
    sessions: dict[str, int] = field(default_factory=dict)  # sessionid -> user pk
    calls: list[Call] = field(default_factory=list)
    base: str = ""

    def paths(self) -> list[str]:
        return [c.path for c in self.calls]

    def call(self, path: str) -> Call:
        return next(c for c in self.calls if c.path == path)

    # --- helpers ---------------------------------------------------------------------------------
    @staticmethod
    def decrypt(enc_password: str) -> str:
        """Undoes instagrapi's `password_encrypt` (#PWD_INSTAGRAM:4:time:payload)."""
        _, _, timestamp, payload = enc_password.split(":", 3)
        raw = base64.b64decode(payload)
        assert raw[0] == 1 and raw[1] == KEY_ID
        iv, size = raw[2:14], int.from_bytes(raw[14:16], "little")
        session_key = _KEY.decrypt(raw[16:16 + size], padding.PKCS1v15())
        tag, cipher = raw[16 + size:32 + size], raw[32 + size:]
        return AESGCM(session_key).decrypt(iv, cipher + tag, timestamp.encode()).decode()

    def _session_for(self, account: Account) -> tuple[dict[str, str], dict]:
        sessionid = f"{account.pk}%3Asess{len(self.sessions) + 1}"
        self.sessions[sessionid] = account.pk
        authorization = base64.b64encode(json.dumps({"ds_user_id": str(account.pk), "sessionid": sessionid})
                                         .encode()).decode()
        headers = {"ig-set-authorization": f"Bearer IGT:2:{authorization}", "ig-set-ig-u-rur": f"CLN,{account.pk},1"}
        user = {"pk": account.pk, "pk_id": str(account.pk), "username": account.username, "full_name": "Maya",
                "is_private": False, "is_verified": False, "profile_pic_url": "https://example.invalid/p.jpg",
                "has_anonymous_profile_picture": False, "can_boost_post": True, "is_business": False,
                "account_type": 3, "interop_messaging_user_fbid": 1}
        return headers, {"logged_in_user": user, "session_flush_nonce": None, "status": "ok"}

    def _user_of(self, headers: dict[str, str]) -> int | None:
        value = headers.get("authorization", "")
        try:
            data = json.loads(base64.b64decode(value.rsplit(":", 1)[-1]))
        except ValueError:
            return None
        return self.sessions.get(data.get("sessionid", ""))

    # --- the routes --------------------------------------------------------------------------------
    def answer(self, call: Call) -> tuple[int, dict, dict[str, str]]:
        path, form = call.path, call.form
        if path == "/api/v1/qe/sync/":
            return 200, {"status": "ok"}, {"ig-set-password-encryption-key-id": str(KEY_ID),
                                           "ig-set-password-encryption-pub-key": base64.b64encode(_PUBLIC_PEM).decode()}
        if path == "/graphql_www":
            return 200, {"data": {"usdid_registration(data:$input)": {"success": True}}, "extensions": {}}, {}
        if path == CAA + "bloks.caa.login.process_client_data_and_redirect/":
            return 200, {"layout": {"bloks_payload": {"data": [
                {"id": "1", "type": "gs", "data": {"key": "CAA_ACCOUNT_ACCESS_CONTEXT:aac", "initial": "AAC-1"}}]}},
                "status": "ok"}, {}
        if path == "/api/v1/attestation/create_android_keystore/":
            return 200, {"challenge_nonce": "CHALLENGE-NONCE", "key_nonce": "KEY-NONCE", "status": "ok"}, {}
        if path == CAA + "caa.login.oauth.token.fetch.async/":
            return 200, {"layout": {"bloks_payload": {"data": []}}, "status": "ok"}, {}
        if path == CAA + "bloks.caa.login.async.send_login_request/":
            params = json.loads(form["params"])["client_input_params"]
            account = self.accounts.get(params["contact_point"])
            if (self.caa_login and account and not account.two_factor_code and not account.challenge
                    and self.decrypt(params["password"]) == account.password):
                headers, body = self._session_for(account)
                cookies = f"Set-Cookie: sessionid={list(self.sessions)[-1]}; Path=/"
                embedded = json.dumps({"login_response": json.dumps(body), "headers": json.dumps(
                    {"IG-Set-Authorization": headers["ig-set-authorization"],
                     "ig-set-ig-u-rur": headers["ig-set-ig-u-rur"]}), "cookies": cookies})
                action = f"(bk.action.caa.HandleLoginResponse, {json.dumps(embedded)})"
                return 200, {"layout": {"bloks_payload": {"action": action, "data": []}}, "status": "ok"}, {}
            return 200, {"layout": {"bloks_payload": {"action": "", "data": [
                {"id": "2", "type": "ct", "data": {"key": "CAA_LOGIN_FALLBACK:legacy_login"}}]}}, "status": "ok"}, {}
        if path == "/api/v1/launcher/sync/":
            return 200, {"configs": {}, "status": "ok"}, {}
        if path == "/api/v1/accounts/login/":
            account = self.accounts.get(form.get("username", ""))
            if account is None:
                return 400, {"message": "Invalid Parameters", "error_type": "invalid_user", "status": "fail"}, {}
            if self.decrypt(form["enc_password"]) != account.password:
                return 400, {"message": "The password you entered is incorrect. Please try again.",
                             "invalid_credentials": True, "error_type": "bad_password", "status": "fail"}, {}
            if account.challenge:
                return 400, {"message": "challenge_required", "challenge": {
                    "url": "https://i.instagram.com/challenge/?next=/api/v1/accounts/login/",
                    "api_path": f"/challenge/{account.pk}/AbCdEf/", "hide_webview_header": True, "lock": True,
                    "logout": False, "native_flow": True, "flow_render_type": 0},
                    "status": "fail", "error_type": "checkpoint_challenge_required"}, {}
            if account.two_factor_code:
                return 400, {"message": "", "two_factor_required": True, "two_factor_info": {
                    "username": account.username, "two_factor_identifier": f"2FA-{account.pk}",
                    "totp_two_factor_on": True, "sms_two_factor_on": False, "pk": account.pk},
                    "phone_verification_settings": {}, "error_type": "two_factor_required", "status": "fail"}, {}
            headers, body = self._session_for(account)
            return 200, body, headers
        if path == "/api/v1/accounts/two_factor_login/":
            account = self.accounts.get(form.get("username", ""))
            if account is None or form.get("two_factor_identifier") != f"2FA-{account.pk}":
                return 400, {"message": "Invalid Parameters", "status": "fail"}, {}
            if form.get("verification_code") != account.two_factor_code:
                return 400, {"message": "Please check the security code and try again.",
                             "error_type": "sms_code_validation_code_invalid", "status": "fail"}, {}
            headers, body = self._session_for(account)
            return 200, body, headers
        if path in ("/api/v1/feed/reels_tray/", "/api/v1/feed/timeline/"):
            return 200, {"tray": [], "feed_items": [], "more_available": False, "status": "ok"}, {}
        parts = path.strip("/").split("/")  # api v1 media {pk} pin_comment|unpin_comment|comments [comment]
        if parts[:3] == ["api", "v1", "media"] and len(parts) >= 5:
            if self._user_of(call.headers) is None:
                return 403, {"message": "login_required", "logout_reason": 2, "status": "fail"}, {}
            media = int(parts[3])
            if self.any_comment and len(parts) > 5:
                self.comments.setdefault(media, set()).add(int(parts[5]))
            if media not in self.comments:
                return 400, {"message": "Media not found or unavailable", "status": "fail"}, {}
            if parts[4] == "comments":
                return 200, {"comments": [{"pk": c, "text": "hi", "is_pinned": c in self.pinned.get(media, set())}
                                          for c in sorted(self.comments[media])], "status": "ok"}, {}
            comment = int(parts[5])
            if comment not in self.comments[media]:
                return 400, {"message": "Sorry, this comment is no longer available.", "status": "fail"}, {}
            pinned = self.pinned.setdefault(media, set())
            if parts[4] == "pin_comment":
                pinned.add(comment)
            else:
                pinned.discard(comment)
            return 200, {"status": "ok"}, {}
        return 404, {"message": f"no route {path}", "status": "fail"}, {}

    # --- serving ------------------------------------------------------------------------------------
    def serve(self) -> ThreadingHTTPServer:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def _handle(self) -> None:
                parts = urlsplit(self.path)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
                form: dict[str, Any] = {k: v[0] for k, v in parse_qs(body).items()}
                if "signed_body" in form:  # "SIGNATURE.{json}"
                    form = json.loads(form["signed_body"].split(".", 1)[1])
                call = Call(host=self.headers.get("X-Original-Host", ""), method=self.command, path=parts.path,
                            query={k: v[0] for k, v in parse_qs(parts.query).items()}, form=form,
                            headers={k.lower(): v for k, v in self.headers.items()})
                fake.calls.append(call)
                status, payload, headers = fake.answer(call)
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _handle

            def log_message(self, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{server.server_address[1]}"
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server


class ToLocal(HTTPAdapter):
    """Sends every https request to the local fake (plain http), keeping the original host in a header."""

    def __init__(self, base: str):
        super().__init__(max_retries=0)
        self.base = urlsplit(base)

    def send(self, request, **kwargs):  # type: ignore[override]
        url = urlsplit(request.url)
        if url.scheme == "https":
            request.headers["X-Original-Host"] = url.netloc
            request.url = urlunsplit(("http", self.base.netloc, url.path, url.query, ""))
        return super().send(request, **kwargs)


def route_to(client: Any, fake: FakePrivateApi) -> Any:
    adapter = ToLocal(fake.base)
    for session in (client.private, client.public):
        session.mount("https://", adapter)
        session.mount("http://", adapter)
    return client
