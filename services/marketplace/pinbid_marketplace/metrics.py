"""Marketplace's Prometheus metrics (the HTTP and event metrics every service has are the kit's)."""

from prometheus_client import Counter, Histogram

# A batch's bids are written by one statement in autocommit, guarded by the slot's version: the slot's row lock is
# taken and released inside it. The database reports how long it held the lock (from the slot's update to the last
# row written; the commit follows in the same round trip): per batch, and divided among the bids it accepted. The
# round trip, as this process sees it, adds the network and the wait for the event loop (make bench-hot reads all).
_LOCK_BUCKETS = (0.00005, 0.0001, 0.0002, 0.0003, 0.0004, 0.0005, 0.0006, 0.0008, 0.001, 0.0013, 0.0016, 0.002,
                 0.0025, 0.003, 0.004, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.05, 0.1, 0.25, 0.5, 1.0)
SLOT_LOCK_HELD = Histogram("pinbid_marketplace_slot_lock_held_seconds",
                           "Time the slot's row lock is held by a batch's guarded write, as the database measures it",
                           buckets=_LOCK_BUCKETS)
SLOT_LOCK_PER_BID = Histogram("pinbid_marketplace_slot_lock_per_accepted_bid_seconds",
                              "Time the slot's row lock is held, per accepted bid", buckets=_LOCK_BUCKETS)
BID_WRITE_ROUND_TRIP = Histogram("pinbid_marketplace_bid_write_round_trip_seconds",
                                 "Round trip of a batch's guarded write, as this process sees it",
                                 buckets=_LOCK_BUCKETS)
BID_WRITE_CONFLICTS = Counter("pinbid_marketplace_bid_write_conflicts_total",
                              "Batches of bids read again because another writer changed the slot first")
