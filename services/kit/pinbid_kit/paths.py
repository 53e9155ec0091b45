import os
from pathlib import Path


def repo_root() -> Path:
    """The checkout's root. Overridable with PINBID_HOME for installed images."""
    home = os.environ.get("PINBID_HOME")
    if home:
        return Path(home)
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "pyproject.toml").exists() and (parent / "services").is_dir():
            return parent
    return Path.cwd()


def var_dir() -> Path:
    """Where local state lives (embedded database, keys, mail, logs): PINBID_VAR or <root>/var."""
    return Path(os.environ.get("PINBID_VAR") or repo_root() / "var")
