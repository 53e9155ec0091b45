"""What Pinbid's tests share, and only its tests (the runtime kit never imports it): fixtures for real
PostgreSQL and RabbitMQ (`plugin`, loaded by the root conftest.py), databases cloned from one migrated
template per service and recycled between tests, a movable clock, and helpers to run services and wait for what
they do."""

from .clock import MovableClock
from .databases import refusing_connections, scratch_database
from .servers import AMQP_URL, POSTGRES_URL, free_port
from .services import announce_a_post, bearer_for, client, deliver, outbox_events, running
from .statements import Counted, counting_statements
from .waiting import eventually, eventually_sync, serving, wait_until_serving

__all__ = ["AMQP_URL", "POSTGRES_URL", "Counted", "MovableClock", "announce_a_post", "bearer_for", "client",
           "counting_statements", "deliver", "eventually", "eventually_sync", "free_port", "outbox_events",
           "refusing_connections", "running", "scratch_database", "serving", "wait_until_serving"]
