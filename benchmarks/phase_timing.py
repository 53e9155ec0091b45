"""Where a pytest run's time goes, per test phase: a pytest plugin, and its summary.

    PINBID_PHASES_OUT=/tmp/phases [PINBID_PHASES_POSTMASTER=<pid>] \
        uv run python -m pytest -p benchmarks.phase_timing ...
    uv run python -m benchmarks.phase_timing /tmp/phases [N]

Each phase (set-up, call, teardown) of each test is written to `<out>/<worker>.jsonl` with its wall time, the test
process's CPU, the CPU of the processes it started and reaped, and, given the postmaster's pid of a PostgreSQL
cluster of the run's own (one no one else uses), that cluster's CPU. The time `RunDatabases.new` spent, and inside
it `_take_recycled` (waiting for a released database to be emptied), is summed per process. The summary lists the N
files that cost the most CPU."""

import collections
import json
import os
import sys
import time
from pathlib import Path

import pytest

TICK = os.sysconf("SC_CLK_TCK")
_OUT = Path(os.environ.get("PINBID_PHASES_OUT", "/tmp/pinbid-phases"))
_POSTMASTER = int(os.environ.get("PINBID_PHASES_POSTMASTER") or 0)
_database_seconds: collections.Counter = collections.Counter()  # RunDatabases method -> seconds


def _ticks(pid: int | str, *, reaped: bool = False) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2:].split()
    return sum(int(x) for x in fields[11:15 if reaped else 13])  # utime stime [cutime cstime]


def cluster_cpu(postmaster: int) -> float:
    """CPU seconds of a PostgreSQL cluster: the postmaster, its live children and those it reaped."""
    total = _ticks(postmaster, reaped=True)
    for child in Path(f"/proc/{postmaster}/task/{postmaster}/children").read_text().split():
        try:
            total += _ticks(child)
        except OSError:  # ended meanwhile: counted among the reaped next time
            pass
    return total / TICK


def _now() -> tuple[float, float, float, float]:
    children = os.times()
    return (time.time(), time.process_time(), children.children_user + children.children_system,
            cluster_cpu(_POSTMASTER) if _POSTMASTER else 0.0)


def _record(item: pytest.Item, phase: str, before: tuple[float, float, float, float]) -> None:
    after = _now()
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    _OUT.mkdir(parents=True, exist_ok=True)
    with open(_OUT / f"{worker}.jsonl", "a") as out:
        out.write(json.dumps({"id": item.nodeid, "phase": phase, "start": before[0], "wall": after[0] - before[0],
                              "cpu": after[1] - before[1], "children": after[2] - before[2],
                              "postgres": after[3] - before[3]}) + "\n")


def _timed(phase: str):
    @pytest.hookimpl(wrapper=True)
    def hook(item):
        before = _now()
        try:
            return (yield)
        finally:
            _record(item, phase, before)

    return hook


pytest_runtest_setup, pytest_runtest_call, pytest_runtest_teardown = map(_timed, ("setup", "call", "teardown"))


def pytest_configure(config: pytest.Config) -> None:
    from pinbid_testing.databases import RunDatabases

    for method in ("new", "_take_recycled"):
        _timed_method(RunDatabases, method)


def _timed_method(cls: type, method: str) -> None:
    original = getattr(cls, method)

    def timed(*args, **kwargs):
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            _database_seconds[method] += time.perf_counter() - started

    setattr(cls, method, timed)


def pytest_unconfigure(config: pytest.Config) -> None:
    _OUT.mkdir(parents=True, exist_ok=True)
    with open(_OUT / "database_seconds.txt", "a") as out:
        out.write(f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')} " +
                  " ".join(f"{method} {seconds:.1f}" for method, seconds in _database_seconds.items()) + "\n")


def summary(folder: Path, top: int) -> None:
    files: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for path in folder.glob("*.jsonl"):
        for line in path.read_text().splitlines():
            row = json.loads(line)
            file = files[row["id"].split("::")[0]]
            file["tests"] += row["phase"] == "call"
            for key in ("wall", "cpu", "children", "postgres"):
                file[f"{row['phase']} {key}"] += row[key]
                file[key] += row[key]
    totals = sum(files.values(), collections.Counter())
    print(" ".join(f"{key} {totals[key]:.1f}" for key in ("wall", "cpu", "children", "postgres")))
    print(f"{'file':70} {'tests':>5} {'wall':>7} {'cpu':>6} {'child':>6} {'pg':>6}  set-up cpu+pg")
    ranked = sorted(files.items(), key=lambda kv: -(kv[1]["cpu"] + kv[1]["children"] + kv[1]["postgres"]))
    for name, f in ranked[:top]:
        print(f"{name[-70:]:70} {f['tests']:5} {f['wall']:7.1f} {f['cpu']:6.1f} {f['children']:6.1f} "
              f"{f['postgres']:6.1f}  {f['setup cpu'] + f['setup postgres']:6.1f}")
    database_seconds = folder / "database_seconds.txt"
    if database_seconds.exists():
        print("seconds in RunDatabases.new and, inside it, waiting for an emptied database (_take_recycled):")
        print(database_seconds.read_text(), end="")


if __name__ == "__main__":
    summary(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 30)
