"""Every service names each role with the same file (docs/service-guide.md, "One name per role"): this fails when
a service keeps a role under another name, restates its own name instead of importing `SERVICE`, defines a
Prometheus metric outside `metrics.py`, keeps HTTP models in `api.py`, builds its routes inside a function
(routes are module-level, so that a test can override their dependencies), imports (or depends on) what runs
it: the launcher, the demo world the launcher owns, or test support, keeps its screen reads outside `queries.py`,
lets a module of use cases grow past 300 lines, or publishes in `events_out.py`, which only builds the events a
use case then writes once."""

import ast
import importlib
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {name: ROOT / "services" / name / f"pinbid_{name}"
            for name in ("identity", "marketplace", "payments", "social", "content")}
PACKAGES["gateway"] = ROOT / "gateway" / "pinbid_gateway"

# another name for a role the table already names: the module to use instead
OTHER_NAMES = {
    "views.py": "schemas.py", "serializers.py": "schemas.py", "models_api.py": "schemas.py",
    "announcements.py": "events_out.py", "publishers.py": "events_out.py", "events.py": "events_out.py",
    "common.py": "a module named for what it holds", "utils.py": "a module named for what it holds",
    "helpers.py": "a module named for what it holds",
    "providers.py": "adapters/__init__.py", "providers": "ports.py + adapters/",
    "subscribers.py": "handlers.py", "consumers.py": "handlers.py",
    "config.py": "settings.py", "main.py": "app.py", "tables.py": "models.py",
    "demo.py": "the launcher's demo world (infra/demo/pinbid_demo)", "seed.py": "the launcher's demo world",
    "reads.py": "queries.py", "selectors.py": "queries.py", "read_models.py": "queries.py",
    "earnings.py": "queries.py", "posts.py": "queries.py",  # where payments and social kept screen reads before
}
SERVICES = ("identity", "marketplace", "payments", "social", "content")
# the files of the role table; every other module beside app.py is a module of use cases
ROLE_MODULES = {"__init__.py", "api.py", "schemas.py", "events_out.py", "handlers.py", "models.py", "queries.py",
                "ports.py", "metrics.py", "settings.py", "app.py"}
MAX_USE_CASE_LINES = 300
# what a service or the gateway never imports, not even inside a function: the launcher runs it, the demo world is
# the launcher's, test support is the tests'
NEVER_IMPORTED = ("pinbid_launcher", "pinbid_demo", "pinbid_testing")
DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
METRIC_TYPES = {"Counter", "Gauge", "Histogram", "Summary", "Info", "Enum"}
ROUTE_METHODS = {"get", "post", "put", "patch", "delete", "head", "options", "api_route", "websocket"}


def _modules(package: Path) -> list[Path]:
    return sorted(p for p in package.rglob("*.py") if "migrations" not in p.relative_to(package).parts)


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), filename=str(path))


@pytest.mark.parametrize("service", PACKAGES)
def test_the_package_names_itself_once_in_SERVICE(service: str) -> None:
    package = importlib.import_module(f"pinbid_{service}")
    assert package.SERVICE == service


@pytest.mark.parametrize("service", PACKAGES)
def test_no_role_lives_under_another_name(service: str) -> None:
    package = PACKAGES[service]
    found = [f"{p.name}: use {OTHER_NAMES[p.name]}" for p in package.iterdir() if p.name in OTHER_NAMES]
    nested_ports = [f"{p.relative_to(package)}: ports.py sits beside app.py" for p in package.rglob("ports.py")
                    if p.parent != package]
    assert found + nested_ports == []


def _name_restated(tree: ast.Module, service: str) -> list[int]:
    lines = [node.lineno for node in tree.body if isinstance(node, ast.Assign | ast.AnnAssign)
             and isinstance(node.value, ast.Constant) and node.value.value == service]
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            arguments = [*node.args, *(k.value for k in node.keywords)]
            lines += [a.lineno for a in arguments if isinstance(a, ast.Constant) and a.value == service]
    return lines


