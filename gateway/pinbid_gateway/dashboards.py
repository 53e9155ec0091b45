"""The two dashboards, composed from the services that own their figures.

influencer: marketplace GET /influencer/dashboard-figures {activeSlots, pendingApprovals, completedJobs}
            + payments GET /influencer/earnings {totalEarnings, ...}
buyer:      marketplace GET /buyer/dashboard-figures {activeBids, wonAuctions}
            + payments GET /buyer/total-spent {totalSpent}
"""

import asyncio
import json
from typing import Any

from fastapi import Request
from pinbid_kit.errors import ApiError, BadGateway

from .proxy import call
from .schemas import BuyerDashboard, InfluencerDashboard
from .upstreams import Upstreams


async def _get(upstreams: Upstreams, service: str, path: str, request: Request) -> dict[str, Any]:
    response = await call(upstreams, service, request, "GET", path)
    try:
        body = json.loads(response.body)
    except ValueError:
        raise BadGateway(f"The {service} service failed.") from None
    if response.status >= 400:
        if not isinstance(body, dict) or "detail" not in body:
            raise BadGateway(f"The {service} service failed.")
        error = ApiError(str(body["detail"]), code=body.get("code"))
        error.status = response.status
        raise error
    return body


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
