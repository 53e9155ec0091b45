import shutil
from pathlib import Path

import pytest
from pinbid_content.app import build
from pinbid_content.settings import DEFAULT_ARTICLES, ContentSettings

PUBLIC_URL = "http://pinbid.test"


@pytest.fixture
def articles_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "articles"
    folder.mkdir()
    return folder


@pytest.fixture
def shipped_articles(articles_dir: Path) -> Path:
    for path in DEFAULT_ARTICLES.iterdir():
        shutil.copy(path, articles_dir / path.name)
    return articles_dir


@pytest.fixture
async def make_service(new_database, tmp_path: Path):
    built = []

    def make(articles: Path, **overrides):
        settings = ContentSettings(database_url=new_database("pinbid_content"), articles_dir=articles,
                                   newsletter_secret="test-secret", public_url=PUBLIC_URL,
                                   mail_folder=tmp_path / "mail", **overrides)
        service = build(settings)
        built.append(service)
        return service

    yield make
    for service in built:
        await service.db.dispose()
