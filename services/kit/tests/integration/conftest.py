import pytest
from pinbid_kit.db import Database, async_url
from pinbid_kit.tables import add_messaging_tables
from sqlalchemy import Column, Integer, MetaData, String, Table, create_engine

metadata = MetaData()
add_messaging_tables(metadata)
widgets = Table("widgets", metadata, Column("id", Integer, primary_key=True), Column("name", String(50)),
                Column("touched", Integer, nullable=False, server_default="0"))


@pytest.fixture
async def db(new_database):
    url = new_database()
    engine = create_engine(async_url(url))
    metadata.create_all(engine)
    engine.dispose()
    database = Database(url)
    yield database
    await database.dispose()
