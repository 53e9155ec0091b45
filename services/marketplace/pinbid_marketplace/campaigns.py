"""The brand's campaigns (issue 36): create, read, edit, pause, resume, end; and what every change of a campaign
writes (its version, `marketplace.campaign.updated.v1`, and `settled` once nothing is left committed). A change
locks the campaign's row: two edits at once are applied one after the other, and the bidding (campaign_bidding.py)
never reserves against a budget being lowered."""

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from pinbid_kit import outbox
from pinbid_kit.clock import Clock
from pinbid_kit.db import Database
from pinbid_kit.errors import NotFound
from pinbid_kit.events import EventData
from pinbid_kit.events import campaigns as ce
from pinbid_kit.product_rules import TIME_LEFT_HOURS
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncSession

from . import SERVICE, queries
from .domain import campaigns as rules
from .domain.ask import Ignored, understand
from .domain.campaigns import LIVE_STATUSES, PAID_STATUSES, WIN_STATUSES, CampaignStatus, Figures, Filters, Life, Terms
from .domain.money import to_cents
from .models import Campaign
from .rules import as_api_errors
from .settings import MarketplaceSettings

CAMPAIGN_NOT_FOUND = "Campaign not found."


def _in(values: tuple[str, ...]) -> str:
    return "(" + ", ".join(f"'{v}'" for v in values) + ")"


# committed: the ceilings of the live bids plus the final prices of the wins that stand, less what came back of them
# (a win refunded in full does not stand); spent: what the paid wins cost, less what was refunded. A paid win is in
# both alike, so what is outstanding (committed - spent) is the live bids and the wins not paid yet
_FIGURES = text(f"""
    SELECT campaign_id,
        coalesce(sum(ceiling) FILTER (WHERE status IN {_in(LIVE_STATUSES)}), 0)
          + coalesce(sum(final_price - refunded) FILTER (WHERE status IN {_in(WIN_STATUSES)}
                                              AND payment_status IS DISTINCT FROM 'REFUNDED'), 0) AS committed,
        coalesce(sum(final_price - refunded) FILTER (WHERE status IN {_in(PAID_STATUSES)}), 0) AS spent,
        count(*) FILTER (WHERE status IN {_in(LIVE_STATUSES)}) AS bidding,
        count(*) FILTER (WHERE status = 'ACTIVE') AS leading,
        count(*) FILTER (WHERE status = 'OUTBID') AS outbid,
        count(*) FILTER (WHERE status IN {_in(WIN_STATUSES)} AND payment_status IS DISTINCT FROM 'REFUNDED') AS won,
        count(*) FILTER (WHERE status = 'PINNED') AS pinned
    FROM bids WHERE campaign_id = ANY(:ids) GROUP BY campaign_id""")


async def figures_of(session: AsyncSession, ids: list[uuid.UUID]) -> dict[uuid.UUID, Figures]:
    """Counted from the bids themselves (docs/decisions/campaigns.md): a campaign without bids has zeros."""
    found = {i: Figures() for i in ids}
    for row in (await session.execute(_FIGURES, {"ids": ids})).all():
        found[row.campaign_id] = Figures(
            committed=Decimal(row.committed).quantize(Decimal("0.01")),
            spent=Decimal(row.spent).quantize(Decimal("0.01")),
            counts={k: getattr(row, k) for k in rules.COUNTS})
    return found


def outstanding(figures: Figures) -> Decimal:
    """What is still reserved and not paid: the live bids and the wins waiting for approval or payment."""
    return figures.committed - figures.spent


def available(row: Campaign, figures: Figures) -> Decimal:
    return max(Decimal("0.00"), rules.limit(row.budget, row.funded) - figures.committed)


def life_of(row: Campaign) -> Life:
    return Life(status=CampaignStatus(row.status), reason=row.reason, funded=row.funded, starts_at=row.starts_at,
                ends_at=row.ends_at)


def store_life(row: Campaign, life: Life) -> None:
    row.status, row.reason, row.funded = life.status.value, life.reason, life.funded


def campaign_updated(row: Campaign, figures: Figures, currency: str) -> ce.CampaignUpdated:
    return ce.CampaignUpdated(campaign_id=row.id, buyer_id=row.buyer_id, name=row.name, status=row.status,
                              budget_cents=to_cents(row.budget), committed_cents=to_cents(figures.committed),
                              spent_cents=to_cents(figures.spent), currency=currency, version=row.version,
                              reason=row.reason)


