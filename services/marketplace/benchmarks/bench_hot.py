"""`make bench-hot`: the hot slot against the database's own ceiling, in one command.

1. The anchor, first (the services' pools would leave PostgreSQL no room for 50 more connections): pgbench runs
   an accepted bid on one hot row with the service's own statements, each in autocommit as the service runs them
   (the text of bidding.py, store.py and store_write.py: the unlocked check, the read of the bids the rules need
   with the slot's version, the write of slot, two bids and three events with one NOTIFY guarded by that version),
   the values computed in SQL, on a database of its own (no relay). A write whose guard finds the version changed writes
   nothing (the service would read again): the anchor is the bids written per second, not the scripts run.
2. Starts the distributed run (python -m pinbid_launcher up) on its own ports, databases (PINBID_DB_PREFIX),
   broker names (the bus prefix follows the database prefix) and var folder, so it never touches `make up`'s run.
3. hot_slot.py: 200 bidders for 30 s through the gateway (a closed loop: each waits for its answer).
4. hot_rates.py: the same bidders in an open loop, bids due at rising constant rates, 15 s a rate.
5. Prints the figures, the ratios to pgbench's tps, the load average, and the six checks; stops what it started.

Environment: BENCH_HOT_PREFIX (benchhot), BENCH_HOT_BASE_PORT (8701), BENCH_HOT_GATEWAY_PORT (8721),
BIDDERS (200), SECONDS (30), PGBENCH_CLIENTS (50), PGBENCH_SECONDS (15), RATES (25,50,...,800), RATE_SECONDS (15),
KEEP=1 keeps the databases.
"""

import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
from pinbid_kit.migrations import upgrade
from pinbid_launcher import services
from pinbid_marketplace import bidding, store, store_write
from pinbid_marketplace.models import Bid
from sqlalchemy.dialects import postgresql

sys.path.insert(0, str(Path(__file__).parent))
import hot_rates  # noqa: E402
import hot_slot  # noqa: E402

PG = os.environ.get("PINBID_PG_URL", "postgresql://postgres@127.0.0.1:5432")
PREFIX = os.environ.get("BENCH_HOT_PREFIX", "benchhot")
BASE_PORT = int(os.environ.get("BENCH_HOT_BASE_PORT", "8701"))
GATEWAY_PORT = int(os.environ.get("BENCH_HOT_GATEWAY_PORT", "8721"))
BIDDERS = int(os.environ.get("BIDDERS", "200"))
SECONDS = float(os.environ.get("SECONDS", "30"))
PGBENCH_CLIENTS = int(os.environ.get("PGBENCH_CLIENTS", "50"))
PGBENCH_SECONDS = int(os.environ.get("PGBENCH_SECONDS", "15"))
RATES = os.environ.get("RATES", hot_rates.DEFAULT_RATES)
RATE_SECONDS = float(os.environ.get("RATE_SECONDS", "15"))
ANCHOR_DB = f"{PREFIX}_anchor"
# an envelope of the size the service writes (a bid.placed event is about this long)
ENVELOPE = json.dumps({"id": str(uuid.uuid4()), "type": "marketplace.bid.placed.v1", "version": 1,
                       # no ":" followed by a digit: pgbench would read it as one of its variables
                       "occurredAt": datetime.now(UTC).strftime("%Y-%m-%dT%H.%M.%SZ"), "source": "marketplace",
                       "correlationId": uuid.uuid4().hex, "data": {
                           "bidId": str(uuid.uuid4()), "slotId": str(uuid.uuid4()), "slotTitle": "Hot slot",
                           "creatorId": str(uuid.uuid4()), "buyerId": str(uuid.uuid4()),
                           "buyerName": "Bench Buyer 17", "currentBidCents": 123456, "currency": "USD"}})


def load() -> str:
    return Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"


def databases() -> list[str]:
    return [f"{PREFIX}_{module.name}" for module in services.installed()] + [ANCHOR_DB]


def drop_databases() -> None:
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        for name in databases():
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def launcher(command: str, env: dict[str, str]) -> None:
    subprocess.run([sys.executable, "-m", "pinbid_launcher", command], env=env, check=True)