@pytest.mark.parametrize("service", PACKAGES)
def test_the_name_is_imported_not_restated(service: str) -> None:
    package = PACKAGES[service]
    restated = {str(p.relative_to(package)): lines for p in _modules(package) if p.name != "__init__.py" or
                p.parent != package if (lines := _name_restated(_tree(p), service))}
    assert restated == {}


@pytest.mark.parametrize("service", PACKAGES)
def test_metrics_are_defined_in_metrics_py(service: str) -> None:
    package = PACKAGES[service]
    elsewhere = [f"{p.relative_to(package)}:{node.lineno}" for p in _modules(package) if p.name != "metrics.py"
                 for node in _tree(p).body if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                 and getattr(node.value.func, "id", None) in METRIC_TYPES]
    assert elsewhere == []


def _nested_routes(tree: ast.Module) -> list[int]:
    nested = []
    for outer in ast.walk(tree):
        if not isinstance(outer, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for inner in ast.walk(outer):
            if inner is outer or not isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            nested += [inner.lineno for d in inner.decorator_list if isinstance(d, ast.Call)
                       and isinstance(d.func, ast.Attribute) and d.func.attr in ROUTE_METHODS]
    return nested


@pytest.mark.parametrize("service", PACKAGES)
def test_routes_are_declared_at_module_level(service: str) -> None:
    package = PACKAGES[service]
    nested = {str(p.relative_to(package)): lines for p in _modules(package) if (lines := _nested_routes(_tree(p)))}
    assert nested == {}


@pytest.mark.parametrize("service", PACKAGES)
def test_the_http_models_are_in_schemas_py(service: str) -> None:
    package = PACKAGES[service]
    models_in_api = [node.name for node in _tree(package / "api.py").body if isinstance(node, ast.ClassDef)
                     and any(getattr(base, "id", None) == "ApiModel" for base in node.bases)]
    assert models_in_api == []
    assert (package / "schemas.py").exists()


def _imported(tree: ast.Module) -> set[str]:
    """The absolute modules a file imports, at module level or inside a function, and the strings that are a
    module's dotted name (what `importlib.import_module` would be given)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and DOTTED.fullmatch(node.value):
            names.add(node.value)
    return names


def _never_imported(names: set[str]) -> list[str]:
    return sorted(name for name in names if name.split(".")[0] in NEVER_IMPORTED)


def test_the_import_check_sees_an_import_inside_a_function() -> None:
    tree = ast.parse("def seed():\n    from pinbid_demo import plan\n    import pinbid_launcher.services\n"
                     "    return importlib.import_module('pinbid_testing.clock')\n")
    assert _never_imported(_imported(tree)) == ["pinbid_demo", "pinbid_launcher.services", "pinbid_testing.clock"]


@pytest.mark.parametrize("service", PACKAGES)
def test_no_service_imports_the_launcher_or_the_demo_world(service: str) -> None:
    package = PACKAGES[service]
    found = {str(p.relative_to(package)): names for p in sorted(package.rglob("*.py"))
             if (names := _never_imported(_imported(_tree(p))))}
    assert found == {}


@pytest.mark.parametrize("service", PACKAGES)
def test_no_service_depends_on_the_launcher_or_the_demo_world(service: str) -> None:
    project = tomllib.loads((PACKAGES[service].parent / "pyproject.toml").read_text())["project"]
    declared = [d for d in project.get("dependencies", [])
                if d.split(">")[0].split("=")[0].split("[")[0].strip().replace("-", "_") in NEVER_IMPORTED]
    assert declared == []


# what writes to the outbox: an events_out.py only builds events, the use case writes them once (issue 32)
OUTBOX_WRITERS = {"publish", "publish_all", "outbox_rows"}


def _publishing(tree: ast.Module) -> list[str]:
    """What in a module publishes rather than builds: the outbox imported, a writer called, anything awaited."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"import {a.name}" for a in node.names if a.name.endswith("outbox")]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.endswith("outbox") or any(a.name == "outbox" for a in node.names):
                found.append(f"from {node.module} import {', '.join(a.name for a in node.names)}")
        elif isinstance(node, ast.AsyncFunctionDef):
            found.append(f"async def {node.name}")
        elif isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in OUTBOX_WRITERS:
                found.append(f"{name}() at line {node.lineno}")
    return found


def test_the_publishing_check_sees_the_outbox_however_it_is_reached() -> None:
    tree = ast.parse("from pinbid_kit import outbox\nfrom pinbid_kit.outbox import outbox_rows\n"
                     "async def paid(session, p):\n    await outbox.publish_all(session, [p], source='x')\n"
                     "def rows(p):\n    return outbox_rows([p], source='x')\n")
    assert sorted(_publishing(tree)) == ["async def paid", "from pinbid_kit import outbox",
                                         "from pinbid_kit.outbox import outbox_rows", "outbox_rows() at line 6",
                                         "publish_all() at line 4"]
    assert _publishing(ast.parse("def paid(p):\n    return Paid(id=p.id)\n")) == []


@pytest.mark.parametrize("service", [name for name in PACKAGES if (PACKAGES[name] / "events_out.py").exists()])
def test_events_out_only_builds_events(service: str) -> None:
    assert _publishing(_tree(PACKAGES[service] / "events_out.py")) == []
@pytest.mark.parametrize("service", SERVICES)
def test_screen_reads_are_in_queries_py(service: str) -> None:
    """Every service serves screens, so each has its reads in `queries.py` (and no module under another name for
    them: OTHER_NAMES)."""
    assert (PACKAGES[service] / "queries.py").is_file()


def _use_case_modules(package: Path) -> list[Path]:
    return sorted(p for p in package.glob("*.py") if p.name not in ROLE_MODULES)


def _lines(path: Path) -> int:
    return len(path.read_text().splitlines())


@pytest.mark.parametrize("service", PACKAGES)
def test_no_use_case_module_is_over_300_lines(service: str) -> None:
    package = PACKAGES[service]
    too_long = {p.name: lines for p in _use_case_modules(package) if (lines := _lines(p)) > MAX_USE_CASE_LINES}
    assert too_long == {}


FUNCTIONS = ast.FunctionDef | ast.AsyncFunctionDef


def _nested_functions(tree: ast.Module) -> list[str]:
    return [f"{inner.name} in {outer.name}" for outer in tree.body if isinstance(outer, FUNCTIONS)
            for inner in ast.walk(outer) if inner is not outer and isinstance(inner, FUNCTIONS)]


def _assigned(tree: ast.Module) -> set[str]:
    targets = [t for node in tree.body if isinstance(node, ast.Assign) for t in node.targets]
    targets += [node.target for node in tree.body if isinstance(node, ast.AnnAssign)]
    return {t.id for t in targets if isinstance(t, ast.Name)}


@pytest.mark.parametrize("service", [name for name in SERVICES if (PACKAGES[name] / "handlers.py").exists()])
def test_consumers_are_module_level_handlers_in_a_map(service: str) -> None:
    """Handlers sit at module level in `HANDLERS` (event type -> handlers), bound by `Consumers.register_map`; none
    is nested in a `register()` closure (issue 32)."""
    tree = _tree(PACKAGES[service] / "handlers.py")
    assert "HANDLERS" in _assigned(tree)
    assert _nested_functions(tree) == []


def test_the_handler_check_sees_a_closure() -> None:
    tree = ast.parse("def register(consumers):\n    @consumers.on('x')\n    async def keep(session, d, e):\n"
                     "        pass\n")
    assert _nested_functions(tree) == ["keep in register"] and "HANDLERS" not in _assigned(tree)
