"""Builds the social service: its HTTP app, event consumers and periodic jobs."""

from datetime import timedelta

from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from pinbid_kit.http import create_app
from pinbid_kit.inbox import Consumers
from pinbid_kit.revocations import keep_revocations
from pinbid_kit.runtime import Job, Service
from pinbid_kit.tokens import TokenVerifier
from sqlalchemy import text

from . import SERVICE, handlers
from .acceptance import BrandAcceptance
from .adapters import Providers, build_providers, link_reputation
from .api import ROUTERS
from .connections import Connections
from .decoding import Decoding
from .disputes import Disputes
from .evidence import CreatorEvidence
from .links import Links
from .models import token_revocations
from .pin_login import PinLogin
from .pins import Pins
from .queries import PinStates, Posts, TrustQueries
from .sandbox_api import router as sandbox_router
from .sandbox_owners import SandboxOwners
from .secrecy import sandbox_owner_key, state_key, visitor_key
from .settings import SocialSettings
from .tracker import PinTracker
from .trust_jobs import TrustJobs


def build(settings: SocialSettings | None = None, *, providers: Providers | None = None,
          clock: Clock = utcnow) -> Service:
    settings = settings or SocialSettings()
    verifier = TokenVerifier.from_file(settings.jwt_public_key_file)
    db = Database.from_settings(settings)
    providers = providers or build_providers(settings, db, clock=clock)
    box = settings.secret_box()
    connections = Connections(db, providers, box, state_key(settings), settings, clock)
    posts = Posts(db, connections, stale_after=timedelta(seconds=settings.posts_stale_seconds), clock=clock)
    interval = timedelta(seconds=settings.pin_sync_interval_seconds)
    objects = settings.objects()
    pins = Pins(db, providers, box, sync_interval=interval, clock=clock, objects=objects,
                acceptance=timedelta(hours=settings.acceptance_hours),
                recheck_answer=timedelta(hours=settings.recheck_answer_hours))
    dispute_answer = timedelta(hours=settings.dispute_answer_hours)
    trust_queries = TrustQueries(db, objects, clock=clock)
    trust_jobs = TrustJobs(db, providers, box, recheck_answer=timedelta(hours=settings.recheck_answer_hours),
                           dispute_answer=dispute_answer, clock=clock)
    tracker = PinTracker(db, providers, box, interval=interval, batch=settings.pin_sync_batch,
                         concurrency=settings.pin_sync_concurrency, clock=clock)
    consumers = Consumers(SERVICE, db)
    consumers.register_map(handlers.HANDLERS, handlers.Dependencies(pins))
    consumers.in_bursts(*handlers.IN_BURSTS, latest_of=handlers.LATEST_OF)
    service = Service(name=SERVICE, db=db, consumers=consumers, revocations=verifier.revocations,
                      load_revocations=keep_revocations(consumers, token_revocations, verifier.revocations))
    links = Links(db, visitor_key(settings), clock, link_reputation(settings))
    service.state = {"connections": connections, "posts": posts, "pins": pins, "tracker": tracker, "links": links,
                     "sandbox_owners": SandboxOwners(db, providers.name, sandbox_owner_key(settings), clock),
                     "pin_states": PinStates(db), "pin_login": PinLogin(db, providers, box, clock=clock),
                     "trust": trust_jobs, "trust_queries": trust_queries,
                     "acceptance": BrandAcceptance(db, dispute_answer=dispute_answer, clock=clock),
                     "evidence": CreatorEvidence(db, objects, clock=clock),
                     "disputes": Disputes(db, trust_queries, clock=clock),
                     "objects": objects, "providers": providers, "settings": settings,
                     "decoding": Decoding(settings.decodes_at_once)}
    routers = ROUTERS if providers.sandbox is None else [*ROUTERS, sandbox_router]
    service.app = create_app(SERVICE, routers=routers, checks=service.readiness_checks(),
                             state={**service.state, "sandbox": providers.sandbox, "verifier": verifier},
                             description="Instagram connection, posts and stats, comments, pinning and "
                                         "pinned-comment tracking.")
    service.jobs = [
        Job("pinned-comments", tracker.run_once, every_seconds=settings.pin_sync_every_seconds),
        Job("placement-trust", trust_jobs.run_once, every_seconds=settings.trust_every_seconds),
        Job("token-refresh", connections.refresh_tokens, every_seconds=3600),
        Job("housekeeping", lambda: housekeeping(db), every_seconds=3600),
    ]
    return service


async def housekeeping(db: Database) -> None:
    """Used OAuth nonces matter only until their state expires."""
    async with db.transaction() as session:
        await session.execute(text("DELETE FROM oauth_nonces WHERE expires_at < now() - interval '1 day'"))
        await session.execute(text("DELETE FROM sandbox_codes WHERE expires_at < now() - interval '1 day'"))
