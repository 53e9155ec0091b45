"""Notices by mail: rendered from Jinja2 templates (HTML and plain text), queued in `notice_mails` with
bursts coalesced, and sent by a job through the kit's sender (SMTP, or .eml files in the embedded run)."""

import logging
import uuid
from dataclasses import dataclass
from datetime import timedelta

from jinja2 import Environment, PackageLoader, select_autoescape
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.logs import email_digest
from pinbid_kit.mail import MAX_ATTEMPTS, MailSender, build_message
from sqlalchemy import Row, func, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from .domain.notices import SETTINGS, Category, Notice, mail_send_after
from .models import NoticeMail

log = logging.getLogger("pinbid.identity.notice_mail")
_templates = Environment(loader=PackageLoader("pinbid_identity", "mail_templates"),
                         autoescape=select_autoescape(["html"]), keep_trailing_newline=True)


def render(notice: Notice, name: str, public_url: str, also: int = 0) -> tuple[str, str]:
    """The plain-text and HTML bodies; `also` is how many earlier notices this mail replaces."""
    base = public_url.rstrip("/")
    values = {"title": notice.title, "message": notice.message, "name": name, "action": notice.action,
              "link": base + notice.link, "preferences_link": base + SETTINGS, "also": also}
    return _templates.get_template("notice.txt").render(values), _templates.get_template("notice.html").render(values)


@dataclass(frozen=True)
class Recipient:
    """What a notice needs of its user: the mail's address and greeting, and whether to mail at all."""
    id: uuid.UUID
    name: str
    email: str
    is_demo: bool
    preferences: dict[Category, bool]


class NoticeMailQueue:
    def __init__(self, public_url: str, coalesce_window: timedelta, clock: Clock):
        self.public_url, self.window, self.clock = public_url, coalesce_window, clock

    async def add_all(self, session: AsyncSession, mails: list[tuple[Notice, Recipient, uuid.UUID]]) -> None:
        """Queue each notice's mail (notice, its user, its topic), or fold it into the mail of the same kind and
        topic still waiting; the notices of one (user, kind, topic) in turn, as one fold. Runs in the notices'
        transaction."""
        groups: dict[tuple[uuid.UUID, str, uuid.UUID], list[Notice]] = {}
        recipients: dict[uuid.UUID, Recipient] = {}
        for notice, recipient, topic in mails:
            groups.setdefault((recipient.id, notice.kind, topic), []).append(notice)
            recipients[recipient.id] = recipient
        for (user_id, _, topic), notices in groups.items():
            await self._add(session, notices, recipients[user_id], topic)

    async def _add(self, session: AsyncSession, notices: list[Notice], recipient: Recipient,
                   topic: uuid.UUID) -> None:
        """Notices of one kind and topic to one user: the mail says the last and how many came before it."""
        key = (NoticeMail.user_id == recipient.id, NoticeMail.kind == notices[0].kind, NoticeMail.topic == topic)
        pending = select(NoticeMail.id, NoticeMail.notices).where(*key, NoticeMail.sent_at.is_(None)).with_for_update()
        # A burst's later notices find its mail waiting and hold its row: no other writer can fold into it or send
        # it meanwhile (a mail being sent is waited for, then no longer pending).
        if (waiting := (await session.execute(pending)).first()) is not None:
            await self._fold(session, waiting, notices, recipient)
            return
        # Opening a mail: one writer per (user, kind, topic) at a time, so two notices of a burst handled at once
        # cannot both open one; the one that waited finds the other's mail.
        await session.execute(text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))"),
                              {"key": f"notice-mail:{recipient.id}:{notices[0].kind}:{topic}"})
        if (waiting := (await session.execute(pending)).first()) is not None:
            await self._fold(session, waiting, notices, recipient)
            return
        previous = await session.scalar(select(func.max(NoticeMail.send_after)).where(*key))
        last = notices[-1]
        text_body, html_body = render(last, recipient.name, self.public_url, len(notices) - 1)
        send_after = mail_send_after(self.clock(), previous, self.window)
        session.add(NoticeMail(user_id=recipient.id, kind=last.kind, topic=topic, to_address=recipient.email,
                               subject=last.title, text_body=text_body, html_body=html_body, notices=len(notices),
                               send_after=send_after, next_attempt_at=send_after))

    async def _fold(self, session: AsyncSession, pending: Row, notices: list[Notice], recipient: Recipient) -> None:
        last = notices[-1]
        text_body, html_body = render(last, recipient.name, self.public_url, pending.notices + len(notices) - 1)
        await session.execute(update(NoticeMail).where(NoticeMail.id == pending.id).values(
            text_body=text_body, html_body=html_body, subject=last.title, notices=pending.notices + len(notices)))


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
