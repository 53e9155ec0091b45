"""Password reset: "Forgot password" mails a one-time link (only its hash is stored, valid for
`IDENTITY_RESET_TOKEN_TTL_SECONDS`), and the link sets a new password once, signing every device out."""

import hashlib
import secrets
from datetime import UTC, datetime, timedelta

from pinbid_kit import mail, outbox
from pinbid_kit.db import Database
from pinbid_kit.errors import Invalid
from sqlalchemy import delete, func, select, update

from . import SERVICE
from .accounts import revoke_tokens, rule
from .domain.accounts import check_password, normalize_email
from .models import PasswordReset, User
from .passwords import Passwords
from .settings import IdentitySettings
from .throttle import forget_email

RESET_SENT = "If an account with that email exists, you will receive a password reset link."
RESET_DONE = "Your password has been reset. You can now log in with your new password."
RESET_INVALID = "This reset link is invalid or has expired. Please request a new one."


class PasswordResets:
    def __init__(self, db: Database, settings: IdentitySettings, passwords: Passwords):
        self.db = db
        self.settings = settings
        self.passwords = passwords

    async def forgot_password(self, email_raw: str) -> str:
        """Answers the same whether or not the email exists; only the mail queue differs."""
        email = rule(normalize_email, email_raw)
        token = secrets.token_urlsafe(32)
        async with self.db.transaction() as session:
            user = await session.scalar(select(User).where(User.email == email))
            if user is not None:
                expires = datetime.now(UTC) + timedelta(seconds=self.settings.reset_token_ttl_seconds)
                session.add(PasswordReset(token_hash=_digest(token), user_id=user.id, expires_at=expires))
                link = f"{self.settings.public_url.rstrip('/')}/reset-password/{token}"
                minutes = self.settings.reset_token_ttl_seconds // 60
                await mail.enqueue(session, user.email, "Reset your Pinbid password", (
                    f"Hi {user.name},\n\nSomeone asked to reset the password of your Pinbid account.\n"
                    f"To choose a new password, open this link within {minutes} minutes:\n\n{link}\n\n"
                    "If it was not you, ignore this message: your password stays the same.\n\n— Pinbid\n"))
        return RESET_SENT

    async def reset_password(self, token: str, new_password: str) -> str:
        rule(check_password, new_password, "newPassword")
        new_hash = await self.passwords.hash(new_password)
        async with self.db.transaction() as session:
            user_id = await session.scalar(
                update(PasswordReset)
                .where(PasswordReset.token_hash == _digest(token), PasswordReset.used_at.is_(None),
                       PasswordReset.expires_at > func.now())
                .values(used_at=func.now())
                .returning(PasswordReset.user_id)
            )
            if user_id is None:
                raise Invalid(RESET_INVALID, field="token", code="invalid_reset_token")
            user = await session.scalar(select(User).where(User.id == user_id).with_for_update())
            user.password_hash = new_hash
            await session.execute(delete(PasswordReset).where(PasswordReset.user_id == user_id,
                                                              PasswordReset.used_at.is_(None)))
            await forget_email(session, user.email)
            await outbox.publish(session, await revoke_tokens(session, user), source=SERVICE)
        return RESET_DONE


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
