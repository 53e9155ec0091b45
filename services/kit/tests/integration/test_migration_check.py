"""`python -m pinbid_kit.migration_check` sees a change to a kit table that no migration brings: the services'
migrations create the kit's tables from released steps (kit_migrations/), not from tables.py as it is now, so an
edit of tables.py alone leaves every service's migrated database behind its models."""

import subprocess
import sys
import textwrap

from pinbid_kit.migrations import kit_step_statements
from pinbid_testing.servers import POSTGRES_URL

# Runs in a process of its own: the change to tables.py must be in place before the service's models import it.
CHANGED_KIT = textwrap.dedent("""
    import sys
    from sqlalchemy import Column, Text
    import pinbid_kit.tables as tables

    released = tables.add_messaging_tables
    def changed(metadata):
        released(metadata)
        {change}
    tables.add_messaging_tables = changed

    from pinbid_kit.migration_check import check
    found = check("pinbid_content", sys.argv[1])
    print("MATCH" if found is None else "DIFFERS: " + found)
""")


def check_with(change: str) -> str:
    script = CHANGED_KIT.format(change=change)
    done = subprocess.run([sys.executable, "-c", script, POSTGRES_URL], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


CHANGES = {  # three kinds of change, each seen on its own in the one diff
    "partition_key": 'metadata.tables["outbox"].append_column(Column("partition_key", Text))',
    "processed_at": 'metadata.tables["inbox"].c.processed_at.server_default = None',
    "subject": 'metadata.tables["mail_queue"].c.subject.type.length = 500',
}


def test_a_kit_table_changed_without_a_migration_fails_the_check():
    result = check_with("; ".join(CHANGES.values()))
    assert result.startswith("DIFFERS: ")
    assert [name for name in CHANGES if name not in result] == []


def test_a_released_step_reads_as_its_statements():
    statements = kit_step_statements("revocations_0001")
    assert len(statements) == 1 and statements[0].startswith("CREATE TABLE token_revocations (")
    messaging = kit_step_statements("messaging_0001")
    assert [s.split("(")[0].strip() for s in messaging] == [
        "CREATE TABLE outbox", "CREATE INDEX outbox_unsent ON outbox", "CREATE TABLE inbox",
        "CREATE TABLE mail_queue", "CREATE INDEX mail_queue_unsent ON mail_queue"]
