"""Identity's HTTP request and response models: the spec's /auth/* and /notifications calls."""

import uuid
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any, Generic, Literal, TypeVar

from pinbid_kit.api import ApiModel, PlainText
from pinbid_kit.product_rules import REASON_MAX_LENGTH
from pydantic import ConfigDict, Field, model_validator

from .domain.accounts import MAX_PASSWORD, Role
from .domain.notices import Category
from .models import Notification, User
from .queries import AuditView

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
    role: Literal["INFLUENCER", "BUYER", "OPERATOR"]
    business_name: str | None
    instagram_handle: str | None
    instagram_id: str | None
    instagram_connected: bool
    influencer_profile: InfluencerProfileOut | None
    created_at: datetime
    totp_enabled: bool = Field(description="two-step sign-in with an authenticator app is on")

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
                   created_at=user.created_at, totp_enabled=user.totp_secret_sealed is not None)


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


Code = Annotated[PlainText, Field(max_length=10, description="the 6-digit code of the authenticator app")]
RecoveryCodeText = Annotated[PlainText, Field(max_length=40, description="one of the ten recovery codes")]


class LoginIn(ApiModel):
    email: Text
    password: Password
    code: Code | None = None
    recovery_code: RecoveryCodeText | None = None


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


Reason = Annotated[PlainText, Field(min_length=1, max_length=REASON_MAX_LENGTH)]


class OpsUserOut(ApiModel):
    id: uuid.UUID
    email: str
    name: str
    role: Literal["INFLUENCER", "BUYER", "OPERATOR"]
    status: Literal["ACTIVE", "SUSPENDED"]
    created_at: datetime
    suspended_reason: str | None

    @classmethod
    def of(cls, user: User) -> "OpsUserOut":
        return cls(id=user.id, email=user.email, name=user.name, role=user.role, status=user.status,
                   created_at=user.created_at, suspended_reason=user.suspended_reason)


class UserSearchQuery(ApiModel):
    q: PlainText | None = Field(default=None, max_length=254, description="part of the email or name, any case")


class AuditQuery(ApiModel):
    object_type: PlainText | None = Field(default=None, max_length=40)
    object_id: PlainText | None = Field(default=None, max_length=100)
    before: datetime | None = Field(default=None, description="entries acted before this (the last actedAt seen)")


class ReasonIn(ApiModel):
    reason: Reason


class AuditUserOut(ApiModel):
    """A person an audit entry names, as the account is now."""

    id: uuid.UUID
    name: str
    email: str
    role: Literal["INFLUENCER", "BUYER", "OPERATOR"]


class AuditEntryOut(ApiModel):
    id: uuid.UUID
    operator_id: uuid.UUID
    operator_email: str | None = Field(description="the operator's email when the action was recorded (else now)")
    operator_name: str | None = Field(description="the operator's name now; null for an account identity lacks")
    action: str
    object_type: str
    object_id: str
    object_user: AuditUserOut | None = Field(description="when objectType is user: the account acted on, with its "
                                             "name and email now; null for any other object")
    reason: str
    acted_at: datetime

    @classmethod
    def of(cls, view: AuditView) -> "AuditEntryOut":
        row, operator, user = view.entry, view.operator, view.user
        return cls(id=row.id, operator_id=row.operator_id,
                   operator_email=row.operator_email or (operator.email if operator else None),
                   operator_name=operator.name if operator else None, action=row.action,
                   object_type=row.object_type, object_id=row.object_id,
                   object_user=AuditUserOut(id=user.id, name=user.name, email=user.email, role=user.role)
                   if user else None, reason=row.reason, acted_at=row.acted_at)


# --- the second factor: TOTP, recovery codes, passkeys, step-up ---------------------------------------------------
Base64Url = Annotated[str, Field(min_length=1, max_length=16_384, pattern=r"^[A-Za-z0-9_-]+={0,2}$")]
ShortBase64Url = Annotated[str, Field(min_length=1, max_length=1_366, pattern=r"^[A-Za-z0-9_-]+={0,2}$")]


