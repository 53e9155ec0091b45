"""A campaign's money (issue 36): the campaign as marketplace announces it, `POST /buyer/campaigns/{id}/fund`
(the budget not funded yet, through Checkout), a campaign's approved win drawn from the balance, and the rest
returned when marketplace settles the campaign. The movements themselves are in campaign_money.py; the
funding's webhooks in webhooks.py."""

import logging
import uuid
from datetime import timedelta

from pinbid_kit import outbox
from pinbid_kit.clock import Clock, utcnow
from pinbid_kit.db import Database
from pinbid_kit.errors import Conflict, NotFound
from pinbid_kit.events import EventData
from pinbid_kit.events.campaigns import CampaignSettled, CampaignUpdated
from pinbid_kit.events.marketplace import BidApproved
from pinbid_kit.tokens import Principal
from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, campaign_money
from .checkout import REUSE_MARGIN, Checkout
from .domain.campaigns import CampaignClosed, NothingToFund, to_fund
from .domain.money import split
from .models import Campaign, CampaignFunding, User
from .ports import CheckoutOrder, CheckoutProvider
from .settings import PaymentsSettings

log = logging.getLogger("pinbid.payments.campaigns")
# Unknown and "not arrived yet" look the same here (the campaign travels as an event): one 404 that says both.
NOT_FOUND = "This campaign was not found. If you have just created it, try again in a moment."
FUNDING_WINDOW = timedelta(hours=1)  # a funding checkout's life (Stripe keeps a session 30 minutes to 24 hours)


