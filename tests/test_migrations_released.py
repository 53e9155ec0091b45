"""Shipped migrations are never edited again: every migration file (each service's `migrations/versions/*.py` and
the kit's released steps, `services/kit/pinbid_kit/kit_migrations/*.sql`) keeps the sha256 it was released with,
recorded in `tests/released_migrations.json`. The record only grows: a new migration is added to it with

    uv run python tests/test_migrations_released.py --add

which never changes nor drops an entry. An edited, removed or unrecorded migration fails here."""

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "tests" / "released_migrations.json"
PATTERNS = ("services/*/pinbid_*/migrations/versions/*.py", "services/kit/pinbid_kit/kit_migrations/*.sql")


def migration_files(root: Path = ROOT) -> dict[str, str]:
    """Every migration file under `root`, by its path from there, with its sha256."""
    found = {}
    for pattern in PATTERNS:
        for path in root.glob(pattern):
            if path.name != "__init__.py":
                found[path.relative_to(root).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return dict(sorted(found.items()))


def problems(released: dict[str, str], now: dict[str, str]) -> list[str]:
    """What breaks the rule, one line each: a released file edited or gone, a migration not recorded."""
    found = []
    for path, digest in released.items():
        if path not in now:
            found.append(f"{path}: released, now missing (a shipped migration stays)")
        elif now[path] != digest:
            found.append(f"{path}: edited after its release (add a new migration instead)")
    found += [f"{path}: not recorded (uv run python tests/test_migrations_released.py --add)"
              for path in now if path not in released]
    return found


def test_no_released_migration_is_edited_and_every_migration_is_recorded():
    assert problems(json.loads(RECORD.read_text()), migration_files()) == []


def test_an_edit_a_removal_and_a_new_file_are_each_reported(tmp_path):
    versions = tmp_path / "services" / "shop" / "pinbid_shop" / "migrations" / "versions"
    versions.mkdir(parents=True)
    (versions / "__init__.py").write_text("")
    for name in ("0001_initial.py", "0002_more.py"):
        (versions / name).write_text(f"# {name}\n")
    released = migration_files(tmp_path)
    assert list(released) == ["services/shop/pinbid_shop/migrations/versions/0001_initial.py",
                              "services/shop/pinbid_shop/migrations/versions/0002_more.py"]
    assert problems(released, migration_files(tmp_path)) == []
    (versions / "0001_initial.py").write_text("# 0001_initial.py, edited\n")
    (versions / "0002_more.py").unlink()
    (versions / "0003_new.py").write_text("# new\n")
    assert [line.split(": ")[1].split(" ")[0] for line in problems(released, migration_files(tmp_path))] == [
        "edited", "released,", "not"]


def add_new_files() -> list[str]:
    """Records the migrations not yet recorded; a recorded one is left as it was released."""
    released = json.loads(RECORD.read_text()) if RECORD.exists() else {}
    new = {path: digest for path, digest in migration_files().items() if path not in released}
    RECORD.write_text(json.dumps(dict(sorted({**released, **new}.items())), indent=2) + "\n")
    return sorted(new)


if __name__ == "__main__":
    if sys.argv[1:] != ["--add"]:
        sys.exit("usage: python tests/test_migrations_released.py --add")
    for path in add_new_files():
        print(f"recorded {path}")
