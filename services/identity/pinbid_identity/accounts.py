"""Identity's application layer: each public method is one transaction."""

import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from pinbid_kit import mail, outbox
from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from pinbid_kit.errors import Conflict, Forbidden, Invalid
from pinbid_kit.events import EventData
from pinbid_kit.events.identity import SessionsRevoked
from pinbid_kit.revocations import Revocations
from pinbid_kit.secrets import SecretBox
from pinbid_kit.step_up import require_fresh_second_factor
from pinbid_kit.tokens import Principal, TokenSigner
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, events_out
from .domain.accounts import (
    OPERATOR,
    SUSPENDED,
    Role,
    RuleBroken,
    check_password,
    check_signup_fields,
    clean_name,
    normalize_email,
)
from .domain.notices import DEFAULT_PREFERENCES
from .domain.signals import address_signal_value
from .models import NotificationPreferences, User
from .notifications import preference_columns
from .passwords import Passwords
from .second_factors import FactorRequired, Proof, factors_of, needs_second_factor, spend_proof
from .settings import IdentitySettings
from .signed_in import signed_in_user
from .throttle import FailedLogins

LOGIN_FAILED = "Invalid email or password."
WRONG_PASSWORD = "Your current password is incorrect."
PASSWORD_FOR_EMAIL = "Enter your current password to change your email address."


def rule(fn, *args, **kwargs):
    """Run a domain rule; a broken rule becomes a 422 naming the field."""
    try:
        return fn(*args, **kwargs)
    except RuleBroken as broken:
        raise Invalid(str(broken), field=broken.field) from None


@dataclass(frozen=True)
class Client:
    """Where a request came from: the address the gateway saw and the browser's device id, if it sent one."""

    address: str
    device: str | None = None

    def signals(self) -> dict[str, str]:
        observed = {}
        if self.device:
            observed["DEVICE"] = self.device
        if (address := address_signal_value(self.address)) is not None:
            observed["ADDRESS"] = address
        return observed


def suspended_message(reason: str | None) -> str:
    return f"This account is suspended: {reason or 'no reason was given'}. Contact Pinbid support if you think " \
        "this is a mistake."


@dataclass(frozen=True)
class Signup:
    name: str
    email: str
    password: str
    role: Role
    instagram_handle: str | None = None
    business_name: str | None = None