class Campaigns:
    def __init__(self, db: Database, settings: PaymentsSettings, provider: CheckoutProvider, checkout: Checkout,
                 clock: Clock = utcnow):
        self.db = db
        self.settings = settings
        self.provider = provider
        self.checkout = checkout  # shares its provider calls in flight (one per idempotency key)
        self.clock = clock
        self.pin_deadline = timedelta(days=settings.pin_deadline_days)

    # --- the brand ------------------------------------------------------------------------
    async def fund(self, principal: Principal, campaign_id: uuid.UUID) -> str:
        """The checkout URL for the budget not funded yet. Racing calls find the same OPEN funding (created under
        the campaign's row lock), hence the same idempotency key: the provider opens one session, and every
        caller gets its URL. No lock is held while the provider is called."""
        async with self.db.transaction() as session:
            campaign = await session.get(Campaign, campaign_id, with_for_update=True)
            if campaign is None or campaign.buyer_id != principal.user_id:
                raise NotFound(NOT_FOUND, code="campaign_not_found")
            try:
                cents = to_fund(status=campaign.status, settled=campaign.settled_at is not None,
                                budget_cents=campaign.budget_cents, funded_cents=campaign.funded_cents)
            except CampaignClosed as closed:
                raise Conflict(str(closed), code="campaign_ended") from None
            except NothingToFund as funded:
                raise Conflict(str(funded), code="nothing_to_fund") from None
            now = self.clock()
            # sessions past their end can no longer be paid (Stripe refuses them): said so, for whoever reads them
            await session.execute(update(CampaignFunding).where(
                CampaignFunding.campaign_id == campaign.id, CampaignFunding.status == "OPEN",
                CampaignFunding.expires_at <= now).values(status="EXPIRED"))
            funding = await session.scalar(
                select(CampaignFunding).where(CampaignFunding.campaign_id == campaign.id,
                                              CampaignFunding.status == "OPEN",
                                              CampaignFunding.amount_cents == cents,
                                              CampaignFunding.expires_at > now + REUSE_MARGIN)
                .order_by(CampaignFunding.created_at.desc()).limit(1))
            if funding is not None and funding.url is not None:
                return funding.url
            if funding is None:
                funding = CampaignFunding(id=uuid.uuid4(), campaign_id=campaign.id, buyer_id=campaign.buyer_id,
                                          amount_cents=cents, currency=campaign.currency, status="OPEN",
                                          expires_at=now + FUNDING_WINDOW)
                session.add(funding)
            email = await session.scalar(select(User.email).where(User.id == campaign.buyer_id))
            order = CheckoutOrder(
                payment_id=funding.id, bid_id=None, campaign_id=campaign.id,
                title=f"Campaign budget: {campaign.name}", price_cents=cents, buyer_fee_cents=0,
                currency=campaign.currency, customer_email=email,
                success_url=self.settings.browser_url(f"/campaigns/{campaign.id}?funding=success"),
                cancel_url=self.settings.browser_url(f"/campaigns/{campaign.id}?funding=cancelled"),
                expires_at=funding.expires_at, idempotency_key=f"campaign-funding-{funding.id}")
        opened = await self.checkout.open_session(order)
        async with self.db.transaction() as session:
            await session.execute(update(CampaignFunding).where(
                CampaignFunding.id == order.payment_id, CampaignFunding.provider_session_id.is_(None))
                .values(provider_session_id=opened.session_id, url=opened.url, expires_at=opened.expires_at))
            return await session.scalar(select(CampaignFunding.url).where(CampaignFunding.id == order.payment_id))

    async def fundings_opened(self, campaign_id: uuid.UUID) -> int:
        async with self.db.transaction() as session:
            return await session.scalar(select(func.count()).where(CampaignFunding.campaign_id == campaign_id))

    # --- marketplace's events -------------------------------------------------------------
    async def remember(self, session: AsyncSession, updated: CampaignUpdated) -> None:
        """Keep the campaign as of its highest version (events may arrive out of order)."""
        values = {"buyer_id": updated.buyer_id, "name": updated.name, "status": updated.status,
                  "budget_cents": updated.budget_cents, "currency": updated.currency.upper(),
                  "version": updated.version}
        await session.execute(insert(Campaign).values(id=updated.campaign_id, **values).on_conflict_do_update(
            index_elements=["id"], set_={**values, "updated_at": func.now()},
            where=Campaign.version < insert(Campaign).excluded.version))

    async def approved(self, session: AsyncSession, events: list[EventData], approved: BidApproved) -> bool:
        """A campaign's win approved: drawn from its balance when it covers the price (True); False when the
        caller is to open an ordinary payment request instead. No buyer fee on a draw (nor on the funding):
        marketplace reserves the budget in final prices, so a fee on top would take the wins past the budget
        (docs/decisions/payments-and-ledger.md)."""
        money = split(approved.final_price_cents, fee_percent=self.settings.platform_fee_percent)
        return await campaign_money.draw(session, events, approved, money, now=self.clock(),
                                         pin_deadline=self.pin_deadline)

    async def return_due(self, limit: int = 20) -> int:
        """A job: the campaigns whose return the provider refused in part, their rest tried again (one campaign a
        transaction, its row locked; other replicas skip it)."""
        done = 0
        for _ in range(limit):
            async with self.db.transaction() as session:
                campaign = await session.scalar(
                    select(Campaign).where(Campaign.return_next_at <= self.clock())
                    .order_by(Campaign.return_next_at).limit(1).with_for_update(skip_locked=True))
                if campaign is None:
                    break
                events: list[EventData] = []
                await campaign_money.give_back(
                    session, events, campaign, self.provider, now=self.clock(),
                    key=f"campaign-returned-{campaign.id}-{campaign.returned_cents}")
                await outbox.publish_all(session, events, source=SERVICE)
                done += 1
        return done

    async def settled(self, session: AsyncSession, events: list[EventData], settled: CampaignSettled) -> str:
        campaign = await campaign_money.locked(session, settled.campaign_id)
        if campaign is None:
            log.warning("campaign %s settled, never heard of here: nothing to return", settled.campaign_id)
            return "ignored: unknown campaign"
        return await campaign_money.settle(session, events, campaign, spent_cents=settled.spent_cents,
                                           now=self.clock(), provider=self.provider)
