"""Identity's HTTP routes: the spec's /auth/* and /notifications calls."""

import uuid
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Request
from pinbid_kit.api import ApiModel, PlainText
from pinbid_kit.auth import require
from pinbid_kit.tokens import Principal, TokenVerifier
from pydantic import Field, model_validator

from .accounts import Accounts, Signup
from .domain.accounts import MAX_PASSWORD, Role
from .domain.notices import Category
from .models import Notification, User
from .notifications import Notifications

Text = Annotated[PlainText, Field(max_length=300)]
Password = Annotated[str, Field(max_length=MAX_PASSWORD * 4)]


class InfluencerProfileOut(ApiModel):
    avg_views: int
    followers: int
    avg_engagement: float
    verified: bool


class UserOut(ApiModel):
    id: uuid.UUID
    name: str
    email: str
    role: Literal["INFLUENCER", "BUYER"]
    business_name: str | None
    instagram_handle: str | None
    instagram_id: str | None
    instagram_connected: bool
    influencer_profile: InfluencerProfileOut | None
    created_at: datetime

    @classmethod
    def of(cls, user: User) -> "UserOut":
        profile = None
        if user.role == Role.INFLUENCER:
            profile = InfluencerProfileOut(avg_views=user.avg_views or 0, followers=user.followers or 0,
                                           avg_engagement=float(user.avg_engagement or Decimal(0)),
                                           verified=user.verified)
        return cls(id=user.id, name=user.name, email=user.email, role=user.role, business_name=user.business_name,
                   instagram_handle=user.instagram_handle, instagram_id=user.instagram_id,
                   instagram_connected=user.instagram_connected, influencer_profile=profile,
                   created_at=user.created_at)


class ProfileOut(UserOut):
    """The user after the change. A new email revokes every earlier token, the caller's too: `token`
    is then the one to use from now on; it is null when nothing was revoked."""

    token: str | None = None


class SessionOut(ApiModel):
    token: str
    user: UserOut


class TokenOut(ApiModel):
    token: str


class DetailOut(ApiModel):
    detail: str


class LoginIn(ApiModel):
    email: Text
    password: Password


class RegisterIn(ApiModel):
    name: Text
    email: Text
    password: Password
    role: Role
    instagram_handle: Text | None = None
    business_name: Text | None = None


class ProfileIn(ApiModel):
    name: Text
    email: Text
    current_password: Password | None = Field(default=None, description="required when the email changes")


class ChangePasswordIn(ApiModel):
    current_password: Password
    new_password: Password


class ForgotPasswordIn(ApiModel):
    email: Text


class ResetPasswordIn(ApiModel):
    token: Annotated[PlainText, Field(min_length=1, max_length=200)]
    new_password: Password


class NotificationOut(ApiModel):
    id: uuid.UUID
    title: str
    message: str
    kind: str = Field(description="what happened, e.g. bid.outbid, payment.reminder, pin.reminder, payout.failed")
    link: str | None = Field(description="the web screen the notice points to, e.g. /my-bids")
    created_at: datetime
    read: bool

    @classmethod
    def of(cls, row: Notification) -> "NotificationOut":
        return cls(id=row.id, title=row.title, message=row.message, kind=row.kind, link=row.link,
                   created_at=row.created_at, read=row.read_at is not None)


class MarkReadIn(ApiModel):
    """Either `ids` (the caller's notices to mark read; others' ids change nothing) or `all: true`."""

    ids: Annotated[list[uuid.UUID], Field(min_length=1, max_length=200)] | None = None
    all: Literal[True] | None = None

    @model_validator(mode="after")
    def _one_of(self) -> "MarkReadIn":
        if (self.ids is None) == (self.all is None):
            raise ValueError("send either ids or all: true")
        return self


class UnreadCountOut(ApiModel):
    unread_count: int


class PreferencesIO(ApiModel):
    new_bids: bool
    approvals: bool
    payouts: bool
    marketing: bool

    @classmethod
    def of(cls, values: dict[Category, bool]) -> "PreferencesIO":
        return cls(new_bids=values[Category.NEW_BIDS], approvals=values[Category.APPROVALS],
                   payouts=values[Category.PAYOUTS], marketing=values[Category.MARKETING])

    def as_dict(self) -> dict[Category, bool]:
        return {Category.NEW_BIDS: self.new_bids, Category.APPROVALS: self.approvals,
                Category.PAYOUTS: self.payouts, Category.MARKETING: self.marketing}


