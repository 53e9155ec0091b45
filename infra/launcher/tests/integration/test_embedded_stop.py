"""`make run` stops on SIGTERM during the demo world's seeding, and stops its PostgreSQL. (Seen in a loaded run: the
browser lane's server, sent SIGTERM while still seeding, went on to serve. `Stopped` is now a SystemExit, which a
task's step re-raises out of the loop; an Exception raised in a background task's step only failed that task. Where
the signal lands is up to timing, so this test holds the outcome, not that one interleaving.)"""

import os
import signal
import subprocess
import sys
from pathlib import Path

from pinbid_testing import eventually_sync, free_port

ROOT = Path(__file__).resolve().parents[4]


def test_sigterm_during_the_demo_seeding_stops_the_run_and_its_database(tmp_path):
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "pinbid_launcher", "embedded", "--port", str(free_port()), "--no-demo-bidding"],
            cwd=ROOT, env={**os.environ, "PINBID_VAR": str(tmp_path / "var")}, stdout=out, stderr=subprocess.STDOUT)
        try:
            eventually_sync(lambda: b"pinbid.demo" in log.read_bytes() or process.poll() is not None, within=240)
            assert process.poll() is None, log.read_text()[-3000:]
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=90) is not None
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert b"Uvicorn running" not in log.read_bytes()  # it stopped instead of going on to serve
    postmaster = tmp_path / "var" / "postgres" / "postmaster.pid"
    assert not postmaster.exists(), "the embedded PostgreSQL was left running"