# --- the anchor --------------------------------------------------------------------------------------------

def _substitute(sql: str, values: dict[str, str]) -> str:
    """Replace the statement's :binds with SQL expressions (pgbench sends the statement as it is)."""
    return re.sub(r"(?<![:\w]):(\w+)", lambda m: values[m.group(1)], sql)


def anchor_script(slot_id: uuid.UUID, leader_id: uuid.UUID, leader_buyer: uuid.UUID, *, locked: bool) -> str:
    """One accepted bid with the service's statements. `locked`: in one transaction that locks the slot while it
    reads (the classic hot-row transaction, whose rate is the row's ceiling when writers queue); else as the service
    runs them, each statement its own transaction, pgbench's `\\gset` carrying the version the read saw into the
    guarded write (writers that race mostly find the version changed)."""
    slot = f"'{slot_id}'::uuid"
    check = str(bidding._SLOT_AND_BUYER.compile(dialect=postgresql.dialect()))
    check = check.replace("%(slot_id)s", slot).replace("%(buyer_id)s", f"'{leader_buyer}'::uuid")
    read = _substitute(store._READ_FOR_PLACEMENT.text,
                       {"slot_id": slot, "buyer_ids": "ARRAY[gen_random_uuid()]", "bid_ids": "ARRAY[]::uuid[]"})
    if locked:
        read = read.replace("WHERE id = " + slot + ")", "WHERE id = " + slot + " FOR UPDATE)")
    read = f"SELECT min(s_version) AS seen FROM ({read.strip()}) AS r \\gset"
    price = f"(SELECT current_bid + 1 FROM slots WHERE id = {slot})"
    now = "now()"
    slot_values = {"id": f"ARRAY[{slot}]", "current_bid": f"ARRAY[{price}]",
                   "bid_count": f"ARRAY[(SELECT bid_count + 1 FROM slots WHERE id = {slot})]",
                   "bidder_count": f"ARRAY[(SELECT bidder_count + 1 FROM slots WHERE id = {slot})]",
                   "auction_end": f"ARRAY[(SELECT auction_end FROM slots WHERE id = {slot})]",
                   "status": "ARRAY['ACTIVE']", "outcome": "ARRAY[NULL]::text[]",
                   "winning_bid_id": "ARRAY[NULL]::uuid[]", "closed_at": "ARRAY[NULL]::timestamptz[]",
                   "updated_at": f"ARRAY[{now}]"}
    # the new bid (OUTBID at once, as a bid an auto-bid beats) and the leader, whose amount rises
    bid_values = {"id": f"ARRAY[gen_random_uuid(), '{leader_id}'::uuid]", "slot_id": f"ARRAY[{slot}, {slot}]",
                  "buyer_id": f"ARRAY[gen_random_uuid(), '{leader_buyer}'::uuid]",
                  "amount": f"ARRAY[{price}, {price}]", "ceiling": f"ARRAY[{price}, {price} + 100]",
                  "auto_bid_enabled": "ARRAY[false, true]", "max_auto_bid": f"ARRAY[NULL, {price} + 100]",
                  "seq": "ARRAY[1, 2]", "status": "ARRAY['OUTBID', 'ACTIVE']", "is_demo": "ARRAY[false, false]",
                  "created_at": f"ARRAY[{now}, {now}]", "updated_at": f"ARRAY[{now}, {now}]",
                  "raises": "ARRAY[0, 1]"}
    # every other column the service writes is empty on both bids (final price, comment, approval)
    for column in store_write.BID_INSERTED:
        bid_values.setdefault(column, f"ARRAY[NULL, NULL]::{store_write.array_element_type(Bid.__table__.c[column])}[]")
    envelope = "'" + ENVELOPE.replace("'", "''") + "'"
    values = {f"slot_{k}": v for k, v in slot_values.items()} | {f"bid_{k}": v for k, v in bid_values.items()}
    values |= {"seen_version": "CAST(:seen AS bigint)", "slot_count": "1"}
    values |= {"event_id": "ARRAY[gen_random_uuid(), gen_random_uuid(), gen_random_uuid()]",
               "event_type": "ARRAY['marketplace.bid.placed.v1', 'marketplace.bid.outbid.v1', "
                             "'marketplace.slot.updated.v1']",
               "event_envelope": f"ARRAY[{envelope}, {envelope}, {envelope}]",
               "event_headers": "ARRAY['{}', '{}', '{}']"}
    write = _substitute(store_write._WRITE.text, values)
    if locked:
        return f"{check.strip()};\nBEGIN;\n{read}\n{write.strip()};\nCOMMIT;\n"
    return f"{check.strip()};\n{read}\n{write.strip()};\n"


