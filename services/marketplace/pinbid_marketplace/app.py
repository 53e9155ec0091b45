"""Builds the marketplace service: its HTTP app, event consumers and the auction closer."""


from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from pinbid_kit.http import create_app
from pinbid_kit.inbox import Consumers
from pinbid_kit.revocations import keep_revocations
from pinbid_kit.runtime import Job, Service
from pinbid_kit.tokens import TokenVerifier

from . import SERVICE, handlers, open_counts
from .api import ROUTERS
from .approvals import Approvals
from .asking import Asking
from .bidding import Bidding
from .campaign_bidding import CampaignBidding
from .campaigns import Campaigns
from .closing import Closer
from .flags import Flags
from .meaning_index import MeaningIndex
from .models import token_revocations
from .offer_ends import OfferLapses
from .queries import Queries
from .rules import auction_rules
from .second_chance import SecondChance
from .settings import MarketplaceSettings
from .slots import Slots


def build(settings: MarketplaceSettings | None = None, *, clock: Clock = utcnow) -> Service:
    settings = settings or MarketplaceSettings()
    db = Database.from_settings(settings)
    rules = auction_rules(settings)
    index = MeaningIndex(db)
    slots = Slots(db, settings, clock, index)
    bidding = Bidding(db, settings, rules, clock)
    closer = Closer(db, settings, rules, clock)
    approvals = Approvals(db, settings, clock)
    queries = Queries(db, clock, settings.listing_count_cap)
    asking = Asking(queries, index)
    flags = Flags(db, clock)
    second_chance = SecondChance(db, settings, clock)
    campaigns = Campaigns(db, settings, clock)
    campaign_bidding = CampaignBidding(db, settings, bidding, clock)
    consumers = Consumers(SERVICE, db)
    verifier = TokenVerifier.from_file(settings.jwt_public_key_file)
    consumers.register_map(handlers.HANDLERS, handlers.Dependencies(settings, clock, campaign_bidding=campaign_bidding,
                                                                       second_chance=second_chance))
    service = Service(name=SERVICE, db=db, consumers=consumers, revocations=verifier.revocations,
                      load_revocations=keep_revocations(consumers, token_revocations, verifier.revocations))
    service.state = {"slots": slots, "bidding": bidding, "closer": closer, "approvals": approvals,
                     "queries": queries, "settings": settings, "flags": flags, "asking": asking,
                     "second_chance": second_chance, "campaigns": campaigns, "campaign_bidding": campaign_bidding}
    service.app = create_app(
        SERVICE, checks=service.readiness_checks(), routers=ROUTERS, state={**service.state, "verifier": verifier},
        description="Pin slots, bids, second-price proxy auctions and the creator's approvals.")
    service.jobs = [Job("closer", closer.run_once, every_seconds=settings.closer_interval_seconds),
                    Job("open-slot-counts", lambda: open_counts.fold(db),
                        every_seconds=settings.open_counts_fold_seconds),
                    Job("meaning-index", index.catch_up, every_seconds=settings.meaning_index_seconds),
                    Job("second-chance-lapses", OfferLapses(db, settings, clock).run_once,
                        every_seconds=settings.offer_lapse_interval_seconds),
                    Job("campaign-clock", campaign_bidding.run_clock, every_seconds=settings.campaign_clock_seconds)]
    return service
