"""Outgoing mail. Requests only enqueue (in their own transaction, so no mail leaves for a change
that rolled back, and a request takes the same time whether or not it sends mail); a worker sends
through SMTP or, in the embedded default, writes each message to a folder as an .eml file."""

import asyncio
import logging
import uuid
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import aiosmtplib
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from .db import Database
from .logs import email_digest

if TYPE_CHECKING:
    from .settings import MailSettings

log = logging.getLogger("pinbid.mail")
MAX_ATTEMPTS = 10


def mask_address(address: str) -> str:
    """How a person is shown an address they may not own: 'm•••@example.com'."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}•••@{domain}"


async def enqueue(session: AsyncSession, to: str, subject: str, body: str) -> None:
    await session.execute(
        text("INSERT INTO mail_queue (to_address, subject, body) VALUES (:to, :subject, :body)"),
        {"to": to, "subject": subject, "body": body},
    )


def build_message(sender: str, to: str, subject: str, body: str, html: str | None = None) -> EmailMessage:
    """A plain-text message, or multipart/alternative (text first, then HTML) when `html` is given."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2].strip(">") or "pinbid.local")
    message.set_content(body)
    if html is not None:
        message.add_alternative(html, subtype="html")
    return message


class MailSender(Protocol):
    async def send(self, message: EmailMessage) -> None: ...


class FolderMailSender:
    """Writes each message to `folder` as one .eml file (the embedded default)."""

    def __init__(self, folder: Path):
        self.folder = folder

    async def send(self, message: EmailMessage) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
        to = email_digest(str(message["To"]))
        path = self.folder / f"{stamp}-{to}-{uuid.uuid4().hex[:6]}.eml"
        await asyncio.to_thread(_write_whole, path, bytes(message))
        log.info("mail to %s written to %s", to, path)


def _write_whole(path: Path, content: bytes) -> None:
    """The file appears with all its content or not at all: whoever reads the folder (a test, a person, a mail
    drop) never opens a message half written."""
    partial = path.with_name(f".{path.name}.part")
    partial.write_bytes(content)
    partial.replace(path)


class SmtpMailSender:
    def __init__(self, host: str, port: int, *, username: str | None, password: str | None, starttls: bool,
                 timeout: float = 10):
        self.host, self.port, self.username, self.password = host, port, username, password
        self.starttls, self.timeout = starttls, timeout

    async def send(self, message: EmailMessage) -> None:
        await aiosmtplib.send(message, hostname=self.host, port=self.port, username=self.username,
                              password=self.password, start_tls=self.starttls, timeout=self.timeout)


def sender_for(settings: "MailSettings") -> MailSender:
    if settings.smtp_host:
        return SmtpMailSender(settings.smtp_host, settings.smtp_port, username=settings.smtp_username,
                              password=settings.smtp_password, starttls=settings.smtp_starttls)
    return FolderMailSender(settings.mail_folder)


class MailWorker:
    """Sends due messages; safe with several replicas (rows are claimed with SKIP LOCKED)."""

    def __init__(self, db: Database, sender: MailSender, from_address: str):
        self.db, self.sender, self.from_address = db, sender, from_address

    async def run_once(self, batch: int = 20) -> int:
        sent = 0
        async with self.db.transaction() as session:
            rows = (await session.execute(text(
                "SELECT id, to_address, subject, body, attempts FROM mail_queue "
                "WHERE sent_at IS NULL AND attempts < :max AND next_attempt_at <= now() "
                "ORDER BY id LIMIT :n FOR UPDATE SKIP LOCKED"), {"max": MAX_ATTEMPTS, "n": batch})).all()
            for row in rows:
                try:
                    await self.sender.send(build_message(self.from_address, row.to_address, row.subject, row.body))
                except Exception as exc:
                    delay = timedelta(seconds=min(30 * 2**row.attempts, 3600))
                    # the error's text may quote the address (SMTP refusals do): only its kind is logged
                    log.warning("mail %s to %s failed (attempt %d): %s", row.id, email_digest(row.to_address),
                                row.attempts + 1, type(exc).__name__)
                    await session.execute(text(
                        "UPDATE mail_queue SET attempts = attempts + 1, next_attempt_at = now() + :d, "
                        "last_error = :e WHERE id = :id"), {"d": delay, "e": repr(exc)[:2000], "id": row.id})
                    continue
                await session.execute(text("UPDATE mail_queue SET sent_at = now(), body = '' WHERE id = :id"),
                                      {"id": row.id})
                sent += 1
        return sent
