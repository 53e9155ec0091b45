"""The Instagram adapters behind the ports (the sandbox simulator, the Graph API, instagrapi's pinning), and which
of them this service talks to, chosen from its settings: the sandbox (default) or the real providers."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from pinbid_kit.clock import utcnow
from pinbid_kit.db import Database

from ..ports import InstagramApi, LinkReputation, Pinning
from ..settings import SocialSettings
from .deny_list import DenyList
from .instagram_graph import InstagramGraph
from .sandbox import SandboxInstagram
from .web_risk import WebRisk


@dataclass
class Providers:
    api: InstagramApi
    pinning: Pinning
    redirect_uri: str
    sandbox: SandboxInstagram | None = None

    @property
    def name(self) -> str:
        return "sandbox" if self.sandbox else "instagram"


def build_providers(settings: SocialSettings, db: Database, *, clock: Callable[[], datetime] = utcnow) -> Providers:
    redirect_uri = f"{settings.public_url.rstrip('/')}/api/instagram/callback"
    if settings.instagram_mode == "real":
        # instagrapi is imported only here: the package takes as long to import as the rest of the service
        from .instagrapi_pinning import InstagrapiPinning

        api = InstagramGraph(app_id=settings.instagram_app_id, app_secret=settings.instagram_app_secret,
                             authorize_url=settings.instagram_authorize_url, api_url=settings.instagram_api_url,
                             graph_url=settings.instagram_graph_url, version=settings.instagram_graph_version,
                             timeout=settings.provider_timeout_seconds)
        pinning = InstagrapiPinning(timeout=settings.provider_timeout_seconds,
                                    delay=settings.instagrapi_delay_seconds)
        return Providers(api=api, pinning=pinning, redirect_uri=redirect_uri)
    sandbox = SandboxInstagram(db, public_url=settings.public_url, seed=settings.sandbox_seed,
                               posts_per_account=settings.sandbox_posts_per_account, clock=clock)
    return Providers(api=sandbox, pinning=sandbox, redirect_uri=redirect_uri, sandbox=sandbox)


def link_reputation(settings: SocialSettings) -> LinkReputation:
    """Google Web Risk when a key is set, else the local deny list."""
    if settings.web_risk_key:
        return WebRisk(key=settings.web_risk_key, base_url=settings.web_risk_url,
                       timeout=settings.provider_timeout_seconds)
    return DenyList(Path(settings.link_deny_list_file) if settings.link_deny_list_file else None)