class PreferencesOut(PreferencesIO):
    applies: list[Category] = Field(description="the preferences that apply to the caller's role, to show in "
                                    "settings: brands get no payout notices, so theirs leave out payouts")

    @classmethod
    def of(cls, values: dict[Category, bool], applies: tuple[Category, ...]) -> "PreferencesOut":
        return cls(**PreferencesIO.of(values).model_dump(), applies=list(applies))


class TokenVersionOut(ApiModel):
    user_id: uuid.UUID
    token_version: int


def client_address(request: Request) -> str:
    """The address the gateway saw: the last X-Forwarded-For entry is the one our gateway appended."""
    forwarded = request.headers.get("x-forwarded-for")
    if forwarded:
        return forwarded.split(",")[-1].strip()[:64]
    return request.client.host if request.client else "unknown"


def routes(accounts: Accounts, notifications: Notifications, verifier: TokenVerifier) -> list[APIRouter]:
    signed_in = Depends(require(verifier))
    auth = APIRouter(prefix="/auth", tags=["auth"])

    @auth.post("/register", response_model=SessionOut, status_code=201)
    async def register(body: RegisterIn) -> SessionOut:
        user, token = await accounts.register(Signup(
            name=body.name, email=body.email, password=body.password, role=body.role,
            instagram_handle=body.instagram_handle, business_name=body.business_name))
        return SessionOut(token=token, user=UserOut.of(user))

    @auth.post("/login", response_model=SessionOut)
    async def login(body: LoginIn, request: Request) -> SessionOut:
        user, token = await accounts.login(body.email, body.password, client_address(request))
        return SessionOut(token=token, user=UserOut.of(user))

    @auth.get("/me", response_model=UserOut)
    async def me(principal: Principal = signed_in) -> UserOut:
        return UserOut.of(await accounts.current(principal))

    @auth.put("/profile", response_model=ProfileOut)
    async def profile(body: ProfileIn, request: Request, principal: Principal = signed_in) -> ProfileOut:
        user, token = await accounts.update_profile(principal, body.name, body.email, body.current_password,
                                                    client_address(request))
        return ProfileOut(**UserOut.of(user).model_dump(), token=token)

    @auth.post("/change-password", response_model=TokenOut)
    async def change_password(body: ChangePasswordIn, request: Request, principal: Principal = signed_in) -> TokenOut:
        return TokenOut(token=await accounts.change_password(principal, body.current_password, body.new_password,
                                                             client_address(request)))

    @auth.post("/forgot-password", response_model=DetailOut, status_code=202)
    async def forgot_password(body: ForgotPasswordIn) -> DetailOut:
        return DetailOut(detail=await accounts.forgot_password(body.email))

    @auth.post("/reset-password", response_model=DetailOut)
    async def reset_password(body: ResetPasswordIn) -> DetailOut:
        return DetailOut(detail=await accounts.reset_password(body.token, body.new_password))

    notes = APIRouter(prefix="/notifications", tags=["notifications"])

    @notes.get("", response_model=list[NotificationOut])
    async def list_notifications(principal: Principal = signed_in) -> list[NotificationOut]:
        return [NotificationOut.of(n) for n in await notifications.recent(principal.user_id)]

    @notes.get("/unread-count", response_model=UnreadCountOut)
    async def unread_count(principal: Principal = signed_in) -> UnreadCountOut:
        return UnreadCountOut(unread_count=await notifications.unread_count(principal.user_id))

    @notes.post("/read", response_model=UnreadCountOut)
    async def mark_read(body: MarkReadIn, principal: Principal = signed_in) -> UnreadCountOut:
        """Marks notices read; answers the unread count after."""
        return UnreadCountOut(unread_count=await notifications.mark_read(principal.user_id, body.ids))

    @notes.get("/preferences", response_model=PreferencesOut)
    async def get_preferences(principal: Principal = signed_in) -> PreferencesOut:
        return PreferencesOut.of(*await notifications.preferences(principal.user_id))

    @notes.post("/preferences", response_model=PreferencesOut)
    async def set_preferences(body: PreferencesIO, principal: Principal = signed_in) -> PreferencesOut:
        """All four switches are saved, those that do not apply to the role too (kept as sent)."""
        return PreferencesOut.of(*await notifications.set_preferences(principal.user_id, body.as_dict()))

    internal = APIRouter(prefix="/internal", include_in_schema=False)

    @internal.get("/token-versions", response_model=list[TokenVersionOut])
    async def token_versions() -> list[TokenVersionOut]:
        """For the gateway at start-up: revocations whose tokens may still be unexpired."""
        return [TokenVersionOut(user_id=u, token_version=v) for u, v in await accounts.token_versions()]

    return [auth, notes, internal]


