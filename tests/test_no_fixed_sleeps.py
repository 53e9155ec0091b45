"""No fixed sleep is a wait or a negative proof in the tests. A test that sleeps to let something happen passes or
fails with the machine's load; one that sleeps to show that something did not happen proves nothing. Wait on the
signal itself (`pinbid_testing.eventually`, an event, a lock seen waiting in `pg_stat_activity`), and for a
negative proof wait on a later positive signal that orders after it (the handler's inbox row, the waiter's own
figure).

Every `sleep(...)` call in the Python tests (`asyncio.`, `time.`, `anyio.`, `trio.` or imported bare) fails here
unless it is `sleep(0)` (a turn of the event loop, no time at all) or allowed below: what stands in for work that
takes time, a pace, a jitter, never a wait. An allowance that no longer matches a call fails too. Run by
`make lint`."""

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("tests", "services/*/tests", "gateway/tests", "infra/launcher/tests")
SLEEPERS = {"asyncio", "time", "anyio", "trio"}

# "<path>::<enclosing function>" -> why that sleep is neither a wait nor a proof
ALLOWED = {
    "tests/fuzz/run.py::embedded_product":
        "the fuzz script (not a test) polls the product's health between tries, within a 180 s deadline",
    "tests/distributed/test_database_outage.py::load":
        "the pace of the load (RATE updates a second), not a wait",
    "tests/distributed/test_database_outage.py::test_a_database_away_for_20_seconds_dead_letters_nothing_and_loses_nothing":
        "samples marketplace's wait figure once a second for as long as the outage lasts",
    "services/kit/tests/integration/test_rabbit.py::handler":
        "a handler's work that takes time, so that deliveries overlap and the prefetch shows",
    "services/marketplace/tests/integration/test_associates_withdrawn.py::record_the_tie":
        "a jitter that moves the tie among the racing bids round by round; the test holds for any order",
    "services/social/tests/integration/test_real_adapters.py::login":
        "the fake Instagram client's login that takes `hang` seconds: the adapter's timeout is what is tested",
    "services/social/tests/unit/test_decoding.py::decode":
        "a decode's CPU time (in the decoding thread), so that a flood queues up",
    "services/testing/tests/test_clock_and_waiting.py::later":
        "something that happens later: the test of `eventually` itself",
    "gateway/tests/test_post_page.py::read":
        "a content service that answers late, for the gateway's timeout",
}


@dataclass(frozen=True)
class Sleep:
    path: str
    function: str
    line: int

    @property
    def key(self) -> str:
        return f"{self.path}::{self.function}"


def _is_sleep(call: ast.Call, bare: set[str]) -> bool:
    target = call.func
    if isinstance(target, ast.Attribute) and target.attr == "sleep":
        return isinstance(target.value, ast.Name) and target.value.id in SLEEPERS
    return isinstance(target, ast.Name) and target.id in bare


def _no_time(call: ast.Call) -> bool:
    return len(call.args) == 1 and isinstance(call.args[0], ast.Constant) and call.args[0].value == 0


def sleeps_in(source: str, path: str) -> list[Sleep]:
    """The sleeps in one file that take time, each with its enclosing function ("<module>" outside any)."""
    tree = ast.parse(source)
    bare = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
            and node.module in SLEEPERS for alias in node.names if alias.name == "sleep"}
    found = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, child.name)
                continue
            if isinstance(child, ast.Call) and _is_sleep(child, bare) and not _no_time(child):
                found.append(Sleep(path, function, child.lineno))
            visit(child, function)

    visit(tree, "<module>")
    return found


def all_sleeps() -> list[Sleep]:
    found = []
    for pattern in SCANNED:
        for folder in sorted(ROOT.glob(pattern)):
            for file in sorted(folder.rglob("*.py")):
                if "node_modules" not in file.parts:
                    found += sleeps_in(file.read_text(), file.relative_to(ROOT).as_posix())
    return found


def test_no_fixed_sleep_but_the_allowed():
    found = all_sleeps()
    assert [f"{s.path}:{s.line} in {s.function}" for s in found if s.key not in ALLOWED] == []
    assert sorted(set(ALLOWED) - {s.key for s in found}) == []  # an allowance outlives its sleep


def test_the_kinds_of_sleep_are_found():
    source = '''
import asyncio, time
from asyncio import sleep as nap
from trio import sleep

async def waits():
    await asyncio.sleep(0.5)
    await nap(1)
    await sleep(delay)

def blocks():
    time.sleep(2)
    asyncio.sleep(0)  # a turn of the loop: no time
    clock.sleep(3)  # not a sleeper module

await asyncio.sleep(1)
'''
    assert [(s.function, s.line) for s in sleeps_in(source, "x.py")] == [
        ("waits", 7), ("waits", 8), ("waits", 9), ("blocks", 12), ("<module>", 16)]