def run_anchor(*, locked: bool) -> float:
    """Bids written per second by pgbench with the service's statements (see anchor_script)."""
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{ANCHOR_DB}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{ANCHOR_DB}"')
    url = f"{PG}/{ANCHOR_DB}"
    upgrade(url, "pinbid_marketplace")
    slot_id, leader_id, leader_buyer = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO slots (id, creator_id, post_id, title, description, category, min_bid, current_bid, "
            "auction_end, duration_days, status, bid_count, creator_name, followers, avg_views, avg_engagement, "
            "verified, media_type, media_url, permalink, is_demo) VALUES (%s, gen_random_uuid(), 'anchor', "
            "'Hot slot', '', 'tech', 1, 1, %s, 7, 'ACTIVE', 1, 'Anchor', 0, 0, 0, false, 'IMAGE', '', '', false)",
            (slot_id, datetime.now(UTC) + timedelta(days=2)))
        conn.execute("INSERT INTO bids (id, slot_id, buyer_id, amount, ceiling, auto_bid_enabled, seq, status, "
                     "likes, replies, clicks, is_demo) VALUES (%s, %s, %s, 1, 1, false, 1, 'ACTIVE', 0, 0, 0, false)",
                     (leader_id, slot_id, leader_buyer))
    kind = "locked" if locked else "unlocked"
    script = Path(tempfile.mkdtemp(prefix="bench-hot-")) / f"accepted_bid_{kind}.sql"
    script.write_text(anchor_script(slot_id, leader_id, leader_buyer, locked=locked))
    print(f"pgbench: {PGBENCH_CLIENTS} clients, {PGBENCH_SECONDS}s, an accepted bid's statements on one slot, {kind} "
          f"({script}); load average {load()}", flush=True)
    out = subprocess.run(["pgbench", "-n", "-M", "prepared", "-c", str(PGBENCH_CLIENTS), "-j", "2", "-T",
                          str(PGBENCH_SECONDS), "-f", str(script), url], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"pgbench failed:\n{out.stdout}\n{out.stderr}")
    scripts = float(re.search(r"tps = ([0-9.]+)", out.stdout).group(1))
    with psycopg.connect(url) as conn:
        bids, events = conn.execute("SELECT (SELECT bid_count FROM slots WHERE id = %s), "
                                    "(SELECT count(*) FROM outbox)", (slot_id,)).fetchone()
    written = (bids - 1) / PGBENCH_SECONDS
    print(f"pgbench: {scripts:.0f} scripts/s, {written:.0f} bids written/s (slot's bid count {bids}, {events} outbox "
          f"rows)", flush=True)
    return written


# --- the run -----------------------------------------------------------------------------------------------

