"""The runtime kit stays at the bottom: it never imports test support, the launcher or the demo world, neither
at module level nor inside a function (what the old AsyncAPI writer did with the launcher)."""

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pinbid_kit

FORBIDDEN = ("pytest", "_pytest", "pinbid_testing", "pinbid_launcher", "pinbid_demo")
KIT = Path(pinbid_kit.__file__).parent


def imported_names(source: str) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def forbidden(names: set[str]) -> set[str]:
    return {name for name in names if name.split(".")[0] in FORBIDDEN}


def test_no_kit_module_names_a_forbidden_package():
    found = {str(path.relative_to(KIT)): sorted(forbidden(imported_names(path.read_text())))
             for path in KIT.rglob("*.py")}
    assert {path: names for path, names in found.items() if names} == {}


def test_importing_every_kit_module_loads_no_forbidden_package():
    modules = [info.name for info in pkgutil.walk_packages([str(KIT)], "pinbid_kit.")]
    program = (f"import importlib, json, sys\nfor name in {modules!r}: importlib.import_module(name)\n"
               "print(json.dumps(sorted(sys.modules)))")
    loaded = json.loads(subprocess.run([sys.executable, "-c", program], check=True, capture_output=True,
                                       text=True).stdout)
    assert len(modules) > 20
    assert sorted(forbidden(set(loaded))) == []


def test_the_check_sees_a_function_level_import():
    source = "def installed():\n    from pinbid_launcher.services import installed\n    import pytest\n"
    assert forbidden(imported_names(source)) == {"pinbid_launcher.services", "pytest"}