def changed(row: Campaign, figures: Figures, now: datetime, currency: str) -> list[EventData]:
    """What every change of a campaign (its row locked by the caller) writes: a new version and its `updated`; and
    once, when it has ended with nothing outstanding, `settled` (payments returns the rest)."""
    row.version += 1
    row.updated_at = now
    events: list[EventData] = [campaign_updated(row, figures, currency)]
    if settles(row, figures):
        row.settled_at = now
        events.append(ce.CampaignSettled(campaign_id=row.id, buyer_id=row.buyer_id,
                                         spent_cents=to_cents(figures.spent), currency=currency))
    return events


def settles(row: Campaign, figures: Figures) -> bool:
    """Ended, not settled yet, and nothing outstanding: what `changed` settles."""
    return row.status == CampaignStatus.ENDED and row.settled_at is None and outstanding(figures) == 0


async def lock(session: AsyncSession, campaign_id: uuid.UUID, buyer_id: uuid.UUID | None = None) -> Campaign | None:
    query = select(Campaign).where(Campaign.id == campaign_id).with_for_update()
    if buyer_id is not None:
        query = query.where(Campaign.buyer_id == buyer_id)
    return await session.scalar(query)


async def lock_campaigns_of(session: AsyncSession, buyer_id: uuid.UUID) -> list[Campaign]:
    """A brand's campaigns not yet ended, locked in id order."""
    return list(await session.scalars(select(Campaign).where(Campaign.buyer_id == buyer_id,
                                                             Campaign.status != CampaignStatus.ENDED.value)
                                      .order_by(Campaign.id).with_for_update()))


@dataclass(frozen=True)
class Understood:
    """What was read from a campaign's question: the filters taken (their names), the chips' sentence, and what
    was read but not used."""

    taken: list[str]
    sentence: str
    ignored: list[Ignored]


@dataclass(frozen=True)
class CampaignView:
    campaign: Campaign
    figures: Figures
    understood: Understood | None = None
    fitting_now: int | None = None  # open slots its filters keep now (on creation, and in the detail)

    @property
    def available(self) -> Decimal:
        return available(self.campaign, self.figures)


@dataclass(frozen=True)
class NewCampaign:
    terms: Terms
    filters: Filters
    ask: str | None = None


@dataclass(frozen=True)
class Changes:
    name: str | None = None
    budget: Decimal | None = None
    max_per_slot: Decimal | None = None
    comment_text: str | None = None
    ends_at: datetime | None = None
    filters: Filters | None = None
    version: int | None = None  # the version the brand edited: refused (409) if it moved since


@dataclass(frozen=True)
class CampaignDetail:
    view: CampaignView
    bids: list[queries.CampaignBidRow]
    skipped: list[queries.SkippedRow]
    spend_over_time: list[queries.SpendPoint]


def read_question(question: str, filters: Filters) -> tuple[Filters, Understood]:
    """The AI search box's reading of `question`, merged into `filters` (the brand's own win). The words left to rank
    by meaning are said to be unused: a campaign bids on what its filters keep."""
    reading = understand(question, TIME_LEFT_HOURS)
    merged, taken = rules.merged_with_understood(filters, reading.filters)
    ignored = list(reading.ignored)
    ignored += [Ignored(phrase=reading.labels.get(k, k), reason="A campaign does not sort or wait for slots "
                        "without bids; this part was left out.") for k in reading.filters if k not in rules.FROM_ASK]
    if reading.rest:
        ignored.append(Ignored(phrase=reading.rest, reason="A campaign bids on what its filters keep: these words "
                               "are not a filter (add them as `search` to match them in titles)."))
    labels = [reading.labels[k] for k in taken if k in reading.labels]
    return merged, Understood(taken=taken, sentence=" · ".join(labels), ignored=ignored)


