"""The garbage collector while a launcher process starts. Starting imports the web stack, the ORM and a service's
models and builds its app: some 180,000 objects kept for the life of the process, and no garbage to speak of. The
collector walked them again and again while they were made, a third of a service's start (1.56 s of CPU instead of
1.01 s, docs/benchmarks.md). `__main__` holds it off from its first import; each command calls `started()` once it
is built, before it serves or works."""

import gc

# objects made before the collector's first walk of the youngest generation (CPython's default is 700). A serving
# process makes garbage that lives for one request or one delivery: with room for 50,000, it dies before that walk
# instead of being promoted, and the walks of every generation, whose cost grows with what lives long (a gateway's
# 10,000 open streams: 600 ms a full walk), become rare (docs/decisions/operations.md).
YOUNG_OBJECTS = 50_000


def hold_off() -> None:
    gc.disable()


def started() -> None:
    """What exists now lives as long as the process: it is left out of the collector's walks, which begin now."""
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS, *gc.get_threshold()[1:])
    gc.enable()
