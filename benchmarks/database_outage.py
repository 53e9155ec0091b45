"""Marketplace's database refuses connections for 20 s (a failover) under a load of events: how long do its
handlers wait, how soon after the database returns is every event handled, and is anything dead-lettered?

The scenario is the distributed test `tests/distributed/test_database_outage.py` (real PostgreSQL and RabbitMQ,
every service in its own process); this runs it and prints its figures.

    uv run python -m benchmarks.database_outage [--outage 20]
"""

import argparse
import os
import subprocess
import sys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--outage", type=float, default=20.0, help="seconds the database refuses connections")
    args = parser.parse_args()
    env = {**os.environ, "PINBID_OUTAGE_SECONDS": str(args.outage)}
    done = subprocess.run([sys.executable, "-m", "pytest", "tests/distributed/test_database_outage.py", "-q", "-s"],
                          env=env)
    sys.exit(done.returncode)


if __name__ == "__main__":
    main()
