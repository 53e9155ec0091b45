"""contracts/events/<type>.json from the kit's event catalog (`sync`, called by contracts.py)."""

import json
import sys
from pathlib import Path

from pinbid_kit.events.contracts import schemas
from pinbid_kit.paths import repo_root


def sync(check: bool) -> int:
    """Writes what is missing or stale and removes what is no longer an event; with `check`, only says so."""
    folder = repo_root() / "contracts" / "events"
    stale = []
    wanted = {f"{t}.json": json.dumps(s, indent=2, sort_keys=True) + "\n" for t, s in schemas().items()}
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in wanted.items():
        path = folder / name
        if not path.exists() or path.read_text() != text:
            stale.append(name)
            if not check:
                path.write_text(text)
    for path in folder.glob("*.json"):
        if path.name not in wanted:
            stale.append(path.name)
            if not check:
                path.unlink()
    if check and stale:
        print("contracts/events is out of date: " + ", ".join(sorted(stale)), file=sys.stderr)
        print("run: make contracts", file=sys.stderr)
        return 1
    print(f"{len(wanted)} event schemas {'checked' if check else 'written'} in {Path(folder)}")
    return 0
