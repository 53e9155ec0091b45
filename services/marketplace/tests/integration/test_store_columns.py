"""store_write.py writes its columns with array parameters cast to SQL types it takes from the models: the models' types
must be the database's, and every column of a bid must belong to one writer."""

from pinbid_marketplace import store_write
from pinbid_marketplace.models import Bid, Slot
from psycopg._queries import MAX_CACHED_STATEMENT_LENGTH
from sqlalchemy import text
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects.postgresql import psycopg as psycopg_dialect

_TYPES = text("""
    SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute
    WHERE attrelid = CAST(:table AS regclass) AND attnum > 0 AND NOT attisdropped""")


def as_postgresql_names(compiled: str) -> str:
    return compiled.lower().replace("varchar", "character varying").replace(", ", ",")


async def test_the_written_columns_have_the_models_types_in_the_database(world):
    dialect = postgresql.dialect()
    async with world.service.db.autocommit() as conn:
        for table, written in ((Slot.__table__, store_write.SLOT_WRITTEN), (Bid.__table__, store_write.BID_INSERTED)):
            in_database = dict((await conn.execute(_TYPES, {"table": table.name})).all())
            for column in written:
                expected = in_database[column]
                assert as_postgresql_names(table.c[column].type.compile(dialect=dialect)) == expected, column
                cast = as_postgresql_names(store_write.array_element_type(table.c[column]))
                # strings are cast to text: the column's own length check still applies when the value is written
                assert cast == expected or (cast == "text" and expected.startswith("character varying")), column

def test_every_column_of_a_bid_has_one_writer():
    groups = [store_write.BID_INSERTED, store_write.BID_OF_HANDLERS, store_write.BID_COUNTERS]
    named = [c for group in groups for c in group]
    assert len(named) == len(set(named))
    assert set(named) == set(Bid.__table__.c.keys())
    assert set(store_write.BID_UPDATED) <= set(store_write.BID_INSERTED)


def test_the_write_is_short_enough_for_psycopg_to_keep_its_parsed_form():
    sent = str(store_write._WRITE.compile(dialect=psycopg_dialect.dialect())).encode()
    assert len(sent) <= MAX_CACHED_STATEMENT_LENGTH
