import asyncio
import subprocess
import sys
import tempfile
from datetime import UTC, datetime

import pytest
from pinbid_testing import MovableClock, eventually, eventually_sync, free_port, wait_until_serving

START = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)


def test_the_clock_stays_until_moved():
    clock = MovableClock(START)
    assert clock() == clock() == START
    clock.advance(days=1, minutes=30)
    assert clock() == datetime(2026, 11, 27, 9, 30, tzinfo=UTC)


async def test_eventually_takes_plain_and_async_checks():
    seen: list[int] = []

    async def later() -> None:
        await asyncio.sleep(0.05)
        seen.append(1)

    task = asyncio.create_task(later())
    await eventually(lambda: bool(seen), within=5, every=0.01)

    async def async_check() -> bool:
        return seen == [1]

    await eventually(async_check, within=1)
    await task


async def test_eventually_fails_at_its_deadline():
    with pytest.raises(pytest.fail.Exception, match="not met within 0.1s"):
        await eventually(lambda: False, within=0.1, every=0.02)
    with pytest.raises(pytest.fail.Exception, match="not met within 0.1s"):
        eventually_sync(lambda: False, within=0.1, every=0.02)


def test_waiting_for_a_server_returns_once_it_answers():
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_serving(f"http://127.0.0.1:{port}/", server, within=30)
    finally:
        server.terminate()
        server.wait()


def test_waiting_for_a_server_that_exits_fails_at_once_with_its_log():
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen([sys.executable, "-c", "print('no such setting'); raise SystemExit(1)"],
                                   stdout=log, stderr=subprocess.STDOUT)
        process.wait()
        with pytest.raises(pytest.fail.Exception, match="exited early:\n.*no such setting"):
            wait_until_serving(f"http://127.0.0.1:{free_port()}/", process, log=log, within=30)
