"""The same proof, kept in an S3-compatible store (moto's S3 server in this process, on loopback) as in the
distributed and Kubernetes runs: the screenshot goes to the bucket, is served back from it, and a refused upload
leaves nothing there."""

import socket

import pytest
from minio import Minio
from moto.server import ThreadedMotoServer

from .test_trust import Trusted, png, shot


@pytest.fixture(scope="module")
def s3_endpoint():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    yield f"127.0.0.1:{port}"
    server.stop()


@pytest.fixture
def settings(settings, s3_endpoint):
    return settings.model_copy(update={"object_store": "s3", "s3_endpoint": s3_endpoint, "s3_bucket": "evidence",
                                       "s3_access_key": "test", "s3_secret_key": "test-secret",
                                       "s3_region": "us-east-1"})


def bucket_keys(endpoint: str) -> list[str]:
    client = Minio(endpoint, access_key="test", secret_key="test-secret", secure=False, region="us-east-1")
    if not client.bucket_exists("evidence"):
        return []
    return [o.object_name for o in client.list_objects("evidence", recursive=True)]


async def test_the_screenshot_is_kept_in_the_bucket_and_served_from_it(world, s3_endpoint):
    t = Trusted(world)
    bid = await t.manual_bid()
    refused = await t.confirm(bid, shot(png() + b"<script>x</script>"))
    assert refused.status_code == 422 and bucket_keys(s3_endpoint) == []
    assert (await t.confirm(bid, shot())).status_code == 200
    [key] = bucket_keys(s3_endpoint)
    [(stored_key,)] = await t.social.sql("SELECT object_key FROM evidence")
    assert key == stored_key and key.startswith(f"evidence/{bid}/") and key.endswith(".png")
    evidence = (await t.trust(bid)).json()["evidence"][0]
    image = await t.social.http.get(evidence["url"].removeprefix("/api"), headers=t.brand())
    assert image.status_code == 200 and image.headers["content-type"] == "image/png"
    assert image.content.startswith(b"\x89PNG")
    late = await t.answer(bid)  # nothing to answer: refused, and its upload removed from the bucket again
    assert late.status_code == 409 and bucket_keys(s3_endpoint) == [key]
