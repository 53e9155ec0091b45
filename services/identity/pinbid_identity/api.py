"""Identity's HTTP routes: the spec's /auth/* and /notifications calls."""

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from pinbid_kit.auth import SignedIn
from pinbid_kit.deps import from_state

from .accounts import Accounts, Signup
from .notifications import Notifications
from .schemas import (
    ChangePasswordIn,
    DetailOut,
    ForgotPasswordIn,
    LoginIn,
    MarkReadIn,
    NotificationOut,
    PreferencesIO,
    PreferencesOut,
    ProfileIn,
    ProfileOut,
    RegisterIn,
    ResetPasswordIn,
    SessionOut,
    TokenOut,
    TokenVersionOut,
    UnreadCountOut,
    UserOut,
)

AccountsDep = Annotated[Accounts, Depends(from_state("accounts"))]
NotificationsDep = Annotated[Notifications, Depends(from_state("notifications"))]


def client_address(request: Request) -> str:
    """The address the gateway saw: the last X-Forwarded-For entry is the one our gateway appended."""
    forwarded = request.headers.get("x-forwarded-for")
    if forwarded:
        return forwarded.split(",")[-1].strip()[:64]
    return request.client.host if request.client else "unknown"


auth = APIRouter(prefix="/auth", tags=["auth"])


@auth.post("/register", response_model=SessionOut, status_code=201)
async def register(body: RegisterIn, accounts: AccountsDep) -> SessionOut:
    user, token = await accounts.register(Signup(
        name=body.name, email=body.email, password=body.password, role=body.role,
        instagram_handle=body.instagram_handle, business_name=body.business_name))
    return SessionOut(token=token, user=UserOut.of(user))


@auth.post("/login", response_model=SessionOut)
async def login(body: LoginIn, request: Request, accounts: AccountsDep) -> SessionOut:
    user, token = await accounts.login(body.email, body.password, client_address(request))
    return SessionOut(token=token, user=UserOut.of(user))


@auth.get("/me", response_model=UserOut)
async def me(principal: SignedIn, accounts: AccountsDep) -> UserOut:
    return UserOut.of(await accounts.current(principal))


@auth.put("/profile", response_model=ProfileOut)
async def profile(body: ProfileIn, request: Request, principal: SignedIn, accounts: AccountsDep) -> ProfileOut:
    user, token = await accounts.update_profile(principal, body.name, body.email, body.current_password,
                                                client_address(request))
    return ProfileOut(**UserOut.of(user).model_dump(), token=token)


@auth.post("/change-password", response_model=TokenOut)
async def change_password(body: ChangePasswordIn, request: Request, principal: SignedIn,
                          accounts: AccountsDep) -> TokenOut:
    return TokenOut(token=await accounts.change_password(principal, body.current_password, body.new_password,
                                                         client_address(request)))


@auth.post("/forgot-password", response_model=DetailOut, status_code=202)
async def forgot_password(body: ForgotPasswordIn, accounts: AccountsDep) -> DetailOut:
    return DetailOut(detail=await accounts.forgot_password(body.email))


@auth.post("/reset-password", response_model=DetailOut)
async def reset_password(body: ResetPasswordIn, accounts: AccountsDep) -> DetailOut:
    return DetailOut(detail=await accounts.reset_password(body.token, body.new_password))


notes = APIRouter(prefix="/notifications", tags=["notifications"])


@notes.get("", response_model=list[NotificationOut])
async def list_notifications(principal: SignedIn, notifications: NotificationsDep) -> list[NotificationOut]:
    return [NotificationOut.of(n) for n in await notifications.recent(principal.user_id)]


@notes.get("/unread-count", response_model=UnreadCountOut)
async def unread_count(principal: SignedIn, notifications: NotificationsDep) -> UnreadCountOut:
    return UnreadCountOut(unread_count=await notifications.unread_count(principal.user_id))


@notes.post("/read", response_model=UnreadCountOut)
async def mark_read(body: MarkReadIn, principal: SignedIn, notifications: NotificationsDep) -> UnreadCountOut:
    """Marks notices read; answers the unread count after."""
    return UnreadCountOut(unread_count=await notifications.mark_read(principal.user_id, body.ids))


@notes.get("/preferences", response_model=PreferencesOut)
async def get_preferences(principal: SignedIn, notifications: NotificationsDep) -> PreferencesOut:
    return PreferencesOut.of(*await notifications.preferences(principal.user_id))


@notes.post("/preferences", response_model=PreferencesOut)
async def set_preferences(body: PreferencesIO, principal: SignedIn, notifications: NotificationsDep) -> PreferencesOut:
    """All four switches are saved, those that do not apply to the role too (kept as sent)."""
    return PreferencesOut.of(*await notifications.set_preferences(principal.user_id, body.as_dict()))


internal = APIRouter(prefix="/internal", include_in_schema=False)


@internal.get("/token-versions", response_model=list[TokenVersionOut])
async def token_versions(accounts: AccountsDep) -> list[TokenVersionOut]:
    """For the gateway at start-up: revocations whose tokens may still be unexpired."""
    return [TokenVersionOut(user_id=u, token_version=v) for u, v in await accounts.token_versions()]


ROUTERS = (auth, notes, internal)
