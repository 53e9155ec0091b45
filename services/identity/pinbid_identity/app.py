"""Builds the identity service: its HTTP app, event consumers and periodic jobs."""

from datetime import timedelta

from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from pinbid_kit.http import create_app
from pinbid_kit.inbox import Consumers
from pinbid_kit.mail import MailSender, MailWorker, sender_for
from pinbid_kit.runtime import Job, Service
from pinbid_kit.tokens import TokenSigner, TokenVerifier, generate_keypair
from sqlalchemy import text

from . import SERVICE, handlers
from .accounts import Accounts, revoke_tokens
from .api import ROUTERS
from .domain.passkeys import relying_party
from .notice_mail import NoticeMailQueue, NoticeMailWorker
from .notifications import Notifications, Notifier
from .passkeys import Passkeys
from .password_resets import PasswordResets
from .passwords import Passwords
from .queries import OpsQueries
from .reminders import Reminders
from .second_factors import SecondFactors
from .settings import IdentitySettings
from .suspensions import Suspensions


def build(settings: IdentitySettings | None = None, *, mailer: MailSender | None = None,
          clock: Clock = utcnow) -> Service:
    settings = settings or IdentitySettings()
    generate_keypair(settings.jwt_private_key_file, settings.jwt_public_key_file)
    db = Database.from_settings(settings)
    signer = TokenSigner(settings.jwt_private_key_file.read_bytes(), ttl_seconds=settings.token_ttl_seconds)
    verifier = TokenVerifier.from_file(settings.jwt_public_key_file)
    passwords = Passwords(time_cost=settings.argon2_time_cost, memory_kib=settings.argon2_memory_kib,
                          parallelism=settings.argon2_parallelism)
    accounts = Accounts(db, settings, signer, passwords, settings.secret_box(), clock)
    second_factors = SecondFactors(db, settings.secret_box(), passwords, accounts.failed_logins, settings.totp_issuer,
                                   accounts.token, revoke_tokens, clock)
    passkeys = Passkeys(db, relying_party(settings.public_url), accounts.token, accounts.signed_in, clock)
    notifications = Notifications(db)
    notifier = Notifier(NoticeMailQueue(settings.public_url, timedelta(seconds=settings.notice_mail_coalesce_seconds),
                                        clock))
    suspensions = Suspensions(db, notifier, clock)
    ops_queries = OpsQueries(db)
    consumers = Consumers(SERVICE, db)
    consumers.register_map(handlers.HANDLERS, handlers.Dependencies(notifier, clock))
    consumers.in_bursts(*handlers.IN_BURSTS, together=handlers.TOGETHER)
    service = Service(name=SERVICE, db=db, consumers=consumers, revocations=verifier.revocations,
                      load_revocations=lambda: accounts.load_revocations(verifier.revocations))
    service.app = create_app(SERVICE, routers=ROUTERS, checks=service.readiness_checks(),
                             state={"accounts": accounts, "password_resets": PasswordResets(db, settings, passwords),
                                    "notifications": notifications, "suspensions": suspensions,
                                    "ops_queries": ops_queries, "verifier": verifier,
                                    "second_factors": second_factors, "passkeys": passkeys},
                             description="Users, sessions, password reset, notifications, operators' audit.")
    sender = mailer or sender_for(settings)
    mail_worker = MailWorker(db, sender, settings.mail_from)
    notice_mail_worker = NoticeMailWorker(db, sender, settings.mail_from, clock)
    reminders = Reminders(db, notifier, clock)
    service.jobs = [
        Job("mail", mail_worker.run_once, every_seconds=1.0),
        Job("notice-mail", notice_mail_worker.run_once, every_seconds=1.0),
        Job("reminders", reminders.run_once, every_seconds=settings.reminders_every_seconds),
        Job("housekeeping", lambda: housekeeping(db), every_seconds=3600),
    ]
    service.state = {"accounts": accounts, "notifications": notifications, "reminders": reminders,
                     "suspensions": suspensions,
                     "notice_mail": notice_mail_worker}
    return service


async def housekeeping(db: Database) -> None:
    """Forget throttle windows and reset links that can no longer matter."""
    async with db.transaction() as session:
        await session.execute(text("DELETE FROM login_throttle WHERE window_start < now() - interval '1 day'"))
        await session.execute(text("DELETE FROM password_resets WHERE expires_at < now() - interval '1 day'"))
        await session.execute(text("DELETE FROM webauthn_challenges WHERE expires_at < now()"))
        # sent notice mails matter only to the coalescing window (minutes); reminders only until their window
        await session.execute(text("DELETE FROM notice_mails WHERE sent_at < now() - interval '1 day'"))
        await session.execute(text("DELETE FROM reminders WHERE coalesce(closes_at, cancelled_at) "
                                   "< now() - interval '30 days'"))
