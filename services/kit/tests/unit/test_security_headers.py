"""An answer to a request with a token is never stored: a cache header of its own survives only when it already
says no-store (evidence images: "private, no-store")."""

from pinbid_kit.security_headers import secured


def cache_of(headers) -> list[bytes]:
    return [v for n, v in headers if n == b"cache-control"]


def test_an_authorized_answer_is_no_store_whatever_it_asked():
    asked = [(b"content-type", b"application/json"), (b"cache-control", b"public, max-age=600")]
    assert cache_of(secured(asked, authorized=True)) == [b"no-store"]
    assert cache_of(secured([(b"content-type", b"application/json")], authorized=True)) == [b"no-store"]


def test_an_answers_own_private_no_store_is_kept():
    asked = [(b"content-type", b"image/png"), (b"cache-control", b"private, no-store")]
    assert cache_of(secured(asked, authorized=True)) == [b"private, no-store"]


def test_an_anonymous_answer_keeps_its_cache_header():
    asked = [(b"content-type", b"text/css"), (b"cache-control", b"public, max-age=600")]
    assert cache_of(secured(asked, authorized=False)) == [b"public, max-age=600"]
