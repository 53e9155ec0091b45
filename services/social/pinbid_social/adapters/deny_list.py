"""The link check without a Web Risk key: a local list of hosts (one a line, `#` comments), each barring itself and
every name under it."""

from pathlib import Path

DEFAULT = Path(__file__).resolve().parent.parent / "link_deny_list.txt"


def read_hosts(path: Path) -> frozenset[str]:
    lines = (line.split("#", 1)[0].strip().lower().rstrip(".") for line in path.read_text().splitlines())
    return frozenset(line for line in lines if line)


class DenyList:
    def __init__(self, path: Path | None = None):
        self.path = path or DEFAULT
        self.hosts = read_hosts(self.path)

    async def threat(self, url: str, host: str) -> str | None:
        labels = host.lower().rstrip(".").split(".")
        for n in range(len(labels) - 1):
            if ".".join(labels[n:]) in self.hosts:
                return "DENY_LIST"
        return None
