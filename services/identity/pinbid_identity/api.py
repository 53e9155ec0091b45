"""Identity's HTTP routes: the spec's /auth/* and /notifications calls."""

import time
import uuid
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from pinbid_kit.auth import Operator, SignedIn
from pinbid_kit.deps import from_state
from pinbid_kit.step_up import STEP_UP_SECONDS, FreshlyConfirmed

from .accounts import Accounts, Client, Signup
from .domain.signals import device_id
from .notifications import Notifications
from .passkeys import Passkeys
from .password_resets import PasswordResets
from .queries import OpsQueries
from .schemas import (
    AuditEntryOut,
    AuditQuery,
    ChangePasswordIn,
    CodeIn,
    DetailOut,
    ForgotPasswordIn,
    LoginIn,
    MarkReadIn,
    NotificationOut,
    OpsUserOut,
    PasskeyLoginIn,
    PasskeyLoginOptionsIn,
    PasskeyOut,
    PasskeyRegisterIn,
    PreferencesIO,
    PreferencesOut,
    ProfileIn,
    ProfileOut,
    ReasonIn,
    RegisterIn,
    ResetPasswordIn,
    SecondFactorOut,
    SessionOut,
    StepUpIn,
    StepUpOut,
    TokenOut,
    TokenVersionOut,
    TotpConfirmedOut,
    TotpDisableIn,
    TotpEnrolmentOut,
    UnreadCountOut,
    UserOut,
    UserSearchQuery,
    WebAuthnOptionsOut,
)
from .second_factors import Proof, SecondFactors
from .suspensions import Suspensions

AccountsDep = Annotated[Accounts, Depends(from_state("accounts"))]
PasswordResetsDep = Annotated[PasswordResets, Depends(from_state("password_resets"))]
NotificationsDep = Annotated[Notifications, Depends(from_state("notifications"))]
SuspensionsDep = Annotated[Suspensions, Depends(from_state("suspensions"))]
OpsQueriesDep = Annotated[OpsQueries, Depends(from_state("ops_queries"))]
SecondFactorsDep = Annotated[SecondFactors, Depends(from_state("second_factors"))]
PasskeysDep = Annotated[Passkeys, Depends(from_state("passkeys"))]


def client_address(request: Request) -> str:
    """The address the gateway saw: the last X-Forwarded-For entry is the one our gateway appended."""
    forwarded = request.headers.get("x-forwarded-for")
    if forwarded:
        return forwarded.split(",")[-1].strip()[:64]
    return request.client.host if request.client else "unknown"


def client_of(request: Request) -> Client:
    """The client address and, when the web sent one, the browser's device id (account signals)."""
    return Client(client_address(request),
                  device_id(request.cookies.get("pinbid_device"), request.headers.get("x-pinbid-device")))


auth = APIRouter(prefix="/auth", tags=["auth"])


@auth.post("/register", response_model=SessionOut, status_code=201)
async def register(body: RegisterIn, request: Request, accounts: AccountsDep) -> SessionOut:
    user, token = await accounts.register(Signup(
        name=body.name, email=body.email, password=body.password, role=body.role,
        instagram_handle=body.instagram_handle, business_name=body.business_name), client=client_of(request))
    return SessionOut(token=token, user=UserOut.of(user))


@auth.post("/login", response_model=SessionOut)
async def login(body: LoginIn, request: Request, accounts: AccountsDep) -> SessionOut:
    """An account with two-step sign-in on (every OPERATOR) also sends `code` or `recoveryCode` (401
    `second_factor_required` without, naming the `factors` it can answer with; `invalid_second_factor` when wrong or
    already used); a suspended account is refused with 403 `account_suspended`."""
    user, token = await accounts.login(body.email, body.password, client_of(request), body.code, body.recovery_code)
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
async def change_password(body: ChangePasswordIn, request: Request, principal: FreshlyConfirmed,
                          accounts: AccountsDep) -> TokenOut:
    return TokenOut(token=await accounts.change_password(principal, body.current_password, body.new_password,
                                                         client_address(request)))


