"""A finished test's database made ready for the next test of the same package: its rows removed, its
sequences restarted, under a name never handed out before. Cloning a template costs PostgreSQL a copy of every
page through the WAL and dropping it a checkpoint (a quarter of a second of CPU each, half the CPU of the Python
suites); emptying the few tables a test wrote to costs a few milliseconds.

A database is reused only while it still looks exactly like a fresh clone apart from its rows: the same schema,
functions, triggers, enum labels and migration version as its template, no planner statistics, no large
objects, no per-database settings, no prepared transaction. Anything else (a test that migrated, altered or
analysed it) and it is dropped instead."""

import psycopg

_IN_USER_SCHEMA = ("NOT IN ('pg_catalog', 'information_schema') "
                   "AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'")

# what must not differ from the template; rows of the tables aside (alembic_version's included)
FINGERPRINT = f"""
SELECT md5(string_agg(part, E'\\n' ORDER BY part)) FROM (
  SELECT format('relation %s.%s %s %s', n.nspname, c.relname, c.relkind, c.relpersistence) AS part
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname {_IN_USER_SCHEMA}
  UNION ALL
  SELECT format('column %s.%s %s %s %s', c.oid::regclass, a.attname, format_type(a.atttypid, a.atttypmod),
                a.attnotnull, pg_get_expr(d.adbin, d.adrelid))
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
   WHERE a.attnum > 0 AND NOT a.attisdropped AND n.nspname {_IN_USER_SCHEMA}
  UNION ALL
  SELECT format('constraint %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid)) FROM pg_constraint
   WHERE connamespace IN (SELECT oid FROM pg_namespace n WHERE n.nspname {_IN_USER_SCHEMA})
  UNION ALL
  SELECT format('index %s', pg_get_indexdef(i.indexrelid)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname {_IN_USER_SCHEMA}
  UNION ALL
  SELECT format('function %s %s', p.oid::regprocedure, md5(pg_get_functiondef(p.oid))) FROM pg_proc p
    JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname {_IN_USER_SCHEMA} AND p.prokind IN ('f', 'p')
  UNION ALL
  SELECT format('trigger %s %s', pg_get_triggerdef(t.oid), t.tgenabled) FROM pg_trigger t WHERE NOT t.tgisinternal
  UNION ALL
  SELECT format('enum %s %s %s', e.enumtypid::regtype, e.enumsortorder, e.enumlabel) FROM pg_enum e
  UNION ALL
  SELECT format('extension %s %s', extname, extversion) FROM pg_extension
  UNION ALL
  SELECT format('statistics %s', count(*)) FROM pg_statistic s JOIN pg_class c ON c.oid = s.starelid
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname {_IN_USER_SCHEMA}
  UNION ALL
  SELECT format('large objects %s', count(*)) FROM pg_largeobject_metadata
  UNION ALL
  SELECT format('settings %s', setconfig) FROM pg_db_role_setting
   WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
  UNION ALL
  SELECT format('prepared %s', count(*)) FROM pg_prepared_xacts WHERE database = current_database()
  UNION ALL
  SELECT format('migrated to %s', version_num) FROM alembic_version
) AS parts
"""

_TABLES = f"""
SELECT format('%I.%I', n.nspname, c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE c.relkind IN ('r', 'p') AND n.nspname {_IN_USER_SCHEMA} AND c.relname <> 'alembic_version'
"""
_USED_SEQUENCES = "SELECT format('%I.%I', schemaname, sequencename) FROM pg_sequences WHERE last_value IS NOT NULL"


def fingerprint(conn: psycopg.Connection) -> str:
    return conn.execute(FINGERPRINT).fetchone()[0]


def empty(conn: psycopg.Connection) -> None:
    """The rows of every table that has any removed (its files replaced, as a fresh clone's), and every sequence
    that was used restarted."""
    tables = [row[0] for row in conn.execute(_TABLES)]
    if tables:
        probe = " UNION ALL ".join(f"SELECT %s::text WHERE EXISTS (SELECT FROM {table})" for table in tables)
        written = [row[0] for row in conn.execute(probe, tables)]
        if written:
            conn.execute(f"TRUNCATE {', '.join(written)} RESTART IDENTITY CASCADE")
    for (sequence,) in conn.execute(_USED_SEQUENCES).fetchall():
        conn.execute(f"ALTER SEQUENCE {sequence} RESTART")
