"""Builds the marketplace service: its HTTP app, event consumers and the auction closer."""


from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from pinbid_kit.http import create_app
from pinbid_kit.inbox import Consumers
from pinbid_kit.revocations import keep_revocations
from pinbid_kit.runtime import Job, Service
from pinbid_kit.tokens import TokenVerifier

from . import handlers, open_counts
from .api import routes
from .approvals import Approvals
from .bidding import Bidding
from .closing import Closer
from .models import token_revocations
from .queries import Queries
from .rules import auction_rules
from .settings import MarketplaceSettings
from .slots import Slots

NAME = "marketplace"
SETTINGS = MarketplaceSettings


def build(settings: MarketplaceSettings | None = None, *, clock: Clock = utcnow) -> Service:
    settings = settings or MarketplaceSettings()
    db = Database.from_settings(settings)
    rules = auction_rules(settings)
    slots = Slots(db, settings, clock)
    bidding = Bidding(db, settings, rules, clock)
    closer = Closer(db, settings, rules, clock)
    approvals = Approvals(db, settings, clock)
    queries = Queries(db, clock)
    consumers = Consumers(NAME, db)
    verifier = TokenVerifier.from_file(settings.jwt_public_key_file)
    handlers.register(consumers, settings)
    service = Service(name=NAME, db=db, consumers=consumers, revocations=verifier.revocations,
                      load_revocations=keep_revocations(consumers, token_revocations, verifier.revocations))
    service.app = create_app(
        NAME, checks=service.readiness_checks(),
        routers=routes(verifier=verifier, slots=slots, bidding=bidding, closer=closer, approvals=approvals,
                       queries=queries, default_duration=settings.default_duration_days,
                       page_limit_max=settings.page_limit_max),
        description="Pin slots, bids, second-price proxy auctions and the creator's approvals.")
    service.jobs = [Job("closer", closer.run_once, every_seconds=settings.closer_interval_seconds),
                    Job("open-slot-counts", lambda: open_counts.fold(db),
                        every_seconds=settings.open_counts_fold_seconds)]
    service.state = {"slots": slots, "bidding": bidding, "closer": closer, "approvals": approvals,
                     "queries": queries, "settings": settings}
    return service
