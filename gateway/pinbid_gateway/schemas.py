"""The response models of the gateway's own routes: the two dashboards (dashboards.py composes them)."""

from pinbid_kit.api import ApiModel


class InfluencerDashboard(ApiModel):
    active_slots: int
    pending_approvals: int
    total_earnings: float
    completed_jobs: int


class BuyerDashboard(ApiModel):
    active_bids: int
    won_auctions: int
    total_spent: float
