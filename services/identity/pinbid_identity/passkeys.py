"""Passkeys (WebAuthn through py_webauthn): register one, list and remove them, sign in with one alone, and answer a
step-up with one. Challenges live in the database (any replica checks the answer), are spent by the first answer
that names them, and expire after a few minutes."""

import struct
import time
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import webauthn
from pinbid_kit import mail
from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from pinbid_kit.errors import Conflict, Forbidden, Invalid, NotFound, SecondFactor
from pinbid_kit.tokens import Principal
from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from webauthn.helpers import (
    generate_challenge,
    options_to_json_dict,
    parse_authentication_credential_json,
    parse_authenticator_data,
    parse_client_data_json,
    parse_registration_credential_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from .accounts import Client, suspended_message
from .domain.accounts import SUSPENDED, RuleBroken, normalize_email
from .domain.passkeys import (
    CHALLENGE_SECONDS,
    INVALID,
    MAX_PASSKEYS,
    STALE,
    UNKNOWN,
    WENT_BACK,
    RelyingParty,
    counter_went_back,
    kept_transports,
    refusal,
)
from .models import Passkey, User, WebAuthnChallenge
from .signed_in import signed_in_user

REGISTER, LOGIN, STEP_UP = "REGISTER", "LOGIN", "STEP_UP"
# What py_webauthn (and the CBOR, JSON and key parsing under it) may raise on a forged or garbled answer: its own
# exceptions and whatever a hostile byte string makes a parser throw. Each is a refusal, never a 500.
MALFORMED = (WebAuthnException, ValueError, TypeError, KeyError, AttributeError, IndexError, LookupError,
             OverflowError, struct.error)


class PasskeyRefused(Exception):
    """An answer refused for a reason a person can read."""


@dataclass(frozen=True)
class Options:
    options: dict[str, Any]


class Passkeys:
    """`issue` signs a session token (Accounts.token); `signed_in` announces a sign-in (Accounts.signed_in)."""

    def __init__(self, db: Database, rp: RelyingParty, issue, signed_in, clock: Clock = utcnow):
        self.db, self.rp, self.issue, self.signed_in, self.clock = db, rp, issue, signed_in, clock

    # --- challenges ------------------------------------------------------------------------------------------
    async def _new_challenge(self, session: AsyncSession, purpose: str, user_id: uuid.UUID | None) -> bytes:
        challenge = generate_challenge()
        session.add(WebAuthnChallenge(challenge=challenge, purpose=purpose, user_id=user_id,
                                      expires_at=self.clock() + timedelta(seconds=CHALLENGE_SECONDS)))
        return challenge

    async def _spend_challenge(self, client_data_json: bytes, purpose: str, user_id: uuid.UUID | None = None,
                               *, any_user: bool = False) -> tuple[bytes, uuid.UUID | None]:
        """Deletes the challenge the browser signed, if it was issued for this purpose (and this user) and has not
        expired, in a transaction of its own: the first answer spends it, whatever becomes of that answer, and a
        replay finds nothing."""
        try:
            challenge = parse_client_data_json(client_data_json).challenge
        except MALFORMED:
            raise PasskeyRefused(INVALID) from None
        conditions = [WebAuthnChallenge.challenge == challenge, WebAuthnChallenge.purpose == purpose,
                      WebAuthnChallenge.expires_at > self.clock()]
        if not any_user:
            conditions.append(WebAuthnChallenge.user_id == user_id if user_id else WebAuthnChallenge.user_id.is_(None))
        async with self.db.transaction() as session:
            spent = (await session.execute(delete(WebAuthnChallenge).where(*conditions)
                                           .returning(WebAuthnChallenge.user_id))).first()
        if spent is None:
            raise PasskeyRefused(STALE)
        return challenge, spent.user_id

    # --- register, list, remove --------------------------------------------------------------------------------
    async def registration_options(self, principal: Principal) -> Options:
        async with self.db.transaction() as session:
            user = await signed_in_user(session, principal)
            existing = list(await session.scalars(select(Passkey).where(Passkey.user_id == user.id)))
            if len(existing) >= MAX_PASSKEYS:
                raise Conflict(f"You have {MAX_PASSKEYS} passkeys, the most an account may have. Remove one first.",
                               code="too_many_passkeys")
            challenge = await self._new_challenge(session, REGISTER, user.id)
        options = webauthn.generate_registration_options(
            rp_id=self.rp.id, rp_name=self.rp.name, user_id=user.id.bytes, user_name=user.email,
            user_display_name=user.name, challenge=challenge, timeout=CHALLENGE_SECONDS * 1000,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.REQUIRED),
            exclude_credentials=[_descriptor(p) for p in existing])
        return Options(options_to_json_dict(options))

    async def register(self, principal: Principal, name: str, credential: dict[str, Any]) -> Passkey:
        """The credential must answer a registration challenge issued to this same account (a challenge of another
        account is not found, so a registration cannot land on someone else's account)."""
        try:
            parsed = parse_registration_credential_json(credential)
        except MALFORMED:
            raise Invalid(INVALID, field="credential", code="invalid_passkey") from None
        try:
            challenge, _ = await self._spend_challenge(parsed.response.client_data_json, REGISTER, principal.user_id)
            async with self.db.transaction() as session:
                user = await signed_in_user(session, principal, lock=True)
                count = await session.scalar(select(func.count()).select_from(Passkey)
                                             .where(Passkey.user_id == user.id))
                if count >= MAX_PASSKEYS:
                    raise Conflict(f"You have {MAX_PASSKEYS} passkeys, the most an account may have.",
                                   code="too_many_passkeys")
                try:
                    verified = webauthn.verify_registration_response(
                        credential=parsed, expected_challenge=challenge, expected_rp_id=self.rp.id,
                        expected_origin=self.rp.origin, require_user_verification=True)
                except MALFORMED as error:
                    raise PasskeyRefused(refusal(str(error))) from None
                passkey = Passkey(id=uuid.uuid4(), user_id=user.id, credential_id=verified.credential_id,
                                  public_key=verified.credential_public_key, sign_count=verified.sign_count,
                                  name=name, transports=kept_transports(
                                      [str(t.value) for t in (parsed.response.transports or [])]),
                                  created_at=self.clock())
                session.add(passkey)
                await session.flush()
                await mail.enqueue(session, user.email, "A passkey was added to your Pinbid account",
                                   passkey_notice(user.name, f"A passkey named \u201c{name}\u201d was added: it can "
                                                  "sign in to your account without the password.",
                                                  "remove it in Settings (Security)."))
        except PasskeyRefused as refused:
            raise Invalid(str(refused), field="credential", code="invalid_passkey") from None
        except IntegrityError:
            raise Conflict("This passkey is already registered.", code="passkey_exists") from None
        return passkey

    async def all_of(self, principal: Principal) -> list[Passkey]:
        async with self.db.transaction() as session:
            await signed_in_user(session, principal)
            return list(await session.scalars(select(Passkey).where(Passkey.user_id == principal.user_id)
                                              .order_by(Passkey.created_at)))

    async def remove(self, principal: Principal, passkey_id: uuid.UUID) -> None:
        async with self.db.transaction() as session:
            user = await signed_in_user(session, principal)
            name = await session.scalar(delete(Passkey).where(Passkey.id == passkey_id, Passkey.user_id == user.id)
                                        .returning(Passkey.name))
            if name is None:
                raise NotFound("There is no such passkey.", code="not_found")
            await mail.enqueue(session, user.email, "A passkey was removed from your Pinbid account",
                               passkey_notice(user.name, f"The passkey named \u201c{name}\u201d was removed: it can no "
                                              "longer sign in to your account.",
                                              "add a passkey again in Settings (Security)."))

    # --- sign in ------------------------------------------------------------------------------------------------
    async def login_options(self, email_raw: str | None) -> Options:
        """With an email, the account's passkeys are offered; without one (or for an email with none, which the
        answer does not tell), the browser offers its discoverable passkeys for this site."""
        async with self.db.transaction() as session:
            mine: list[Passkey] = []
            if email_raw:
                try:
                    email = normalize_email(email_raw)
                except RuleBroken:
                    email = None
                if email:
                    mine = list(await session.scalars(select(Passkey).join(User, User.id == Passkey.user_id)
                                                      .where(User.email == email)))
            challenge = await self._new_challenge(session, LOGIN, None)
        return Options(self._assertion_options(challenge, mine))

    async def login(self, credential: dict[str, Any], client: Client) -> tuple[User, str]:
        """A passkey alone signs in; the session counts as freshly confirmed (the device verified the person)."""
        try:
            async with self.db.transaction() as session:
                user, _ = await self._assert(session, credential, LOGIN, None, any_user=False)
                if user.status == SUSPENDED:
                    raise Forbidden(suspended_message(user.suspended_reason), code="account_suspended")
        except PasskeyRefused as refused:
            raise Forbidden(str(refused), code="passkey_login_failed") from None
        async with self.db.transaction() as session:
            await self.signed_in(session, user, client)
        return user, self.issue(user, int(time.time()))

    # --- step-up --------------------------------------------------------------------------------------------
    async def step_up_options(self, principal: Principal) -> Options:
        async with self.db.transaction() as session:
            user = await signed_in_user(session, principal)
            mine = list(await session.scalars(select(Passkey).where(Passkey.user_id == user.id)))
            if not mine:
                raise Conflict("You have no passkey. Enter a code from your authenticator app instead.",
                               code="no_passkey")
            challenge = await self._new_challenge(session, STEP_UP, user.id)
        return Options(self._assertion_options(challenge, mine))

    async def step_up(self, principal: Principal, credential: dict[str, Any]) -> str:
        try:
            async with self.db.transaction() as session:
                signed_in = await signed_in_user(session, principal)
                user, _ = await self._assert(session, credential, STEP_UP, signed_in.id)
        except PasskeyRefused as refused:
            raise SecondFactor(str(refused), code="invalid_second_factor") from None
        return self.issue(user, int(time.time()))

    # --- the assertion ----------------------------------------------------------------------------------------
    def _assertion_options(self, challenge: bytes, passkeys: list[Passkey]) -> dict[str, Any]:
        options = webauthn.generate_authentication_options(
            rp_id=self.rp.id, challenge=challenge, timeout=CHALLENGE_SECONDS * 1000,
            allow_credentials=[_descriptor(p) for p in passkeys],
            user_verification=UserVerificationRequirement.REQUIRED)
        return options_to_json_dict(options)

    async def _assert(self, session: AsyncSession, credential: dict[str, Any], purpose: str,
                      user_id: uuid.UUID | None, *, any_user: bool = False) -> tuple[User, Passkey]:
        """Checks an assertion: its challenge (spent here), the passkey (registered, of the expected user), the
        origin, relying party, user verification and signature, and the sign counter, which is recorded by an
        UPDATE whose WHERE repeats the counter rule (two uses of one answer at once: one wins)."""
        try:
            parsed = parse_authentication_credential_json(credential)
        except MALFORMED:
            raise PasskeyRefused(INVALID) from None
        challenge, challenged_user = await self._spend_challenge(
            parsed.response.client_data_json, purpose, user_id, any_user=any_user or purpose == LOGIN)
        passkey = await session.scalar(select(Passkey).where(Passkey.credential_id == parsed.raw_id))
        if passkey is None or (user_id is not None and passkey.user_id != user_id) \
                or (challenged_user is not None and passkey.user_id != challenged_user):
            raise PasskeyRefused(UNKNOWN)
        handle = parsed.response.user_handle
        if handle and handle != passkey.user_id.bytes:
            raise PasskeyRefused(UNKNOWN)
        try:
            reported = parse_authenticator_data(parsed.response.authenticator_data).sign_count
        except MALFORMED:
            raise PasskeyRefused(INVALID) from None
        if counter_went_back(passkey.sign_count, reported):
            raise PasskeyRefused(WENT_BACK)
        try:
            verified = webauthn.verify_authentication_response(
                credential=parsed, expected_challenge=challenge, expected_rp_id=self.rp.id,
                expected_origin=self.rp.origin, credential_public_key=passkey.public_key,
                credential_current_sign_count=passkey.sign_count, require_user_verification=True)
        except MALFORMED as error:
            raise PasskeyRefused(refusal(str(error))) from None
        recorded = await session.scalar(
            update(Passkey).where(Passkey.id == passkey.id, or_(
                Passkey.sign_count < verified.new_sign_count,
                (Passkey.sign_count == 0) & (verified.new_sign_count == 0)))
            .values(sign_count=verified.new_sign_count, last_used_at=self.clock()).returning(Passkey.id))
        if recorded is None:
            raise PasskeyRefused(WENT_BACK)
        user = await session.get(User, passkey.user_id)
        assert user is not None  # a passkey goes with its user (ON DELETE CASCADE)
        return user, passkey


def _descriptor(passkey: Passkey) -> PublicKeyCredentialDescriptor:
    transports = [AuthenticatorTransport(t) for t in (passkey.transports or "").split(",") if t]
    return PublicKeyCredentialDescriptor(id=passkey.credential_id, transports=transports or None)


def passkey_notice(name: str, what: str, undo: str) -> str:
    """A mail about a passkey added or removed: what changed and how to undo it."""
    return (f"Hi {name},\n\n{what}\n\nIf you made this change, there is nothing more to do. To undo it, {undo}\n"
            "If you did not make it, someone else is signed in to your account: change your password right away "
            "(or use Forgot password on the sign-in page) and contact Pinbid support.\n\n— Pinbid\n")
