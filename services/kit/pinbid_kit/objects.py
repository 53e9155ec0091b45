"""An object store for files people upload (screenshots as evidence): one port, two adapters. The embedded run keeps
objects as files under `var/objects`; the distributed and Kubernetes runs keep them in an S3-compatible store
(MinIO) through the maintained `minio` client. Keys are chosen by the caller (random, never a user's file name)."""

import asyncio
import io
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)*$")


class ObjectMissing(Exception):
    """No object under that key."""


class ObjectStoreError(Exception):
    """The store could not be reached or refused the call."""


@dataclass(frozen=True)
class StoredObject:
    data: bytes
    content_type: str


class ObjectStore(Protocol):
    async def put(self, key: str, data: bytes, content_type: str) -> None: ...

    async def get(self, key: str) -> StoredObject:
        """Raises ObjectMissing when nothing is stored under `key`."""
        ...

    async def delete(self, key: str) -> None:
        """Removes the object; a missing one is not an error."""
        ...


def checked_key(key: str) -> str:
    """Keys are relative paths of safe segments: no `..`, no leading slash, nothing a file system reads specially."""
    if len(key) > 512 or not _KEY.match(key) or any(part in {".", ".."} for part in key.split("/")):
        raise ValueError(f"not a valid object key: {key!r}")
    return key


class LocalObjects:
    """Objects as files under `root` (the embedded run: `var/objects`). The content type is kept beside the data."""

    def __init__(self, root: Path):
        self.root = root

    def _path(self, key: str) -> Path:
        return self.root / checked_key(key)

    async def put(self, key: str, data: bytes, content_type: str) -> None:
        await asyncio.to_thread(self._write, self._path(key), data, content_type)

    @staticmethod
    def _write(path: Path, data: bytes, content_type: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        for target, body in ((path.with_name(path.name + ".type"), content_type.encode()), (path, data)):
            partial = target.with_name(target.name + ".part")
            partial.write_bytes(body)
            os.replace(partial, target)  # a reader never sees half a file

    async def get(self, key: str) -> StoredObject:
        path = self._path(key)
        try:
            data, kind = await asyncio.to_thread(
                lambda: (path.read_bytes(), path.with_name(path.name + ".type").read_text()))
        except FileNotFoundError:
            raise ObjectMissing(key) from None
        return StoredObject(data=data, content_type=kind)

    async def delete(self, key: str) -> None:
        path = self._path(key)
        for target in (path, path.with_name(path.name + ".type")):
            await asyncio.to_thread(target.unlink, missing_ok=True)


class S3Objects:
    """Objects in a bucket of an S3-compatible store (MinIO, or S3 itself) through the `minio` client. Its calls
    block, so each runs in a worker thread. The bucket is created on first use when missing."""

    def __init__(self, *, endpoint: str, bucket: str, access_key: str, secret_key: str, secure: bool,
                 region: str | None = None):
        import urllib3
        from minio import Minio

        self.bucket = bucket
        # bounded: a store that is down answers the upload with an error in seconds, not after minutes of retries
        http = urllib3.PoolManager(timeout=urllib3.Timeout(connect=3, read=20), maxsize=10,
                                   retries=urllib3.Retry(total=2, backoff_factor=0.2,
                                                         status_forcelist=[500, 502, 503, 504]))
        self._client = Minio(endpoint, access_key=access_key, secret_key=secret_key, secure=secure, region=region,
                             http_client=http)
        self._bucket_ready = False

    def _ensure_bucket(self) -> None:
        if self._bucket_ready:
            return
        if not self._client.bucket_exists(self.bucket):
            from minio.error import S3Error

            try:
                self._client.make_bucket(self.bucket)
            except S3Error as error:  # another replica made it first
                if error.code not in {"BucketAlreadyOwnedByYou", "BucketAlreadyExists"}:
                    raise
        self._bucket_ready = True

    async def _call(self, what, *args, **kwargs):
        from minio.error import MinioException, S3Error
        from urllib3.exceptions import HTTPError

        def run():
            self._ensure_bucket()
            return what(*args, **kwargs)

        try:
            return await asyncio.to_thread(run)
        except S3Error as error:
            if error.code in {"NoSuchKey", "NoSuchObject"}:
                raise ObjectMissing(error.object_name or "") from None
            raise ObjectStoreError(f"{error.code}: {error.message}") from None
        except (MinioException, HTTPError, OSError) as error:
            raise ObjectStoreError(str(error)) from None

    async def put(self, key: str, data: bytes, content_type: str) -> None:
        await self._call(self._client.put_object, self.bucket, checked_key(key), io.BytesIO(data), len(data),
                         content_type=content_type)

    async def get(self, key: str) -> StoredObject:
        def read() -> StoredObject:
            response = self._client.get_object(self.bucket, checked_key(key))
            try:
                return StoredObject(data=response.read(),
                                    content_type=response.headers.get("Content-Type", "application/octet-stream"))
            finally:
                response.close()
                response.release_conn()

        return await self._call(read)

    async def delete(self, key: str) -> None:
        await self._call(self._client.remove_object, self.bucket, checked_key(key))


def read_secret(value: str, file: Path | None) -> str:
    """A secret from its variable or, when set, from a file (a mounted Kubernetes secret), the file winning."""
    if file is not None:
        return file.read_text().strip()
    return value


def object_store(kind: str, *, local_root: Path, endpoint: str, bucket: str, access_key: str, secret_key: str,
                 secure: bool, region: str | None = None) -> ObjectStore:
    if kind == "s3":
        return S3Objects(endpoint=endpoint, bucket=bucket, access_key=access_key, secret_key=secret_key,
                         secure=secure, region=region)
    return LocalObjects(local_root)
