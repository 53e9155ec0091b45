"""`make run` to ready on a warm install: time from starting the embedded process to /api/health
answering (embedded PostgreSQL start, migrations check, services and gateway up), with data already
there (a second run). Prints the figures of several runs."""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .common import free_port, wait_for


def once(folder: Path) -> float:
    port = free_port()
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "pinbid_launcher", "embedded", "--port", str(port)],
                               env={**os.environ, "PINBID_VAR": str(folder)}, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        wait_for(f"http://127.0.0.1:{port}/api/health")
        return time.perf_counter() - start
    finally:
        process.terminate()
        process.wait(timeout=30)


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="pinbid-startup-"))
    first = once(folder)
    warm = [once(folder) for _ in range(3)]
    print(f"startup: first run (initdb, migrations, demo data) {first:.2f} s; "
          f"warm runs {', '.join(f'{w:.2f}' for w in warm)} s (best {min(warm):.2f} s)")


if __name__ == "__main__":
    main()
