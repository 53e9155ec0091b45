"""`make up`'s readiness wait asks who answers: a port held by another process is not its service being ready."""

import json
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from pinbid_launcher import local


def answering(body: bytes, status: int = 200) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the standard library's name)
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def ready_as(service: str, status: int = 200) -> ThreadingHTTPServer:
    return answering(json.dumps({"status": "ready", "service": service, "checks": {}}).encode(), status)


def test_its_own_service_answering_is_ready():
    server = ready_as("identity")
    try:
        with httpx.Client(timeout=2) as http:
            local.wait_ready(http, "identity-2", server.server_address[1], timeout=5)
    finally:
        server.shutdown()


def test_another_service_on_the_port_stops_the_wait_at_once_naming_it():
    server = ready_as("gateway")  # the second gateway took identity's port
    try:
        started = time.monotonic()
        with httpx.Client(timeout=2) as http, pytest.raises(SystemExit, match=r"port \d+ answers as gateway, not "
                                                                              r"identity: another process holds"):
            local.wait_ready(http, "identity", server.server_address[1], timeout=30)
        assert time.monotonic() - started < 5
    finally:
        server.shutdown()


def test_something_that_is_not_pinbid_on_the_port_is_not_ready():
    server = answering(b"<html>hello</html>")
    try:
        with httpx.Client(timeout=2) as http, pytest.raises(SystemExit, match="answers as something that is not "
                                                                              "Pinbid, not payments"):
            local.wait_ready(http, "payments", server.server_address[1], timeout=30)
    finally:
        server.shutdown()


def test_its_process_gone_stops_the_wait_with_its_exit_status():
    process = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    process.wait()
    with httpx.Client(timeout=2) as http, pytest.raises(SystemExit, match=r"identity exited \(status 3\) before it "
                                                                          r"was ready"):
        local.wait_ready(http, "identity", 1, process, timeout=30)


def test_not_ready_yet_is_waited_for_then_times_out_with_one_line():
    server = ready_as("content", status=503)
    try:
        with httpx.Client(timeout=2) as http, pytest.raises(SystemExit, match="content did not become ready"):
            local.wait_ready(http, "content", server.server_address[1], timeout=1)
    finally:
        server.shutdown()