class Campaigns:
    def __init__(self, db: Database, settings: MarketplaceSettings, clock: Clock):
        self.db, self.settings, self.clock = db, settings, clock

    async def create(self, buyer_id: uuid.UUID, new: NewCampaign) -> CampaignView:
        now = self.clock()
        filters, understood = new.filters, None
        if new.ask:
            filters, understood = read_question(new.ask, filters)
        with as_api_errors():
            filters = rules.check_filters(filters)
            terms = rules.check_terms(new.terms, filters, now=now)
        row = Campaign(id=uuid.uuid4(), buyer_id=buyer_id, name=terms.name, status=CampaignStatus.DRAFT.value,
                       reason=None, filters=filters.as_json(), ask=new.ask, budget=terms.budget,
                       max_per_slot=terms.max_per_slot, funded=Decimal("0.00"), comment_text=terms.comment_text,
                       starts_at=terms.starts_at, ends_at=terms.ends_at, version=0, created_at=now, updated_at=now)
        figures = Figures()
        async with self.db.transaction() as session:
            session.add(row)
            await outbox.publish_all(session, changed(row, figures, now, self.settings.currency), source=SERVICE)
            fitting = await queries.fitting_now(session, filters, now)
        return CampaignView(row, figures, understood, fitting)

    async def list(self, buyer_id: uuid.UUID) -> list[CampaignView]:
        async with self.db.transaction() as session:
            rows = list(await session.scalars(select(Campaign).where(Campaign.buyer_id == buyer_id)
                                              .order_by(Campaign.created_at.desc(), Campaign.id)))
            figures = await figures_of(session, [r.id for r in rows])
        return [CampaignView(r, figures[r.id]) for r in rows]

    async def detail(self, buyer_id: uuid.UUID, campaign_id: uuid.UUID) -> CampaignDetail:
        async with self.db.transaction() as session:
            row = await session.scalar(select(Campaign).where(Campaign.id == campaign_id,
                                                              Campaign.buyer_id == buyer_id))
            if row is None:
                raise NotFound(CAMPAIGN_NOT_FOUND)
            figures = (await figures_of(session, [row.id]))[row.id]
            bids, skipped, wins = await queries.campaign_rows(session, row.id)
            fitting = await queries.fitting_now(session, Filters.of_json(row.filters), self.clock())
        return CampaignDetail(CampaignView(row, figures, fitting_now=fitting), bids, skipped,
                              queries.spend_over_time(wins, figures, self.clock()))

    async def edit(self, buyer_id: uuid.UUID, campaign_id: uuid.UUID, edit: Changes) -> CampaignView:
        def apply(row: Campaign, figures: Figures) -> None:
            if row.status == CampaignStatus.ENDED:
                raise rules.StateConflict("This campaign has ended.", code="campaign_ended")
            if edit.version is not None and edit.version != row.version:
                raise rules.StateConflict("This campaign changed since you loaded it: look at it again.",
                                          code="campaign_changed")
            filters = rules.check_filters(edit.filters) if edit.filters is not None else Filters.of_json(row.filters)
            terms = Terms(name=edit.name if edit.name is not None else row.name,
                          budget=edit.budget if edit.budget is not None else row.budget,
                          max_per_slot=edit.max_per_slot if edit.max_per_slot is not None else row.max_per_slot,
                          comment_text=edit.comment_text if edit.comment_text is not None else row.comment_text,
                          starts_at=row.starts_at, ends_at=edit.ends_at if edit.ends_at is not None else row.ends_at)
            terms = rules.check_terms(terms, filters, now=self.clock(), dates_changed=edit.ends_at is not None)
            rules.check_budget_change(terms.budget, figures.committed)
            row.name, row.budget, row.max_per_slot = terms.name, terms.budget, terms.max_per_slot
            row.comment_text, row.ends_at, row.filters = terms.comment_text, terms.ends_at, filters.as_json()
            life = life_of(row)
            rules.released(life, available(row, figures), self.clock())  # a raised budget may let it bid again
            store_life(row, life)
        return await self._change(buyer_id, campaign_id, apply)

    async def pause(self, buyer_id: uuid.UUID, campaign_id: uuid.UUID) -> CampaignView:
        return await self._change(buyer_id, campaign_id, self._life(rules.pause))

    async def resume(self, buyer_id: uuid.UUID, campaign_id: uuid.UUID) -> CampaignView:
        return await self._change(buyer_id, campaign_id, self._life(lambda life: rules.resume(life, self.clock())))

    async def end(self, buyer_id: uuid.UUID, campaign_id: uuid.UUID) -> CampaignView:
        return await self._change(buyer_id, campaign_id,
                                  self._life(lambda life: rules.end(life, rules.Reason.ENDED_BY_BRAND)))

    @staticmethod
    def _life(step: Callable[[Life], object]) -> Callable[[Campaign, Figures], None]:
        def apply(row: Campaign, _: Figures) -> None:
            life = life_of(row)
            step(life)
            store_life(row, life)
        return apply

    async def _change(self, buyer_id: uuid.UUID, campaign_id: uuid.UUID,
                      apply: Callable[[Campaign, Figures], None]) -> CampaignView:
        async with self.db.transaction() as session:
            row = await lock(session, campaign_id, buyer_id)
            if row is None:
                raise NotFound(CAMPAIGN_NOT_FOUND)
            figures = (await figures_of(session, [row.id]))[row.id]
            before = {c: getattr(row, c) for c in _EDITABLE}
            with as_api_errors():
                apply(row, figures)
            if any(getattr(row, c) != v for c, v in before.items()) or settles(row, figures):
                await outbox.publish_all(session, changed(row, figures, self.clock(), self.settings.currency),
                                         source=SERVICE)
        return CampaignView(row, figures)


_EDITABLE = ("name", "status", "reason", "filters", "budget", "max_per_slot", "comment_text", "ends_at", "funded")

