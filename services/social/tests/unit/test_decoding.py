"""Screenshots are decoded one per person, then in the process's turn: someone else's many uploads delay a person by
at most one decode, and nothing is kept for people who are not uploading."""

import asyncio
import time
import uuid

from pinbid_social.decoding import Decoding


async def test_one_persons_many_uploads_delay_another_by_one_decode_at_most():
    decoding = Decoding(per_process=1)
    finished: list[str] = []

    def decode(data: bytes) -> bytes:
        time.sleep(0.02)
        finished.append(data.decode())
        return data

    flooder, genuine = uuid.uuid4(), uuid.uuid4()
    flood = [asyncio.create_task(decoding.run(flooder, decode, f"flood {n}".encode())) for n in range(8)]
    await asyncio.sleep(0)  # the flood is queued first
    mine = asyncio.create_task(decoding.run(genuine, decode, b"genuine"))
    assert await mine == b"genuine"
    assert finished.index("genuine") <= 1, finished
    await asyncio.gather(*flood)
    assert [f for f in finished if f.startswith("flood")] == [f"flood {n}" for n in range(8)]
    assert decoding.people_waiting() == 0


async def test_a_failed_decode_frees_the_persons_turn():
    decoding = Decoding()
    person = uuid.uuid4()

    def broken(_: bytes) -> None:
        raise ValueError("not an image")

    for _ in range(2):
        try:
            await decoding.run(person, broken, b"x")
        except ValueError:
            pass
    assert decoding.people_waiting() == 0
    assert await decoding.run(person, bytes.upper, b"ok") == b"OK"