@auth.get("/second-factor", response_model=SecondFactorOut)
async def second_factor_status(principal: SignedIn, factors: SecondFactorsDep) -> SecondFactorOut:
    """What protects the account, for Settings, and until when this session counts as freshly confirmed."""
    status = await factors.status(principal)
    return SecondFactorOut(totp_enabled=status.totp_enabled, totp_pending=status.totp_pending,
                           recovery_codes_left=status.recovery_codes_left,
                           passkeys=[PasskeyOut.model_validate(p) for p in status.passkeys],
                           step_up_until=_at(status.step_up_until), step_up_required=status.step_up_required)


@auth.post("/totp", response_model=TotpEnrolmentOut, status_code=201)
async def begin_totp(principal: SignedIn, factors: SecondFactorsDep) -> TotpEnrolmentOut:
    """A new secret for an authenticator app, pending until confirmed (replaces a pending one). 409
    `totp_already_enabled`."""
    secret, uri = await factors.begin_totp(principal)
    return TotpEnrolmentOut(secret=secret, otpauth_uri=uri)


@auth.post("/totp/confirm", response_model=TotpConfirmedOut)
async def confirm_totp(body: CodeIn, request: Request, principal: SignedIn,
                       factors: SecondFactorsDep) -> TotpConfirmedOut:
    """Turns two-step sign-in on; answers ten recovery codes (shown once) and a new token (other sessions are signed
    out). 422 `invalid_second_factor`, 409 `no_pending_enrolment` / `totp_already_enabled`, 429."""
    user, codes, token = await factors.confirm_totp(principal, body.code, client_address(request))
    return TotpConfirmedOut(recovery_codes=codes, token=token, user=UserOut.of(user))


@auth.post("/totp/disable", response_model=SessionOut)
async def disable_totp(body: TotpDisableIn, request: Request, principal: SignedIn,
                       factors: SecondFactorsDep) -> SessionOut:
    """Needs the password and a code or recovery code. 422 `wrong_password`, 401 `invalid_second_factor`, 409
    `totp_not_enabled`, 429."""
    user, token = await factors.disable_totp(principal, body.password, Proof(body.code, body.recovery_code),
                                             client_address(request))
    return SessionOut(token=token, user=UserOut.of(user))


@auth.post("/step-up/options", response_model=WebAuthnOptionsOut)
async def step_up_options(principal: SignedIn, passkeys: PasskeysDep) -> WebAuthnOptionsOut:
    """Options to confirm with one of the caller's passkeys. 409 `no_passkey`."""
    return WebAuthnOptionsOut(options=(await passkeys.step_up_options(principal)).options)


@auth.post("/step-up", response_model=StepUpOut)
async def step_up(body: StepUpIn, request: Request, principal: SignedIn, factors: SecondFactorsDep,
                  passkeys: PasskeysDep) -> StepUpOut:
    """A new token, freshly confirmed for a few minutes, for a code, a recovery code or a passkey's answer. 401
    `invalid_second_factor`, 409 `no_second_factor`, 429."""
    if body.credential is not None:
        token = await passkeys.step_up(principal, body.credential.as_webauthn())
    else:
        token = await factors.step_up(principal, Proof(body.code, body.recovery_code), client_address(request))
    return StepUpOut(token=token, step_up_until=_at(int(time.time()) + STEP_UP_SECONDS))


@auth.post("/passkeys/register/options", response_model=WebAuthnOptionsOut)
async def passkey_register_options(principal: FreshlyConfirmed, passkeys: PasskeysDep) -> WebAuthnOptionsOut:
    """401 `step_up_required` when two-step sign-in is on and the session is not freshly confirmed."""
    return WebAuthnOptionsOut(options=(await passkeys.registration_options(principal)).options)


@auth.post("/passkeys/register", response_model=PasskeyOut, status_code=201)
async def passkey_register(body: PasskeyRegisterIn, principal: FreshlyConfirmed, passkeys: PasskeysDep
                           ) -> PasskeyOut:
    """422 `invalid_passkey`, 409 `passkey_exists` / `too_many_passkeys`, 401 `step_up_required`."""
    return PasskeyOut.model_validate(await passkeys.register(principal, body.name, body.credential.as_webauthn()))


@auth.get("/passkeys", response_model=list[PasskeyOut])
async def passkey_list(principal: SignedIn, passkeys: PasskeysDep) -> list[PasskeyOut]:
    return [PasskeyOut.model_validate(p) for p in await passkeys.all_of(principal)]


