"""The services this installation has. Each service package `pinbid_<name>` names itself in `SERVICE` (its
`__init__.py`), and has a `settings` module with SETTINGS (its settings class) and an `app` module with
build(settings) -> Service (the demo world is the launcher's: `pinbid_demo`). A service's `app` is imported when
first used: a process that runs one service (`make up` starts a dozen) imports only its own, and only once its
settings have been read and found valid."""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the runtime brings the web stack, which reading a service's settings does not need
    from pinbid_kit.runtime import Service

ALL = ("identity", "social", "marketplace", "payments", "content")


@dataclass(frozen=True)
class ServiceModule:
    name: str
    package: str

    @cached_property
    def module(self) -> ModuleType:
        return importlib.import_module(f"{self.package}.app")

    def settings(self, **overrides):
        """Its settings from the environment; a wrong value stops the process with one line naming it."""
        return importlib.import_module(f"{self.package}.settings").SETTINGS.load(**overrides)

    def build(self, settings) -> Service:
        return self.module.build(settings)


def installed() -> list[ServiceModule]:
    found = []
    for name in ALL:
        package = f"pinbid_{name}"
        if importlib.util.find_spec(package) is not None and importlib.util.find_spec(f"{package}.app") is not None:
            found.append(ServiceModule(name, package))
    return found


def get(name: str) -> ServiceModule:
    for service in installed():
        if service.name == name:
            return service
    raise SystemExit(f"unknown or not installed service: {name} (installed: {[s.name for s in installed()]})")
