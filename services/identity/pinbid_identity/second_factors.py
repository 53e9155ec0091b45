"""Two-step sign-in with an authenticator app (TOTP) for every account, its recovery codes, and the step-up that
sensitive changes ask for. Each public method is one use case; a code is checked and spent in the transaction that
acts on it."""

import time
from dataclasses import dataclass
from datetime import datetime

from pinbid_kit import mail, outbox
from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from pinbid_kit.errors import Conflict, Forbidden, Invalid, SecondFactor
from pinbid_kit.secrets import SecretBox
from pinbid_kit.step_up import fresh_until
from pinbid_kit.tokens import Principal
from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE
from .domain import second_factor
from .domain.accounts import OPERATOR
from .models import Passkey, RecoveryCode, User
from .passwords import Passwords
from .signed_in import signed_in_user
from .throttle import FailedLogins

CODE_REQUIRED = "Enter the 6-digit code from your authenticator app."
CODE_INVALID = "That code is not valid or was already used. Wait for the next code and try again."
RECOVERY_INVALID = "That recovery code is not valid or was already used."
ONE_OF = "Send the 6-digit code or a recovery code, not both."


class FactorRequired(SecondFactor):
    """401 `second_factor_required`, naming the factors the account can answer with ("totp", "passkey")."""

    def __init__(self, factors: list[str]):
        super().__init__(CODE_REQUIRED, code="second_factor_required")
        self.factors = factors

    def body(self) -> dict:
        return {**super().body(), "factors": self.factors}


@dataclass(frozen=True)
class Proof:
    """What a person typed to prove the second factor: a TOTP code or a recovery code."""

    code: str | None = None
    recovery_code: str | None = None

    @property
    def given(self) -> bool:
        return bool(self.code or self.recovery_code)


def totp_on(user: User) -> bool:
    return user.totp_secret_sealed is not None


def needs_second_factor(user: User) -> bool:
    return user.role == OPERATOR or totp_on(user)


async def factors_of(session: AsyncSession, user: User) -> list[str]:
    has_passkey = await session.scalar(select(func.count()).select_from(Passkey).where(Passkey.user_id == user.id))
    return ["totp", *(["passkey"] if has_passkey else [])]


async def spend_proof(session: AsyncSession, box: SecretBox, user: User, proof: Proof, now: datetime,
                      *, refusal: type[Exception] | None = None) -> None:
    """Accepts the code once, or spends the recovery code once. The step a code matched must be newer than the last
    accepted one, and the update that records it says so in its WHERE (likewise `used_at IS NULL` for a recovery
    code), so two requests with one code at the same moment let one through. Refused: 401
    `invalid_second_factor`."""
    if proof.code and proof.recovery_code:
        raise Invalid(ONE_OF, field="recoveryCode")
    if proof.recovery_code:
        digest = second_factor.recovery_code_digest(proof.recovery_code)
        spent = digest is not None and await session.scalar(
            update(RecoveryCode).where(RecoveryCode.user_id == user.id, RecoveryCode.code_hash == digest,
                                       RecoveryCode.used_at.is_(None))
            .values(used_at=now).returning(RecoveryCode.code_hash))
        if not spent:
            raise SecondFactor(RECOVERY_INVALID, code="invalid_second_factor")
        return
    secret = box.open(user.totp_secret_sealed) if user.totp_secret_sealed else None
    step = second_factor.accepted_step(secret, proof.code or "", now, user.totp_last_step) if secret else None
    recorded = step is not None and await session.scalar(
        update(User).where(User.id == user.id, or_(User.totp_last_step.is_(None), User.totp_last_step < step))
        .values(totp_last_step=step).returning(User.id))
    if not recorded:
        raise SecondFactor(CODE_INVALID, code="invalid_second_factor")


@dataclass(frozen=True)
class Status:
    totp_enabled: bool
    totp_pending: bool
    recovery_codes_left: int
    passkeys: list[Passkey]
    step_up_until: int | None
    step_up_required: bool


