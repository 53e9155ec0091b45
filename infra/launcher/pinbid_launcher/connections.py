"""How many PostgreSQL connections a `make up` run may open, and the pool each service process gets from it.

A service process holds at most `pool_size + max_overflow` connections in its pool (requests, event handlers,
jobs and the mail worker all draw from it) and one more of its own: the outbox relay's LISTEN. Its migrations
run on a connection closed before the pool opens any, so they add nothing to the peak. A run of R replicas of
S services therefore holds at most R × S × (pool_size + max_overflow + 1); PostgreSQL allows 100 by default,
3 of them kept for superusers."""

import os
from dataclasses import dataclass

ENV = "PINBID_DB_CONNECTIONS"
DEFAULT_PER_RUN = 30  # three default runs (90), or a REPLICAS=2 run beside a default one (60), fit in 97
OWN_CONNECTIONS = 1  # the relay's LISTEN, besides the pool
SMALLEST_SHARE = 1 + OWN_CONNECTIONS  # a pool of one connection


@dataclass(frozen=True)
class Pool:
    size: int
    overflow: int

    def connections(self) -> int:
        """The most one process holds: its pool full, and its LISTEN."""
        return self.size + self.overflow + OWN_CONNECTIONS


def budget(processes: int) -> int:
    """PINBID_DB_CONNECTIONS, or 30 (more only when REPLICAS is so high that 30 leaves a process no pool)."""
    asked = os.environ.get(ENV)
    if asked is None:
        return max(DEFAULT_PER_RUN, SMALLEST_SHARE * processes)
    if not asked.isdigit() or int(asked) < SMALLEST_SHARE * processes:
        raise SystemExit(f"{ENV} must be a whole number of at least {SMALLEST_SHARE * processes} "
                         f"({SMALLEST_SHARE} for each of the run's {processes} service processes), not {asked!r}")
    return int(asked)


def pool_for(connections: int, processes: int) -> Pool:
    """An even share of `connections` for each of `processes`: its LISTEN, then about half kept open in the
    pool and the rest opened only under load."""
    pooled = connections // processes - OWN_CONNECTIONS
    size = max(1, pooled // 2)
    return Pool(size=size, overflow=pooled - size)
