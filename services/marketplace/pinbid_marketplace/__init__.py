"""Pinbid's marketplace service: pin slots, bids, second-price proxy auctions and the creator's approvals."""

SERVICE = "marketplace"