@auth.delete("/passkeys/{passkey_id}", status_code=204)
async def passkey_remove(passkey_id: uuid.UUID, principal: FreshlyConfirmed, passkeys: PasskeysDep) -> None:
    """404 for an unknown passkey or another user's; 401 `step_up_required`."""
    await passkeys.remove(principal, passkey_id)


@auth.post("/passkeys/login/options", response_model=WebAuthnOptionsOut)
async def passkey_login_options(passkeys: PasskeysDep, body: PasskeyLoginOptionsIn | None = None
                                ) -> WebAuthnOptionsOut:
    """With an email: that account's passkeys; without (or with no body): the browser offers its discoverable ones
    (and autofill)."""
    return WebAuthnOptionsOut(options=(await passkeys.login_options(body.email if body else None)).options)


@auth.post("/passkeys/login", response_model=SessionOut)
async def passkey_login(body: PasskeyLoginIn, request: Request, passkeys: PasskeysDep) -> SessionOut:
    """A passkey alone signs in. 403 `passkey_login_failed` (the detail says why), 403 `account_suspended`."""
    user, token = await passkeys.login(body.credential.as_webauthn(), client_of(request))
    return SessionOut(token=token, user=UserOut.of(user))


def _at(epoch: int | None) -> datetime | None:
    return datetime.fromtimestamp(epoch, UTC) if epoch is not None else None


@auth.post("/forgot-password", response_model=DetailOut, status_code=202)
async def forgot_password(body: ForgotPasswordIn, resets: PasswordResetsDep) -> DetailOut:
    return DetailOut(detail=await resets.forgot_password(body.email))


@auth.post("/reset-password", response_model=DetailOut)
async def reset_password(body: ResetPasswordIn, resets: PasswordResetsDep) -> DetailOut:
    return DetailOut(detail=await resets.reset_password(body.token, body.new_password))


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


ops = APIRouter(prefix="/ops", tags=["ops"])


@ops.get("/users", response_model=list[OpsUserOut])
async def search_users(_: Operator, queries: OpsQueriesDep, query: Annotated[UserSearchQuery, Query()]
                       ) -> list[OpsUserOut]:
    """Users whose email or name contains `q` (any case), prefix matches first; at most 50."""
    return [OpsUserOut.of(u) for u in await queries.search_users(query.q)]


@ops.post("/users/{user_id}/suspend", response_model=OpsUserOut)
async def suspend_user(user_id: uuid.UUID, body: ReasonIn, operator: Operator,
                       suspensions: SuspensionsDep) -> OpsUserOut:
    """Signs the user out everywhere and refuses its sign-ins; the user is told the reason. 409
    `already_suspended`; 403 `operator_account` for an operator."""
    return OpsUserOut.of(await suspensions.suspend(operator.user_id, user_id, body.reason))


@ops.post("/users/{user_id}/restore", response_model=OpsUserOut)
async def restore_user(user_id: uuid.UUID, body: ReasonIn, operator: Operator,
                       suspensions: SuspensionsDep) -> OpsUserOut:
    """409 `not_suspended` when the user is active."""
    return OpsUserOut.of(await suspensions.restore(operator.user_id, user_id, body.reason))


@ops.get("/audit", response_model=list[AuditEntryOut])
async def audit_log(_: Operator, queries: OpsQueriesDep, query: Annotated[AuditQuery, Query()]
                    ) -> list[AuditEntryOut]:
    """Every operator action of every service, newest first, 100 at a time (`before`: the last `actedAt` seen)."""
    return [AuditEntryOut.of(e) for e in await queries.audit(query.object_type, query.object_id, query.before)]


internal = APIRouter(prefix="/internal", include_in_schema=False)


@internal.get("/token-versions", response_model=list[TokenVersionOut])
async def token_versions(accounts: AccountsDep) -> list[TokenVersionOut]:
    """For the gateway at start-up: revocations whose tokens may still be unexpired."""
    return [TokenVersionOut(user_id=u, token_version=v) for u, v in await accounts.token_versions()]


ROUTERS = (auth, notes, ops, internal)