class BrowserModel(ApiModel):
    """A part of the standard WebAuthn JSON a browser sends: fields beyond ours (browsers add some) are ignored."""

    model_config = ConfigDict(extra="ignore")


class AttestationResponseIn(BrowserModel):
    client_data_json: Base64Url = Field(alias="clientDataJSON")
    attestation_object: Base64Url
    transports: Annotated[list[Annotated[str, Field(max_length=20)]], Field(max_length=10)] | None = None


class AssertionResponseIn(BrowserModel):
    client_data_json: Base64Url = Field(alias="clientDataJSON")
    authenticator_data: Base64Url
    signature: Base64Url
    user_handle: ShortBase64Url | None = None


ResponseIn = TypeVar("ResponseIn", bound=BrowserModel)


class PublicKeyCredentialIn(BrowserModel, Generic[ResponseIn]):
    """What both WebAuthn ceremonies send back: the credential's ids and the authenticator's response."""

    id: ShortBase64Url
    raw_id: ShortBase64Url
    response: ResponseIn
    type: Literal["public-key"]

    def as_webauthn(self) -> dict[str, Any]:
        return {"id": self.id, "rawId": self.raw_id, "type": self.type,
                "response": self.response.model_dump(by_alias=True, exclude_none=True)}


class RegistrationCredentialIn(PublicKeyCredentialIn[AttestationResponseIn]):
    """`RegistrationResponseJSON`, as `startRegistration` of @simplewebauthn/browser answers it."""


class AuthenticationCredentialIn(PublicKeyCredentialIn[AssertionResponseIn]):
    """`AuthenticationResponseJSON`, as `startAuthentication` of @simplewebauthn/browser answers it."""


class TotpEnrolmentOut(ApiModel):
    secret: str = Field(description="base32, for typing into the app by hand")
    otpauth_uri: str = Field(description="the otpauth:// URI to show as a QR code")


class CodeIn(ApiModel):
    code: Code


class TotpConfirmedOut(ApiModel):
    recovery_codes: list[str] = Field(description="ten single-use codes, shown this once")
    token: str
    user: UserOut


class TotpDisableIn(ApiModel):
    password: Password
    code: Code | None = None
    recovery_code: RecoveryCodeText | None = None


class StepUpIn(ApiModel):
    """Exactly one of `code`, `recoveryCode` and `credential` (a passkey's answer to `POST /auth/step-up/options`)."""

    code: Code | None = None
    recovery_code: RecoveryCodeText | None = None
    credential: AuthenticationCredentialIn | None = None

    @model_validator(mode="after")
    def _one_of(self) -> "StepUpIn":
        if sum(v is not None for v in (self.code, self.recovery_code, self.credential)) != 1:
            raise ValueError("Send exactly one of code, recoveryCode and credential.")
        return self


class StepUpOut(ApiModel):
    token: str
    step_up_until: datetime


class PasskeyOut(ApiModel):
    id: uuid.UUID
    name: str
    created_at: datetime
    last_used_at: datetime | None


class PasskeyRegisterIn(ApiModel):
    name: Annotated[PlainText, Field(min_length=1, max_length=60)]
    credential: RegistrationCredentialIn


class PasskeyLoginOptionsIn(ApiModel):
    email: Text | None = None


class PasskeyLoginIn(ApiModel):
    credential: AuthenticationCredentialIn


class WebAuthnOptionsOut(ApiModel):
    options: dict[str, Any] = Field(description="the JSON options for startRegistration / startAuthentication "
                                    "(`optionsJSON`) of @simplewebauthn/browser")


class SecondFactorOut(ApiModel):
    totp_enabled: bool
    totp_pending: bool = Field(description="an enrolment was started and not confirmed")
    recovery_codes_left: int
    passkeys: list[PasskeyOut]
    step_up_until: datetime | None = Field(description="until when this session counts as freshly confirmed")
    step_up_required: bool = Field(description="whether sensitive changes ask for a fresh second factor")
