"""No import circle among the project's Python modules: grimp builds the graph of every `pinbid_*` package's
imports (those under `if TYPE_CHECKING:` and inside functions included: a circle hidden in a function or behind a
type is still two modules that cannot be understood, nor moved, one without the other) and any strongly connected
set of two or more modules fails, with the chain that closes it. Run by `make lint`."""

import pkgutil
import sys

import grimp

PACKAGES = sorted(m.name for m in pkgutil.iter_modules() if m.name.startswith("pinbid_") and m.ispkg)


def circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected sets of two or more modules (Tarjan), each sorted, in order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            members = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                members.append(member)
                if member == module:
                    break
            if len(members) > 1:
                found.append(sorted(members))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph.modules)))
    try:
        for module in sorted(graph.modules):
            if module not in index:
                visit(module)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(found)


def described(graph: grimp.ImportGraph, members: list[str]) -> str:
    """A circle as the imports that close it: first -> ... -> back to first, with each import's line."""
    first, rest = members[0], members[1:]
    there = min((graph.find_shortest_chain(first, m) for m in rest), key=len)
    back = graph.find_shortest_chain(there[-1], first)
    chain = list(there) + list(back[1:])
    steps = []
    for importer, imported in zip(chain, chain[1:], strict=False):
        details = graph.get_import_details(importer=importer, imported=imported)
        where = f" (line {details[0]['line_number']}: {details[0]['line_contents']})" if details else ""
        steps.append(f"{importer} -> {imported}{where}")
    return "; ".join(steps)


def test_the_packages_are_found():
    assert {"pinbid_kit", "pinbid_social", "pinbid_gateway", "pinbid_launcher"} <= set(PACKAGES)


def test_no_import_circle():
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    assert [described(graph, members) for members in circles(graph)] == []


def test_a_circle_is_found_and_told():
    graph = grimp.ImportGraph()
    for importer, imported in [("shop.db", "shop.outage"), ("shop.outage", "shop.errors"),
                               ("shop.errors", "shop.db"), ("shop.api", "shop.db"), ("shop.a", "shop.b")]:
        graph.add_import(importer=importer, imported=imported, line_number=1, line_contents=f"import {imported}")
    assert circles(graph) == [["shop.db", "shop.errors", "shop.outage"]]
    assert described(graph, ["shop.db", "shop.errors", "shop.outage"]) == (
        "shop.db -> shop.outage (line 1: import shop.outage); shop.outage -> shop.errors (line 1: import "
        "shop.errors); shop.errors -> shop.db (line 1: import shop.db)")
