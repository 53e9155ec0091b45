"""The two dashboards, composed from the services that own their figures.

influencer: marketplace GET /influencer/dashboard-figures {activeSlots, pendingApprovals, completedJobs}
            + payments GET /influencer/earnings {totalEarnings, ...}
buyer:      marketplace GET /buyer/dashboard-figures {activeBids, wonAuctions}
            + payments GET /buyer/total-spent {totalSpent}
"""

import asyncio
from typing import Any

import httpx
from fastapi import Request
from pinbid_kit.api import ApiModel
from pinbid_kit.errors import ApiError, BadGateway, ServiceUnavailable

from .proxy import forwarded_headers
from .upstreams import Upstreams


class InfluencerDashboard(ApiModel):
    active_slots: int
    pending_approvals: int
    total_earnings: float
    completed_jobs: int


class BuyerDashboard(ApiModel):
    active_bids: int
    won_auctions: int
    total_spent: float


async def _get(upstreams: Upstreams, service: str, path: str, request: Request) -> dict[str, Any]:
    client = upstreams.get(service)
    if client is None:
        raise ServiceUnavailable(f"The {service} service is not available yet. Please try again later.")
    try:
        response = await client.get(path, headers=forwarded_headers(request))
    except httpx.HTTPError:
        raise ServiceUnavailable(f"The {service} service cannot be reached. Please try again later.") from None
    if response.status_code >= 400:
        try:
            body = response.json()
            error = ApiError(body["detail"], code=body.get("code"))
        except (ValueError, KeyError, TypeError):
            raise BadGateway(f"The {service} service failed.") from None
        error.status = response.status_code
        raise error
    return response.json()


async def influencer(upstreams: Upstreams, request: Request) -> InfluencerDashboard:
    figures, earnings = await asyncio.gather(
        _get(upstreams, "marketplace", "/influencer/dashboard-figures", request),
        _get(upstreams, "payments", "/influencer/earnings", request),
    )
    return InfluencerDashboard(active_slots=figures["activeSlots"], pending_approvals=figures["pendingApprovals"],
                               completed_jobs=figures["completedJobs"], total_earnings=earnings["totalEarnings"])


async def buyer(upstreams: Upstreams, request: Request) -> BuyerDashboard:
    figures, spent = await asyncio.gather(
        _get(upstreams, "marketplace", "/buyer/dashboard-figures", request),
        _get(upstreams, "payments", "/buyer/total-spent", request),
    )
    return BuyerDashboard(active_bids=figures["activeBids"], won_auctions=figures["wonAuctions"],
                          total_spent=spent["totalSpent"])
