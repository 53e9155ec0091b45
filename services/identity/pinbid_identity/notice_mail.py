"""Notices by mail: rendered from Jinja2 templates (HTML and plain text), queued in `notice_mails` with
bursts coalesced, and sent by a job through the kit's sender (SMTP, or .eml files in the embedded run)."""

import logging
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import NamedTuple

from jinja2 import Environment, PackageLoader, select_autoescape
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.logs import email_digest
from pinbid_kit.mail import MAX_ATTEMPTS, MailSender, build_message
from sqlalchemy import select, text
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


class MailKey(NamedTuple):
    """The mails of one user, kind and topic wait as one."""
    user_id: uuid.UUID
    kind: str
    topic: uuid.UUID


class NoticeMailQueue:
    def __init__(self, public_url: str, coalesce_window: timedelta, clock: Clock):
        self.public_url, self.window, self.clock = public_url, coalesce_window, clock

    async def add_all(self, session: AsyncSession, mails: list[tuple[Notice, Recipient, uuid.UUID]]) -> None:
        """Queue each notice's mail (notice, its user, its topic), or fold it into the mail of the same kind and
        topic still waiting; the notices of one (user, kind, topic) in turn, as one fold. Runs in the notices'
        transaction: the waiting mails found and folded in one statement each, whatever their number, and the new
        ones opened with three more."""
        groups: dict[MailKey, list[Notice]] = {}
        recipients: dict[uuid.UUID, Recipient] = {}
        for notice, recipient, topic in mails:
            groups.setdefault(MailKey(recipient.id, notice.kind, topic), []).append(notice)
            recipients[recipient.id] = recipient
        if not groups:
            return
        # A burst's later notices find its mail waiting and hold its row: no other writer can fold into it or send
        # it meanwhile (a mail being sent is waited for, then no longer pending).
        waiting = await _pending(session, list(groups))
        if new := [key for key in groups if key not in waiting]:
            waiting |= await self._open_all(session, {key: groups[key] for key in new}, recipients)
        if waiting:
            folds = [self._folded(mail_id, notices_before, groups[key], recipients[key.user_id])
                     for key, (mail_id, notices_before) in waiting.items()]
            await session.execute(_FOLD, {column: [fold[column] for fold in folds]
                                          for column in ("id", "subject", "text_body", "html_body", "notices")})

    async def _open_all(self, session: AsyncSession, groups: dict[MailKey, list[Notice]],
                        recipients: dict[uuid.UUID, Recipient]) -> dict[MailKey, tuple[int, int]]:
        """New mails for the keys none waited for, each saying its last notice; the mails other writers opened for
        some of them meanwhile are answered instead (id and count, to fold into)."""
        # One writer per (user, kind, topic) at a time, so two notices handled at once cannot both open a mail;
        # the one that waited finds the other's mail. The locks in one order: two bursts never wait in a cycle.
        await session.execute(_LOCK_KEYS, {"keys": sorted(_lock_key(key) for key in groups)})
        opened_meanwhile = await _pending(session, list(groups))
        keys = [key for key in groups if key not in opened_meanwhile]
        previous = {MailKey(row.user_id, row.kind, row.topic): row.send_after
                    for row in await session.execute(_PREVIOUS, _key_columns(keys))} if keys else {}
        for key in keys:
            last, recipient = groups[key][-1], recipients[key.user_id]
            text_body, html_body = render(last, recipient.name, self.public_url, len(groups[key]) - 1)
            send_after = mail_send_after(self.clock(), previous.get(key), self.window)
            session.add(NoticeMail(user_id=key.user_id, kind=key.kind, topic=key.topic, to_address=recipient.email,
                                   subject=last.title, text_body=text_body, html_body=html_body,
                                   notices=len(groups[key]), send_after=send_after, next_attempt_at=send_after))
        return opened_meanwhile

    def _folded(self, mail_id: int, notices_before: int, notices: list[Notice], recipient: Recipient) -> dict:
        """A waiting mail's new content: it says the last notice and how many came before it."""
        last = notices[-1]
        text_body, html_body = render(last, recipient.name, self.public_url, notices_before + len(notices) - 1)
        return {"id": mail_id, "subject": last.title, "text_body": text_body, "html_body": html_body,
                "notices": notices_before + len(notices)}


_KEYS = "unnest(CAST(:user_id AS uuid[]), CAST(:kind AS text[]), CAST(:topic AS uuid[])) AS k(user_id, kind, topic)"
# locked in one order (their ids), so two writers folding into the same mails never wait for each other in a cycle
_PENDING = text(
    f"SELECT m.id, m.user_id, m.kind, m.topic, m.notices FROM notice_mails AS m JOIN {_KEYS} "
    "ON m.user_id = k.user_id AND m.kind = k.kind AND m.topic = k.topic "
    "WHERE m.sent_at IS NULL ORDER BY m.id FOR UPDATE OF m"
)
_FOLD = text(
    "UPDATE notice_mails AS m SET subject = f.subject, text_body = f.text_body, html_body = f.html_body, "
    "notices = f.notices FROM unnest(CAST(:id AS bigint[]), CAST(:subject AS text[]), CAST(:text_body AS text[]), "
    "CAST(:html_body AS text[]), CAST(:notices AS int[])) AS f(id, subject, text_body, html_body, notices) "
    "WHERE m.id = f.id"
)


_PREVIOUS = text(
    f"SELECT k.user_id, k.kind, k.topic, max(m.send_after) AS send_after FROM {_KEYS} JOIN notice_mails AS m "
    "ON m.user_id = k.user_id AND m.kind = k.kind AND m.topic = k.topic GROUP BY k.user_id, k.kind, k.topic"
)
# in the array's order (sorted by the caller)
_LOCK_KEYS = text("SELECT pg_advisory_xact_lock(hashtextextended(key, 0)) FROM unnest(CAST(:keys AS text[])) AS key")


def _lock_key(key: MailKey) -> str:
    return f"notice-mail:{key.user_id}:{key.kind}:{key.topic}"


def _key_columns(keys: list[MailKey]) -> dict[str, list]:
    return {"user_id": [k.user_id for k in keys], "kind": [k.kind for k in keys], "topic": [k.topic for k in keys]}


async def _pending(session: AsyncSession, keys: list[MailKey]) -> dict[MailKey, tuple[int, int]]:
    """The waiting mail of each key that has one (its id and how many notices it stands for), its row held."""
    rows = await session.execute(_PENDING, _key_columns(keys))
    return {MailKey(row.user_id, row.kind, row.topic): (row.id, row.notices) for row in rows}


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