def main() -> int:
    var = Path(tempfile.mkdtemp(prefix="pinbid-bench-hot-"))
    env = {**os.environ, "PINBID_DB_PREFIX": PREFIX, "PINBID_BASE_PORT": str(BASE_PORT),
           "PINBID_GATEWAY_PORT": str(GATEWAY_PORT), "PINBID_VAR": str(var),
           # PostgreSQL here allows 100 connections for everyone; the marketplace's 10 are plenty (a check holds
           # one for a statement, a slot's batch one), and growing to 30 under load ran into "too many clients"
           "MARKETPLACE_DB_MAX_OVERFLOW": os.environ.get("MARKETPLACE_DB_MAX_OVERFLOW", "0")}
    names = [module.name for module in services.installed()]
    marketplace_ports = [BASE_PORT + names.index("marketplace") + 10 * r
                         for r in range(int(os.environ.get("PINBID_REPLICAS", "1")))]
    drop_databases()
    try:
        # before the services start: their pools and PostgreSQL's max_connections leave no room for 50 more
        tps = run_anchor(locked=True)
        racing = run_anchor(locked=False)
        print(f"starting the distributed run (databases {PREFIX}_*, gateway :{GATEWAY_PORT}, var {var})", flush=True)
        launcher("up", env)
        print(f"hot slot: {BIDDERS} bidders, {SECONDS:.0f}s through the gateway; load average {load()}", flush=True)
        args = hot_slot.parser().parse_args([
            "--api", f"http://127.0.0.1:{GATEWAY_PORT}/api", "--db", f"{PG}/{PREFIX}_marketplace",
            "--bidders", str(BIDDERS), "--seconds", str(SECONDS),
            *[a for port in marketplace_ports for a in ("--metrics", f"http://127.0.0.1:{port}/metrics")]])
        result = asyncio.run(hot_slot.main(args))
        print(f"open loop: bids at rising rates, {RATE_SECONDS:.0f} s each; load average {load()}", flush=True)
        open_loop = asyncio.run(hot_rates.main(hot_rates.parser().parse_args([
            "--api", f"http://127.0.0.1:{GATEWAY_PORT}/api", "--db", f"{PG}/{PREFIX}_marketplace",
            "--bidders", str(BIDDERS), "--seconds", str(RATE_SECONDS), "--rates", RATES, "--var", str(var)])))
        load_after = load()
    finally:
        launcher("down", env)
        if not os.environ.get("KEEP"):
            drop_databases()
    print("\n== bench-hot ==")
    print(f"pgbench (anchor)         {tps:8.0f} tps: the hot row's ceiling, writers queueing on its lock")
    print(f"pgbench, unlocked        {racing:8.0f} bids written/s with {PGBENCH_CLIENTS} writers racing on the version "
          f"(the service has one writer per process)")
    print(f"requests/s               {result['requests_per_s']:8.0f}   = {result['requests_per_s'] / tps:.2f} x tps "
          f"(goal 0.8)")
    print(f"accepted bids/s          {result['accepted_per_s']:8.0f}   = {result['accepted_per_s'] / tps:.2f} x tps "
          f"(goal 0.5)")
    print(f"refused (too low)/s      {result['refused_per_s']:8.0f}")
    print(f"latency p50 / p99 ms     {result['p50_ms']:8.1f} / {result['p99_ms']:.1f}")
    print(f"slot lock held p50 / p99 {result['lock_per_bid_p50_ms']:8.3f} / {result['lock_per_bid_p99_ms']:.3f} ms per "
          f"accepted bid; {result['lock_p50_ms']:.2f} / {result['lock_p99_ms']:.2f} ms per transaction "
          f"({result['bids_per_transaction']:.1f} accepted bids per transaction), as PostgreSQL held it")
    print(f"guarded write p50 / p99  {result['write_p50_ms']:8.2f} / {result['write_p99_ms']:.2f} ms round trip as the "
          f"service's event loop saw it")
    print("open loop (latency from each bid's due time):")
    for step in open_loop["steps"]:
        print("  " + step.line())
    best = open_loop["best_rate"]
    print(f"highest rate, p99 <= 100 ms {best:8.0f} bids/s = {best / tps:.2f} x tps (goal 0.5)")
    print(f"load average at the end  {load_after:>8}")
    for name, ok in result["checks"].items():
        print(f"  {'OK  ' if ok else 'FAIL'} {name}")
    open_checks = all(all(step.checks.values()) for step in open_loop["steps"])
    print(f"  {'OK  ' if open_checks else 'FAIL'} every open-loop step's slot passes the same checks")
    return 0 if all(result["checks"].values()) and open_checks else 1


if __name__ == "__main__":
    sys.exit(main())
