import time
import uuid

import jwt
import pytest
from pinbid_kit.secrets import SecretBox, mask
from pinbid_kit.tokens import InvalidToken, TokenSigner, TokenVerifier, generate_keypair


@pytest.fixture
def keys(tmp_path):
    generate_keypair(tmp_path / "k.pem", tmp_path / "k.pub")
    return (tmp_path / "k.pem").read_bytes(), (tmp_path / "k.pub").read_bytes()


def test_signed_token_verifies_with_the_public_key(keys):
    private, public = keys
    user = uuid.uuid4()
    principal = TokenVerifier(public).verify(TokenSigner(private, ttl_seconds=60).sign(user, "BUYER", 3))
    assert (principal.user_id, principal.role, principal.token_version) == (user, "BUYER", 3)


def test_token_is_eddsa(keys):
    token = TokenSigner(keys[0], ttl_seconds=60).sign(uuid.uuid4(), "BUYER", 0)
    assert jwt.get_unverified_header(token)["alg"] == "EdDSA"


def test_token_from_another_key_is_refused(keys, tmp_path):
    generate_keypair(tmp_path / "other.pem", tmp_path / "other.pub")
    token = TokenSigner((tmp_path / "other.pem").read_bytes(), ttl_seconds=60).sign(uuid.uuid4(), "BUYER", 0)
    with pytest.raises(InvalidToken):
        TokenVerifier(keys[1]).verify(token)


def test_expired_and_tampered_tokens_are_refused(keys):
    private, public = keys
    expired = TokenSigner(private, ttl_seconds=60)
    token = expired.sign(uuid.uuid4(), "BUYER", 0)
    claims = jwt.decode(token, options={"verify_signature": False})
    from cryptography.hazmat.primitives import serialization

    key = serialization.load_pem_private_key(private, password=None)
    old = jwt.encode({**claims, "exp": int(time.time()) - 10}, key, algorithm="EdDSA")
    with pytest.raises(InvalidToken):
        TokenVerifier(public).verify(old)
    forged_role = jwt.encode({**claims, "role": "ADMIN"}, key, algorithm="EdDSA")
    with pytest.raises(InvalidToken):
        TokenVerifier(public).verify(forged_role)
    with pytest.raises(InvalidToken):
        TokenVerifier(public).verify(token[:-4] + "AAAA")


def test_secret_box_round_trip_and_key_rotation():
    from cryptography.fernet import Fernet

    old, new = Fernet.generate_key(), Fernet.generate_key()
    sealed_with_old = SecretBox([old]).seal("ig-token")
    rotated = SecretBox([new, old])
    assert rotated.open(sealed_with_old) == "ig-token"
    assert "ig-token" not in rotated.seal("ig-token")
    with pytest.raises(ValueError):
        SecretBox([new]).open(sealed_with_old)


def test_mask_keeps_only_the_last_four():
    assert mask("12345678") == "••••5678"
    assert mask("1234") == "••••"
    assert mask(None) is None


def test_a_remembered_token_still_expires(keys, monkeypatch):
    private, public = keys
    verifier = TokenVerifier(public)
    token = TokenSigner(private, ttl_seconds=60).sign(uuid.uuid4(), "BUYER", 0)
    assert verifier.verify(token) == verifier.verify(token)
    later = time.time() + 120
    monkeypatch.setattr(time, "time", lambda: later)
    with pytest.raises(InvalidToken):
        verifier.verify(token)


def test_a_verifier_reads_its_key_file_on_first_use(keys, tmp_path):
    private, public = keys
    path = tmp_path / "later.pub"
    verifier = TokenVerifier.from_file(path)  # the file does not exist yet: identity writes it later
    path.write_bytes(public)
    user = uuid.uuid4()
    assert verifier.verify(TokenSigner(private, ttl_seconds=60).sign(user, "BUYER", 0)).user_id == user
