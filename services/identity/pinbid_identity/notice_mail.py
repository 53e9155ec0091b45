"""Notices by mail: rendered from Jinja2 templates (HTML and plain text), queued in `notice_mails` with
bursts coalesced, and sent by a job through the kit's sender (SMTP, or .eml files in the embedded run)."""

import logging
import uuid
from datetime import timedelta

from jinja2 import Environment, PackageLoader, select_autoescape
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.logs import email_digest
from pinbid_kit.mail import MAX_ATTEMPTS, MailSender, build_message
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from .domain.notices import SETTINGS, Notice, mail_send_after
from .models import NoticeMail, User

log = logging.getLogger("pinbid.identity.notice_mail")
_templates = Environment(loader=PackageLoader("pinbid_identity", "mail_templates"),
                         autoescape=select_autoescape(["html"]), keep_trailing_newline=True)


def render(notice: Notice, name: str, public_url: str, also: int = 0) -> tuple[str, str]:
    """The plain-text and HTML bodies; `also` is how many earlier notices this mail replaces."""
    base = public_url.rstrip("/")
    values = {"title": notice.title, "message": notice.message, "name": name, "action": notice.action,
              "link": base + notice.link, "preferences_link": base + SETTINGS, "also": also}
    return _templates.get_template("notice.txt").render(values), _templates.get_template("notice.html").render(values)


class NoticeMailQueue:
    def __init__(self, public_url: str, coalesce_window: timedelta, clock: Clock):
        self.public_url, self.window, self.clock = public_url, coalesce_window, clock

    async def add(self, session: AsyncSession, notice: Notice, user: User, topic: uuid.UUID) -> None:
        """Queue the notice's mail, or fold it into the mail of the same kind and topic still waiting.
        Runs in the notice's transaction."""
        key = (NoticeMail.user_id == user.id, NoticeMail.kind == notice.kind, NoticeMail.topic == topic)
        pending = select(NoticeMail).where(*key, NoticeMail.sent_at.is_(None)).with_for_update()
        # A burst's later notices find its mail waiting and hold its row: no other writer can fold into it or send
        # it meanwhile (a mail being sent is waited for, then no longer pending).
        if (waiting := await session.scalar(pending)) is not None:
            self._fold(waiting, notice, user)
            return
        # Opening a mail: one writer per (user, kind, topic) at a time, so two notices of a burst handled at once
        # cannot both open one; the one that waited finds the other's mail.
        await session.execute(text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))"),
                              {"key": f"notice-mail:{user.id}:{notice.kind}:{topic}"})
        if (waiting := await session.scalar(pending)) is not None:
            self._fold(waiting, notice, user)
            return
        previous = await session.scalar(select(func.max(NoticeMail.send_after)).where(*key))
        text_body, html_body = render(notice, user.name, self.public_url)
        send_after = mail_send_after(self.clock(), previous, self.window)
        session.add(NoticeMail(user_id=user.id, kind=notice.kind, topic=topic, to_address=user.email,
                               subject=notice.title, text_body=text_body, html_body=html_body, notices=1,
                               send_after=send_after, next_attempt_at=send_after))

    def _fold(self, pending: NoticeMail, notice: Notice, user: User) -> None:
        pending.text_body, pending.html_body = render(notice, user.name, self.public_url, pending.notices)
        pending.subject = notice.title
        pending.notices += 1


class NoticeMailWorker:
    """Sends the due notice mails; safe with several replicas (rows claimed with SKIP LOCKED)."""

    def __init__(self, db: Database, sender: MailSender, from_address: str, clock: Clock):
        self.db, self.sender, self.from_address, self.clock = db, sender, from_address, clock

    async def run_once(self, batch: int = 20) -> int:
        sent = 0
        async with self.db.transaction() as session:
            now = self.clock()
            rows = await session.scalars(
                select(NoticeMail).where(NoticeMail.sent_at.is_(None), NoticeMail.next_attempt_at <= now,
                                         NoticeMail.attempts < MAX_ATTEMPTS)
                .order_by(NoticeMail.id).limit(batch).with_for_update(skip_locked=True))
            for row in rows:
                message = build_message(self.from_address, row.to_address, row.subject, row.text_body, row.html_body)
                try:
                    await self.sender.send(message)
                except Exception as exc:
                    # the error's text may quote the address (SMTP refusals do): only its kind is logged
                    log.warning("notice mail %s to %s failed (attempt %d): %s", row.id, email_digest(row.to_address),
                                row.attempts + 1, type(exc).__name__)
                    row.attempts += 1
                    row.next_attempt_at = now + timedelta(seconds=min(30 * 2**row.attempts, 3600))
                    row.last_error = repr(exc)[:2000]
                    continue
                row.sent_at = now
                row.text_body = row.html_body = ""
                sent += 1
        return sent
