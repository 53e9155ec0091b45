"""`make lint` migrates a fresh database per service and compares it with the models (pinbid_kit.migration_check):
marketplace's match, and a difference is reported by name."""

import uuid

import psycopg
from pinbid_kit.migration_check import PG, check, differences
from pinbid_kit.migrations import upgrade


def test_marketplaces_migrations_build_its_models():
    assert check("pinbid_marketplace") is None


def test_a_column_the_migrations_lost_is_reported():
    database = f"migration_drift_{uuid.uuid4().hex[:8]}"
    url = f"{PG}/{database}"
    try:
        upgrade(url, "pinbid_marketplace")
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("ALTER TABLE bids DROP COLUMN clicks")
        found = differences(url, "pinbid_marketplace")
        assert found is not None and "add_column" in found and "clicks" in found
    finally:
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
