"""Builds the content service: the blog (articles kept as files, synced into the database) and the newsletter."""

import asyncio

from pinbid_kit.db import Database
from pinbid_kit.http import create_app
from pinbid_kit.inbox import Consumers
from pinbid_kit.mail import MailSender, MailWorker, sender_for
from pinbid_kit.runtime import Job, Service

from . import SERVICE
from .api import ROUTERS
from .blog import Blog, SyncResult
from .library import read_folder
from .newsletter import Newsletter, housekeeping
from .queries import BlogQueries
from .settings import ContentSettings


def build(settings: ContentSettings | None = None, *, mailer: MailSender | None = None) -> Service:
    settings = settings or ContentSettings()
    db = Database.from_settings(settings)
    blog = Blog(db)
    newsletter = Newsletter(db, settings, settings.unsubscribe_key())
    consumers = Consumers(SERVICE, db)  # content consumes no events today
    service = Service(name=SERVICE, db=db, consumers=consumers)

    async def sync_articles() -> SyncResult:
        return await blog.sync(await asyncio.to_thread(read_folder, settings.articles_dir))

    service.state = {"blog": BlogQueries(db), "newsletter": newsletter, "sync_articles": sync_articles}
    service.app = create_app(SERVICE, routers=ROUTERS, checks=service.readiness_checks(), state=service.state,
                             description="The blog (articles kept as files) and the newsletter.")

    mail_worker = MailWorker(db, mailer or sender_for(settings), settings.mail_from)
    # The first run of "articles" is the start-up load; later runs pick up edited, added and removed files.
    service.jobs = [
        Job("articles", sync_articles, every_seconds=settings.articles_sync_seconds),
        Job("mail", mail_worker.run_once, every_seconds=1.0),
        Job("housekeeping", lambda: housekeeping(db), every_seconds=3600),
    ]
    return service
