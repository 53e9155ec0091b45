import re
from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pinbid_content.domain.articles import (
    BadArticle,
    like_pattern,
    parse_article,
    plain_text,
    read_time,
    render_body,
    search_terms,
)
from pinbid_content.library import read_folder
from pinbid_content.settings import DEFAULT_ARTICLES

FRONT = """---
slug: a-post
title: A Post
author: Ana
date: 2026-10-01
excerpt: Short.
category: creator-tips
tags: [Auctions, "#Ad", auctions]
{extra}---
{body}
"""


def parse(name: str = "a.md", extra: str = "", body: str = "Hello **world**.") -> object:
    return parse_article(name, FRONT.format(extra=extra, body=body))


def test_markdown_article_fields_and_defaults():
    article = parse()
    assert (article.slug, article.type, article.title, article.category) == ("a-post", "md", "A Post", "creator-tips")
    assert article.published_at == date(2026, 10, 1)
    assert article.tags == ("auctions", "ad")  # lowercased, '#' dropped, duplicates removed
    assert (article.featured, article.published, article.image_url, article.faq, article.seo) == (
        False, True, None, (), None)
    assert article.content == "Hello **world**." and article.read_time == 1
    assert article.search_text == "a post short. auctions ad hello world."


def test_published_at_wins_over_date_and_description_stands_in_for_excerpt():
    text = FRONT.replace("excerpt: Short.", "description: From description.").format(
        extra="publishedAt: '2026-11-02T10:00:00Z'\n", body="x")
    article = parse_article("a.mdx", text)
    assert article.published_at == date(2026, 11, 2) and article.excerpt == "From description."
    assert article.type == "mdx"


@pytest.mark.parametrize(("extra", "problem"), [
    ("slug: Bad Slug\n", "slug"),
    ("category: Creator Tips\n", "category"),
    ("featured: maybe\n", "featured"),
    ("readTime: 0\n", "readTime"),
    ("imageUrl: javascript:alert(1)\n", "imageUrl"),
    ("faq: [{question: only}]\n", "answer"),
    ("seo: text\n", "seo"),
    ("tags: nope\n", "tags"),
])
def test_bad_front_matter_says_what_to_fix(extra, problem):
    # a key repeated later in YAML wins, so `extra` overrides the valid value above it
    with pytest.raises(BadArticle, match=problem):
        parse(extra=extra)


def test_files_without_front_matter_or_of_other_types_are_refused():
    with pytest.raises(BadArticle, match="front matter"):
        parse_article("a.md", "# Just markdown")
    with pytest.raises(BadArticle, match="unsupported"):
        parse_article("a.txt", FRONT.format(extra="", body="x"))
    with pytest.raises(BadArticle, match="no body"):
        parse(body="   ")


def test_html_is_sanitised_and_counted_without_tags():
    body = '<p onclick="x()">one two</p><script>three()</script><a href="javascript:y()">four</a>'
    article = parse("a.html", body=body)
    assert "script" not in article.content and "onclick" not in article.content
    assert "javascript" not in article.content
    assert plain_text("html", "<p>one &amp; two</p>") == "one & two"


def test_markdown_is_rendered_once_as_sanitised_html():
    source = "# Title\n\nSome **bold** ~~old~~ [link](https://example.com)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n" \
             "<script>alert(1)</script>\n\n<a href=\"javascript:x()\">bad</a>\n"
    [part] = render_body("md", source)
    assert part["kind"] == "html"
    assert part["html"].startswith("<h1>Title</h1>\n<p>Some <strong>bold</strong> <s>old</s> ")
    assert '<a href="https://example.com" rel="noopener noreferrer">link</a>' in part["html"]
    assert "<table>" in part["html"] and "<td>2</td>" in part["html"]
    assert "script" not in part["html"] and "javascript" not in part["html"]
    assert parse(body="Hello **world**.").body == ({"kind": "html", "html": "<p>Hello <strong>world</strong>.</p>"},)


def test_mdx_demo_lines_become_demo_parts_and_html_is_kept_as_it_was_sanitised():
    body = render_body("mdx", "Intro\n\n<FormulaDemo />\n  <StepsDemo/>  \nEnd *now*")
    assert body == ({"kind": "html", "html": "<p>Intro</p>"}, {"kind": "formula"}, {"kind": "steps"},
                    {"kind": "html", "html": "<p>End <em>now</em></p>"})
    assert render_body("md", "<FormulaDemo />\n\ntext") == ({"kind": "html", "html": "<p>text</p>"},)
    assert render_body("html", "<p>as stored</p>") == ({"kind": "html", "html": "<p>as stored</p>"},)


def test_the_hash_follows_the_rendered_body():
    assert parse(body="one").source_hash != parse(body="two").source_hash
    article = parse(body="same")
    assert replace(article, body=()).source_hash != article.source_hash


def test_demo_lines_are_not_words():
    assert plain_text("mdx", "Intro\n<FormulaDemo />\n  <StepsDemo/>  \nEnd") == "Intro End"


def test_read_time_rounds_up_and_is_at_least_one():
    assert [read_time(n) for n in (0, 1, 200, 201, 1000)] == [1, 1, 1, 2, 5]


def test_search_terms_and_like_patterns():
    assert search_terms("  Second-PRICE   auction ") == ["second-price", "auction"]
    assert search_terms(None) == [] and search_terms("   ") == []
    assert len(search_terms("a b c d e f g h i j")) == 8
    assert like_pattern("100%_\\") == "%100\\%\\_\\\\%"


@given(st.text(max_size=30))
def test_like_pattern_leaves_no_unescaped_wildcard(term):
    inner = like_pattern(term)[1:-1]
    assert re.search(r"(?<!\\)(?:\\\\)*[%_]", inner) is None


# --- the articles we ship ----------------------------------------------------------------------
SHIPPED = read_folder(DEFAULT_ARTICLES)


def test_shipped_articles_all_load():
    assert SHIPPED.problems == []
    assert len(SHIPPED.articles) >= 6


def test_shipped_articles_cover_every_type_and_two_are_featured():
    types = [a.type for a in SHIPPED.articles]
    assert types.count("md") >= 1 and types.count("html") >= 1 and types.count("mdx") >= 2
    assert sum(a.featured and a.published for a in SHIPPED.articles) == 2


@pytest.mark.parametrize("article", SHIPPED.articles, ids=lambda a: a.slug)
def test_shipped_article_is_a_real_article(article):
    words = len(plain_text(article.type, article.content).split())
    assert 600 <= words <= 1200, words
    assert article.published and article.category in {"creator-tips", "brand-playbook", "platform-news"}
    assert article.tags and article.excerpt and article.author
    assert "lorem" not in article.content.lower()


def test_mdx_articles_place_the_demos_and_explain_bridge():
    mdx = [a for a in SHIPPED.articles if a.type == "mdx"]
    lines = [line.strip() for a in mdx for line in a.content.splitlines()]
    assert "<FormulaDemo />" in lines and "<StepsDemo />" in lines
    formula = next(a for a in mdx if "<FormulaDemo />" in a.content)
    for letter, word in zip("BRIDGE", ("Brand", "Relevance", "Incentive", "Disclosure", "Genuine", "Engage"),
                            strict=True):
        assert f"## {letter}: {word}" in formula.content
