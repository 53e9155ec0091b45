"""How the launcher's one-shot commands (migrate, dlq, replay-outbox) fail: exit status 1 and one line that
says what failed and why, never a stack trace."""

import contextlib
from collections.abc import Iterator


@contextlib.contextmanager
def one_line_on_failure(what: str) -> Iterator[None]:
    try:
        yield
    except Exception as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise SystemExit(f"{what}: {type(exc).__name__}: {reason}") from None
