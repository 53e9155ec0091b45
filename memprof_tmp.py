"""tracemalloc diff per 1,000 idle streams in the gateway (server in this process, client in a child)."""
import asyncio, gc, os, subprocess, sys, tempfile, tracemalloc, uuid
from pathlib import Path
import uvicorn
from pinbid_gateway.app import Gateway
from pinbid_gateway.settings import GatewaySettings
from pinbid_gateway.upstreams import Upstreams
from pinbid_kit.bus import InProcessBus
from pinbid_kit.tokens import TokenSigner, TokenVerifier, generate_keypair
from benchmarks.common import free_port

CLIENT = r'''
import asyncio, sys, uvloop
from benchmarks.live_fanout import open_streams, stream_request
import uuid
async def main():
    port, token, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    readers = await open_streams(port, stream_request(port, token, uuid.uuid4()), n, None)
    print("open", flush=True)
    await asyncio.sleep(3600)
uvloop.run(main())
'''

async def main(n):
    folder = Path(tempfile.mkdtemp())
    generate_keypair(folder / "k.pem", folder / "k.pub")
    token = TokenSigner((folder / "k.pem").read_bytes(), ttl_seconds=3600).sign(uuid.uuid4(), "BUYER", 1)
    gw = Gateway(GatewaySettings(web_dist=folder, jwt_public_key_file=folder / "k.pub"), Upstreams.in_process({}, timeout=5),
                 TokenVerifier.from_file(folder / "k.pub"))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(gw.app, host="127.0.0.1", port=port, log_config=None, lifespan="off", access_log=False))
    task = asyncio.create_task(server.serve())
    while not server.started: await asyncio.sleep(0.05)
    # warm-up
    w = subprocess.Popen([sys.executable, "-c", CLIENT, str(port), token, "50"], stdout=subprocess.PIPE, text=True)
    await asyncio.to_thread(w.stdout.readline); w.kill(); w.wait(); await asyncio.sleep(1)
    gc.collect()
    tracemalloc.start(12)
    before = tracemalloc.take_snapshot()
    c = subprocess.Popen([sys.executable, "-c", CLIENT, str(port), token, str(n)], stdout=subprocess.PIPE, text=True)
    await asyncio.to_thread(c.stdout.readline); await asyncio.sleep(1); gc.collect()
    after = tracemalloc.take_snapshot()
    print("hub", gw.hub.connections)
    stats = after.compare_to(before, "lineno")
    total = sum(s.size_diff for s in stats)
    print(f"total traced per stream: {total / n / 1024:.2f} KiB")
    for s in stats[:25]:
        print(f"{s.size_diff / n:8.0f} B/stream  {s.traceback[0]}")
    stats = after.compare_to(before, "traceback")
    c.kill(); c.wait()
    server.should_exit = True
    await task

asyncio.run(main(int(sys.argv[1])))
