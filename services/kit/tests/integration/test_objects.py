"""The object store's two adapters behave the same: files under a folder, and a real S3-compatible server (moto's,
in this process, on loopback) through the minio client."""


import pytest
from moto.server import ThreadedMotoServer
from pinbid_kit.objects import LocalObjects, ObjectMissing, ObjectStoreError, S3Objects, checked_key, read_secret
from pinbid_testing import free_port


@pytest.fixture(scope="module")
def s3_server():
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    yield f"127.0.0.1:{port}"
    server.stop()


def s3(endpoint: str, bucket: str = "pinbid-evidence") -> S3Objects:
    return S3Objects(endpoint=endpoint, bucket=bucket, access_key="test-key", secret_key="test-secret",
                     secure=False, region="us-east-1")


@pytest.fixture(params=["local", "s3"])
def store(request, tmp_path):
    if request.param == "local":
        return LocalObjects(tmp_path / "objects")
    return s3(request.getfixturevalue("s3_server"))


async def test_put_get_delete_round_trip(store):
    await store.put("evidence/abc/1.png", b"\x89PNG pixels", "image/png")
    found = await store.get("evidence/abc/1.png")
    assert (found.data, found.content_type) == (b"\x89PNG pixels", "image/png")
    await store.put("evidence/abc/1.png", b"newer", "image/webp")  # a put replaces
    assert (await store.get("evidence/abc/1.png")).data == b"newer"
    await store.delete("evidence/abc/1.png")
    with pytest.raises(ObjectMissing):
        await store.get("evidence/abc/1.png")
    await store.delete("evidence/abc/1.png")  # deleting what is gone is fine


async def test_a_missing_key_is_object_missing(store):
    with pytest.raises(ObjectMissing):
        await store.get("evidence/none/here.jpg")


async def test_the_s3_bucket_is_made_on_first_use_and_shared(s3_server):
    first, second = s3(s3_server, "fresh-bucket"), s3(s3_server, "fresh-bucket")
    await first.put("a/b.jpg", b"one", "image/jpeg")
    assert (await second.get("a/b.jpg")).data == b"one"  # a second replica finds the bucket made


async def test_an_unreachable_store_is_a_store_error():
    with pytest.raises(ObjectStoreError):
        await s3(f"127.0.0.1:{free_port()}").put("a/b.jpg", b"x", "image/jpeg")


def test_keys_cannot_climb_out_of_the_store(tmp_path):
    for bad in ("../etc/passwd", "/abs", "a/../../b", "a//b", "", "a/./b"):
        with pytest.raises(ValueError):
            checked_key(bad)
    assert checked_key("evidence/0f/1.webp") == "evidence/0f/1.webp"


def test_a_secret_file_wins_over_the_variable(tmp_path):
    (tmp_path / "key").write_text("from-file\n")
    assert read_secret("from-env", tmp_path / "key") == "from-file"
    assert read_secret("from-env", None) == "from-env"
