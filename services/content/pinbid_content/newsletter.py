"""The newsletter's application layer: double opt-in subscription, confirmation and unsubscribe.

Subscribing answers the same for a new, pending or confirmed address; only the mail queue differs,
and at most one mail per address leaves per interval (a conditional UPDATE decides, so concurrent
requests for one address send one mail)."""

import uuid
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import quote

from pinbid_kit import mail
from pinbid_kit.db import Database
from pinbid_kit.errors import Invalid
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from .domain import mails
from .domain.subscribers import (
    BadEmail,
    digest,
    new_token,
    normalize_email,
    read_unsubscribe_token,
    unsubscribe_token,
)
from .settings import ContentSettings

CHECK_INBOX = "Check your inbox to confirm your subscription."
MAX_TOKEN = 200


@dataclass(frozen=True)
class Links:
    public_url: str

    def confirm(self, token: str) -> str:
        return f"{self.base}/api/newsletter/confirm?token={quote(token)}"

    def unsubscribe(self, token: str) -> str:
        return f"{self.base}/api/newsletter/unsubscribe?token={quote(token)}"

    def blog(self, query: str) -> str:
        return f"{self.base}/blog?{query}"

    @property
    def base(self) -> str:
        return self.public_url.rstrip("/")


class Newsletter:
    def __init__(self, db: Database, settings: ContentSettings, unsubscribe_key: bytes):
        self.db = db
        self.settings = settings
        self.key = unsubscribe_key
        self.links = Links(settings.public_url)

    async def subscribe(self, email_raw: str) -> str:
        try:
            email = normalize_email(email_raw)
        except BadEmail as bad:
            raise Invalid(str(bad), field="email", code="invalid_email") from None
        token = new_token()
        async with self.db.transaction() as session:
            await session.execute(text(
                "INSERT INTO subscribers (id, email, status) VALUES (:id, :email, 'PENDING') "
                "ON CONFLICT (email) DO NOTHING"), {"id": uuid.uuid4(), "email": email})
            # A confirmed address keeps its state; a pending or unsubscribed one gets a fresh link.
            due = (await session.execute(text(
                "UPDATE subscribers SET last_mail_at = now(), "
                "  confirm_token_hash = CASE WHEN status = 'CONFIRMED' THEN NULL ELSE :hash END, "
                "  confirm_expires_at = CASE WHEN status = 'CONFIRMED' THEN NULL ELSE now() + :ttl END, "
                "  status = CASE WHEN status = 'CONFIRMED' THEN 'CONFIRMED' ELSE 'PENDING' END "
                "WHERE email = :email AND (last_mail_at IS NULL OR last_mail_at <= now() - :interval) "
                "RETURNING id, status"),
                {"email": email, "hash": digest(token),
                 "ttl": timedelta(seconds=self.settings.confirm_token_ttl_seconds),
                 "interval": timedelta(seconds=self.settings.subscribe_mail_interval_seconds)})).first()
            if due is not None:
                if due.status == "CONFIRMED":
                    message = mails.already_subscribed(self._unsubscribe_link(due.id))
                else:
                    hours = self.settings.confirm_token_ttl_seconds // 3600
                    message = mails.confirmation(self.links.confirm(token), hours)
                await self._send(session, email, message)
        return CHECK_INBOX

    async def confirm(self, token: str) -> str:
        """Where the browser goes next. Opening a valid link twice is not an error."""
        if not token or len(token) > MAX_TOKEN:
            return self.links.blog("subscribed=invalid")
        async with self.db.transaction() as session:
            confirmed = (await session.execute(text(
                "UPDATE subscribers SET status = 'CONFIRMED', confirmed_at = now() "
                "WHERE confirm_token_hash = :hash AND confirm_expires_at > now() AND status = 'PENDING' "
                "RETURNING id, email"), {"hash": digest(token)})).first()
            if confirmed is not None:
                await self._send(session, confirmed.email, mails.welcome(self._unsubscribe_link(confirmed.id)))
                return self.links.blog("subscribed=1")
            already = await session.scalar(text(
                "SELECT 1 FROM subscribers WHERE confirm_token_hash = :hash AND confirm_expires_at > now() "
                "AND status = 'CONFIRMED'"), {"hash": digest(token)})
        return self.links.blog("subscribed=1" if already else "subscribed=invalid")

    async def unsubscribe(self, token: str) -> str:
        subscriber_id = read_unsubscribe_token(self.key, token[:MAX_TOKEN]) if token else None
        if subscriber_id is None:
            return self.links.blog("unsubscribed=invalid")
        async with self.db.transaction() as session:
            await session.execute(text(
                "UPDATE subscribers SET status = 'UNSUBSCRIBED', unsubscribed_at = now(), "
                "  confirm_token_hash = NULL, confirm_expires_at = NULL "
                "WHERE id = :id AND status <> 'UNSUBSCRIBED'"), {"id": subscriber_id})
        return self.links.blog("unsubscribed=1")

    def _unsubscribe_link(self, subscriber_id: uuid.UUID) -> str:
        return self.links.unsubscribe(unsubscribe_token(self.key, subscriber_id))

    @staticmethod
    async def _send(session: AsyncSession, to: str, message: mails.Mail) -> None:
        await mail.enqueue(session, to, message.subject, message.body)


async def housekeeping(db: Database) -> None:
    """Forget addresses that never confirmed once their link has long expired (they gave us no consent)."""
    async with db.transaction() as session:
        await session.execute(text(
            "DELETE FROM subscribers WHERE status = 'PENDING' AND confirm_expires_at < now() - interval '7 days'"))
