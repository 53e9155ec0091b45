"""The launcher's processes start with the garbage collector off and switch it on, with what they built frozen,
once built, with room in the youngest generation (pinbid_launcher/collector.py). Run in a fresh interpreter: the
test process has its own settings."""

import subprocess
import sys

PROBE = """
import gc
import pinbid_launcher.__main__  # what `python -m pinbid_launcher` runs first
from pinbid_launcher import collector
off_while_starting = not gc.isenabled()
import pinbid_launcher.standalone  # a command's imports
collector.started()
print(off_while_starting, gc.isenabled(), gc.get_freeze_count() > 10_000, gc.get_threshold()[0])
"""


def test_the_collector_is_off_while_a_process_starts_and_on_with_its_start_frozen_once_built():
    result = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    # and once serving, the youngest generation has room for a delivery's garbage to die in
    assert result.stdout.split() == ["True", "True", "True", "50000"]