class Accounts:
    def __init__(self, db: Database, settings: IdentitySettings, signer: TokenSigner, passwords: Passwords,
                 secret_box: SecretBox, clock: Clock = utcnow):
        self.db = db
        self.settings = settings
        self.signer = signer
        self.passwords = passwords
        self.secret_box = secret_box
        self.clock = clock
        self.failed_logins = FailedLogins(db, settings.login_policy())

    def token(self, user: User, proved_at: int | None = None) -> str:
        """A session token. `proved_at`: when this session proved a second factor (epoch seconds), which makes it
        fresh for a step-up; `mf` says whether the account has one on (turning it on or off revokes tokens)."""
        ttl = self.settings.operator_token_ttl_seconds if user.role == OPERATOR else None
        return self.signer.sign(user.id, user.role, user.token_version, ttl_seconds=ttl,
                                second_factor_on=needs_second_factor(user), second_factor_at=proved_at)

    # --- sign up, sign in -------------------------------------------------------------------
    async def register(self, signup: Signup, *, demo: bool = False, client: Client | None = None
                       ) -> tuple[User, str]:
        name = rule(clean_name, signup.name)
        email = rule(normalize_email, signup.email)
        rule(check_password, signup.password)
        handle, business = rule(check_signup_fields, signup.role, signup.instagram_handle, signup.business_name)
        password_hash = await self.passwords.hash(signup.password)
        user = User(id=uuid.uuid4(), email=email, name=name, role=signup.role.value, password_hash=password_hash,
                    business_name=business, instagram_handle=handle, is_demo=demo, token_version=0)
        try:
            async with self.db.transaction() as session:
                session.add(user)
                await session.flush()
                session.add(NotificationPreferences(user_id=user.id, **preference_columns(DEFAULT_PREFERENCES)))
                observed = {"EMAIL": user.email, **(client.signals() if client is not None else {})}
                await outbox.publish_all(session, [
                    events_out.user_registered(user),
                    *events_out.signals_observed(user.id, observed, datetime.now(UTC))], source=SERVICE)
        except IntegrityError:
            raise Conflict("An account with this email already exists.", code="email_taken") from None
        return user, self.token(user)

    async def login(self, email_raw: str, password: str, client: Client | str, code: str | None = None,
                    recovery_code: str | None = None) -> tuple[User, str]:
        """An account with two-step sign-in on (every operator) also gives the TOTP code of its authenticator app,
        or a recovery code. A wrong code counts as a failed login (the throttle), a missing one does not (the web
        asks for it once it knows the account needs one)."""
        client = Client(client) if isinstance(client, str) else client
        try:
            email = normalize_email(email_raw)
        except RuleBroken:
            email = email_raw.strip().lower()[:254]
        attempt = await self.failed_logins.begin(email, client.address)
        async with self.db.transaction() as session:
            user = await session.scalar(select(User).where(User.email == email))
        ok = await self.passwords.verify(user.password_hash if user else None, password)
        if not ok or user is None:
            raise Forbidden(LOGIN_FAILED, code="login_failed")
        if user.status == SUSPENDED:
            await self.failed_logins.succeeded(attempt)
            raise Forbidden(suspended_message(user.suspended_reason), code="account_suspended")
        proof = Proof(code, recovery_code)
        if needs_second_factor(user) and not proof.given:
            await self.failed_logins.withdraw(attempt)
            async with self.db.transaction() as session:
                raise FactorRequired(await factors_of(session, user))
        proved_at = None
        async with self.db.transaction() as session:
            if needs_second_factor(user):
                await spend_proof(session, self.secret_box, user, proof, self.clock())
                proved_at = int(time.time())
            if self.passwords.needs_rehash(user.password_hash):
                await session.execute(update(User).where(User.id == user.id).values(
                    password_hash=await self.passwords.hash(password)))
            await self.signed_in(session, user, client)
        await self.failed_logins.succeeded(attempt)
        return user, self.token(user, proved_at)

    async def signed_in(self, session: AsyncSession, user: User, client: Client) -> None:
        """What every successful sign-in announces (account signals), in its transaction."""
        await outbox.publish_all(session, events_out.signals_observed(
            user.id, {"EMAIL": user.email, **client.signals()}, datetime.now(UTC)), source=SERVICE)

    # --- the signed-in user ---------------------------------------------------------------
    async def current(self, principal: Principal) -> User:
        async with self.db.transaction() as session:
            return await signed_in_user(session, principal)


    async def update_profile(self, principal: Principal, name_raw: str, email_raw: str,
                             current_password: str | None, client: str) -> tuple[User, str | None]:
        """A new email needs the current password (else a stolen session could take the account over
        through a password reset to the new address). It is told to the old address, and it revokes
        every earlier token: the answer then carries a new one, else None."""
        name = rule(clean_name, name_raw)
        email = rule(normalize_email, email_raw)
        token = None
        try:
            async with self.db.transaction() as session:
                user = await signed_in_user(session, principal, lock=True)
                if (user.name, user.email) == (name, email):
                    return user, None
                old_email = user.email
                if email != old_email:
                    require_fresh_second_factor(principal)
                    await self._check_current_password(user, current_password, client, missing=PASSWORD_FOR_EMAIL)
                user.name, user.email = name, email
                await session.flush()
                events: list[EventData] = [events_out.user_updated(user)]
                if email != old_email:
                    await mail.enqueue(session, old_email, "Your Pinbid email address was changed",
                                       email_changed_notice(name, email))
                    events += events_out.signals_observed(user.id, {"EMAIL": email}, datetime.now(UTC))
                    events.append(await revoke_tokens(session, user))
                    token = self.token(user, principal.second_factor_at)
                await outbox.publish_all(session, events, source=SERVICE)
        except IntegrityError:
            raise Conflict("An account with this email already exists.", code="email_taken") from None
        return user, token

    async def change_password(self, principal: Principal, current: str, new: str, client: str) -> str:
        """Asks for a fresh second factor when the account has one on (a stolen session must not set a password)."""
        require_fresh_second_factor(principal)
        rule(check_password, new, "newPassword")
        async with self.db.transaction() as session:
            user = await signed_in_user(session, principal, lock=True)
            await self._check_current_password(user, current, client)
            user.password_hash = await self.passwords.hash(new)
            await outbox.publish(session, await revoke_tokens(session, user), source=SERVICE)
            await mail.enqueue(session, user.email, "Your Pinbid password was changed",
                               password_changed_notice(user.name))
        return self.token(user, principal.second_factor_at)

    async def _check_current_password(self, user: User, given: str | None, client: str, *,
                                      missing: str = WRONG_PASSWORD) -> None:
        """A wrong current password counts as a failed login: a stolen session must not become a way to
        guess the password without limit."""
        if not given:
            raise Invalid(missing, field="currentPassword", code="wrong_password")
        attempt = await self.failed_logins.begin(user.email, client)
        if not await self.passwords.verify(user.password_hash, given):
            raise Invalid(WRONG_PASSWORD, field="currentPassword", code="wrong_password")
        await self.failed_logins.succeeded(attempt)

    async def load_revocations(self, revocations: Revocations) -> None:
        for user_id, version in await self.token_versions():
            revocations.apply(user_id, version)

    async def token_versions(self) -> list[tuple[uuid.UUID, int]]:
        """Users whose tokens were revoked recently enough that such tokens may still be unexpired."""
        since = datetime.now(UTC) - timedelta(seconds=self.settings.token_ttl_seconds)
        async with self.db.transaction() as session:
            rows = await session.execute(select(User.id, User.token_version)
                                         .where(User.tokens_revoked_at > since))
            return [(row.id, row.token_version) for row in rows]


async def revoke_tokens(session: AsyncSession, user: User) -> SessionsRevoked:
    """Every token of the user is refused from now on (a new password, a new email); returns the event that says
    so, for the use case to write with the rest of its events."""
    user.token_version += 1
    user.tokens_revoked_at = datetime.now(UTC)
    await session.flush()
    return events_out.sessions_revoked(user)


def email_changed_notice(name: str, new_email: str) -> str:
    """Sent to the old address: it names the new one only masked, since it may be an intruder's."""
    return (f"Hi {name},\n\n"
            f"The email address of your Pinbid account was just changed to {mail.mask_address(new_email)}.\n"
            "Every device signed in to your account has been signed out.\n\n"
            "If you made this change, there is nothing more to do; to undo it, change the address back in Settings "
            "(Profile). If you did not make it, someone else knows your password: contact Pinbid support right away "
            "(reply to this mail) so that we can give the account back to you.\n\n"
            "— Pinbid\n")


def password_changed_notice(name: str) -> str:
    return (f"Hi {name},\n\n"
            "The password of your Pinbid account was just changed. Every other device signed in to your account has "
            "been signed out.\n\n"
            "If you made this change, there is nothing more to do. If you did not, set a new password at once with "
            "\u201cForgot password\u201d on the sign-in page (the link goes to this address), then turn on two-step "
            "sign-in in Settings, and contact Pinbid support.\n\n"
            "— Pinbid\n")
