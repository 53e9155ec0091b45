"""Where an idle live stream's memory goes: a tracemalloc diff over `--streams` idle streams, per stream, by the
line that allocated it.

The gateway (in-process bus, no services) is served by uvicorn in this process, traced; the streams are opened by a
child process (the fan-out benchmark's client), so only the gateway's side is counted.

    uv run python -m benchmarks.live_stream_memory [--streams 1000] [--top 25]
"""

import argparse
import asyncio
import gc
import sys
import tempfile
import tracemalloc
import uuid
from pathlib import Path

from pinbid_gateway.app import Gateway
from pinbid_gateway.settings import GatewaySettings
from pinbid_gateway.upstreams import Upstreams
from pinbid_kit.tokens import TokenSigner, TokenVerifier, generate_keypair
from pinbid_testing import serving

from .common import free_port

ROOT = Path(__file__).resolve().parent.parent
HOLD_STREAMS = """
import asyncio, sys, uuid
import uvloop
from benchmarks.live_fanout import open_streams, stream_request

async def main(port: int, token: str, count: int) -> None:
    readers = await open_streams(port, stream_request(port, token, uuid.uuid4()), count, None)
    print(len(readers), flush=True)
    await asyncio.sleep(3600)

uvloop.run(main(int(sys.argv[1]), sys.argv[2], int(sys.argv[3])))
"""


async def hold_streams(port: int, token: str, count: int) -> asyncio.subprocess.Process:
    """A child holding `count` open streams (returns once all have `ready`)."""
    child = await asyncio.create_subprocess_exec(sys.executable, "-c", HOLD_STREAMS, str(port), token, str(count),
                                                 stdout=asyncio.subprocess.PIPE, cwd=ROOT)
    assert child.stdout is not None
    await child.stdout.readline()
    return child


async def measure(streams: int, top: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="pinbid-live-memory-"))
    generate_keypair(folder / "k.pem", folder / "k.pub")
    token = TokenSigner((folder / "k.pem").read_bytes(), ttl_seconds=3600).sign(uuid.uuid4(), "BUYER", 1)
    gateway = Gateway(GatewaySettings(web_dist=folder, jwt_public_key_file=folder / "k.pub"),
                      Upstreams.in_process({}, timeout=5), TokenVerifier.from_file(folder / "k.pub"))
    port = free_port()
    async with serving(gateway.app, port):
        warm_up = await hold_streams(port, token, 50)  # imports and first-use caches are not a stream's
        warm_up.kill()
        await warm_up.wait()
        await asyncio.sleep(1)
        gc.collect()
        tracemalloc.start(1)
        before = tracemalloc.take_snapshot()
        child = await hold_streams(port, token, streams)
        await asyncio.sleep(1)
        gc.collect()
        after = tracemalloc.take_snapshot()
        stats = after.compare_to(before, "lineno")
        print(f"{gateway.hub.connections} idle streams: {sum(s.size_diff for s in stats) / streams / 1024:.2f} KiB "
              f"traced per stream; by line:")
        for stat in stats[:top]:
            print(f"{stat.size_diff / streams:7.0f} B  {stat.traceback[0]}")
        child.kill()
        await child.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    asyncio.run(measure(args.streams, args.top))


if __name__ == "__main__":
    main()
