"""Runs every benchmark of the platform spine in turn."""

import asyncio

from . import event_latency, login, startup


def main() -> None:
    startup.main()
    login.main()
    asyncio.run(event_latency.main())


if __name__ == "__main__":
    main()