class SecondFactors:
    """`issue` signs a session token for a user (Accounts.token): `proved_at` is when the session proved a factor."""

    def __init__(self, db: Database, box: SecretBox, passwords: Passwords, failed_logins: FailedLogins, issuer: str,
                 issue, revoke, clock: Clock = utcnow):
        self.db, self.box, self.passwords, self.failed_logins = db, box, passwords, failed_logins
        self.issuer, self.issue, self.revoke, self.clock = issuer, issue, revoke, clock

    async def status(self, principal: Principal) -> Status:
        async with self.db.transaction() as session:
            user = await session.get(User, principal.user_id)
            if user is None:
                raise Forbidden("Your session has expired. Please sign in again.", code="invalid_token")
            left = await session.scalar(select(func.count()).select_from(RecoveryCode).where(
                RecoveryCode.user_id == user.id, RecoveryCode.used_at.is_(None)))
            passkeys = list(await session.scalars(select(Passkey).where(Passkey.user_id == user.id)
                                                  .order_by(Passkey.created_at)))
        return Status(totp_on(user), user.totp_pending_sealed is not None, left or 0, passkeys,
                      fresh_until(principal), totp_on(user))

    async def begin_totp(self, principal: Principal) -> tuple[str, str]:
        """A new secret, pending until a code of it is confirmed; it replaces any pending one."""
        if principal.role == OPERATOR:
            raise Forbidden("Operators' authenticator is set up by the operator command.", code="wrong_role")
        secret = second_factor.new_secret()
        async with self.db.transaction() as session:
            user = await signed_in_user(session, principal, lock=True)
            if totp_on(user):
                raise Conflict("Two-step sign-in is already on. Turn it off first to use another app.",
                               code="totp_already_enabled")
            user.totp_pending_sealed = self.box.seal(secret)
        return secret, second_factor.provisioning_uri(secret, user.email, self.issuer)

    async def confirm_totp(self, principal: Principal, code: str, client: str) -> tuple[User, list[str], str]:
        """Turns TOTP on with the pending secret a code of which was typed; answers the recovery codes and a new
        token (every other session is signed out). Of two confirms at once, the user row's lock orders them and the
        second finds its session revoked by the first (403), so no secret is ever mixed with another's codes."""
        attempt = await self.failed_logins.begin(await self._email(principal), client)
        codes = second_factor.new_recovery_codes()
        now = self.clock()
        async with self.db.transaction() as session:
            user = await signed_in_user(session, principal, lock=True)
            if totp_on(user):
                await self.failed_logins.withdraw(attempt)
                raise Conflict("Two-step sign-in is already on.", code="totp_already_enabled")
            if user.totp_pending_sealed is None:
                await self.failed_logins.withdraw(attempt)
                raise Conflict("Start again: scan a new QR code first.", code="no_pending_enrolment")
            step = second_factor.accepted_step(self.box.open(user.totp_pending_sealed), code, now, None)
            if step is None:
                raise Invalid(CODE_INVALID, field="code", code="invalid_second_factor")
            user.totp_secret_sealed, user.totp_pending_sealed, user.totp_last_step = \
                user.totp_pending_sealed, None, step
            await session.execute(delete(RecoveryCode).where(RecoveryCode.user_id == user.id))
            session.add_all([RecoveryCode(user_id=user.id, code_hash=second_factor.recovery_code_digest(c))
                             for c in codes])
            await outbox.publish(session, await self.revoke(session, user), source=SERVICE)
            await mail.enqueue(session, user.email, "Two-step sign-in is on for your Pinbid account",
                               factor_notice(user.name, "Two-step sign-in with an authenticator app was turned on.",
                                             "Turn it off in Settings, with your password and a code."))
        await self.failed_logins.succeeded(attempt)
        return user, codes, self.issue(user, int(time.time()))

    async def disable_totp(self, principal: Principal, password: str, proof: Proof, client: str) -> tuple[User, str]:
        """Needs the password and a code (or recovery code); forgets the secret and the recovery codes and signs out
        every other session."""
        email = await self._email(principal)
        attempt = await self.failed_logins.begin(email, client)
        async with self.db.transaction() as session:  # no lock held through the password's argon2
            user = await signed_in_user(session, principal)
            if not totp_on(user) or user.role == OPERATOR:
                await self.failed_logins.withdraw(attempt)
                raise Conflict("Two-step sign-in is not on.", code="totp_not_enabled")
            if not await self.passwords.verify(user.password_hash, password):
                raise Invalid("Your current password is incorrect.", field="password", code="wrong_password")
            if not proof.given:
                await self.failed_logins.withdraw(attempt)
                raise Invalid(CODE_REQUIRED, field="code", code="second_factor_required")
        async with self.db.transaction() as session:
            user = await signed_in_user(session, principal, lock=True)
            if not totp_on(user):
                raise Conflict("Two-step sign-in is not on.", code="totp_not_enabled")
            await spend_proof(session, self.box, user, proof, self.clock())
            user.totp_secret_sealed, user.totp_pending_sealed, user.totp_last_step = None, None, None
            await session.execute(delete(RecoveryCode).where(RecoveryCode.user_id == user.id))
            await outbox.publish(session, await self.revoke(session, user), source=SERVICE)
            await mail.enqueue(session, user.email, "Two-step sign-in was turned off on your Pinbid account",
                               factor_notice(user.name, "Two-step sign-in with an authenticator app was turned off, "
                                             "and its recovery codes no longer work.",
                                             "Turn it on again in Settings (Security)."))
        await self.failed_logins.succeeded(attempt)
        return user, self.issue(user, None)

    async def step_up(self, principal: Principal, proof: Proof, client: str) -> str:
        """A new token whose session counts as freshly confirmed, for a TOTP code or a recovery code."""
        email = await self._email(principal)
        attempt = await self.failed_logins.begin(email, client)
        async with self.db.transaction() as session:
            user = await signed_in_user(session, principal, lock=True)
            if not totp_on(user) and user.role != OPERATOR:
                await self.failed_logins.withdraw(attempt)
                raise Conflict("Two-step sign-in is not on: there is nothing to confirm.", code="no_second_factor")
            if not proof.given:
                await self.failed_logins.withdraw(attempt)
                raise Invalid(CODE_REQUIRED, field="code", code="second_factor_required")
            await spend_proof(session, self.box, user, proof, self.clock())
        await self.failed_logins.succeeded(attempt)
        return self.issue(user, int(time.time()))

    async def _email(self, principal: Principal) -> str:
        async with self.db.transaction() as session:
            email = await session.scalar(select(User.email).where(User.id == principal.user_id))
        if email is None:
            raise Forbidden("Your session has expired. Please sign in again.", code="invalid_token")
        return email


def factor_notice(name: str, what: str, undo: str) -> str:
    """A mail about a change to how the account is protected: what changed and how to undo it."""
    return (f"Hi {name},\n\n{what}\nEvery other device signed in to your account has been signed out.\n\n"
            f"If you made this change, there is nothing more to do. To undo it: {undo}\n"
            "If you did not make it, someone else can sign in to your account: reset your password right away "
            "(Forgot password on the sign-in page) and contact Pinbid support.\n\n— Pinbid\n")
