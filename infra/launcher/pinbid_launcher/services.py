"""The services this installation has. Each service package `pinbid_<name>` has an `app` module with
NAME, SETTINGS (its settings class) and build(settings) -> Service, and may have `demo.seed(service)`."""

import importlib
import importlib.util
from dataclasses import dataclass
from types import ModuleType

from pinbid_kit.runtime import Service

# in seeding order: demo data of later services is made from the events of earlier ones
ALL = ("identity", "social", "marketplace", "payments", "content")


@dataclass(frozen=True)
class ServiceModule:
    name: str
    package: str
    module: ModuleType

    def settings(self, **overrides):
        return self.module.SETTINGS(**overrides)

    def build(self, settings) -> Service:
        return self.module.build(settings)

    async def seed_demo(self, service: Service) -> int:
        if importlib.util.find_spec(f"{self.package}.demo") is None:
            return 0
        return await importlib.import_module(f"{self.package}.demo").seed(service)


def installed() -> list[ServiceModule]:
    found = []
    for name in ALL:
        package = f"pinbid_{name}"
        if importlib.util.find_spec(package) is not None and importlib.util.find_spec(f"{package}.app") is not None:
            found.append(ServiceModule(name, package, importlib.import_module(f"{package}.app")))
    return found


def get(name: str) -> ServiceModule:
    for service in installed():
        if service.name == name:
            return service
    raise SystemExit(f"unknown or not installed service: {name} (installed: {[s.name for s in installed()]})")
