"""The garbage collector while a launcher process starts. Starting imports the web stack, the ORM and a service's
models and builds its app: some 180,000 objects kept for the life of the process, and no garbage to speak of. The
collector walked them again and again while they were made, a third of a service's start (1.56 s of CPU instead of
1.01 s, docs/benchmarks.md). `__main__` holds it off from its first import; each command calls `started()` once it
is built, before it serves or works."""

import gc


def hold_off() -> None:
    gc.disable()


def started() -> None:
    """What exists now lives as long as the process: it is left out of the collector's walks, which begin now."""
    gc.freeze()
    gc.enable()
