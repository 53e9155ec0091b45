"""The embedded default's mail: one .eml file per message, which appears whole or not at all."""

from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from pinbid_kit.mail import FolderMailSender


def eml_names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.eml"))


def a_message(to: str, body: str) -> EmailMessage:
    message = EmailMessage()
    message["To"], message["From"], message["Subject"] = to, "Pinbid <no-reply@pinbid.app>", "Hello"
    message.set_content(body)
    return message


async def test_each_message_is_one_whole_eml_file_and_nothing_else_is_left(tmp_path: Path):
    sender = FolderMailSender(tmp_path / "mail")
    body = "a long body\n" * 50_000
    for to in ("a@example.com", "b@example.com"):
        await sender.send(a_message(to, body))

    files = sorted((tmp_path / "mail").iterdir())
    assert [f.suffix for f in files] == [".eml", ".eml"]  # no partial file left beside them
    read = [message_from_bytes(f.read_bytes(), policy=policy.default) for f in files]
    assert sorted(m["To"] for m in read) == ["a@example.com", "b@example.com"]
    assert all(m.get_content() == body for m in read)


async def test_a_file_being_written_is_not_an_eml_file(tmp_path: Path, monkeypatch):
    """What a reader of `*.eml` sees while a message is written: nothing yet."""
    seen: list[list[str]] = []
    original = Path.write_bytes

    def watched(path: Path, data: bytes) -> int:
        written = original(path, data)
        seen.append(eml_names(path.parent))
        return written

    monkeypatch.setattr(Path, "write_bytes", watched)
    await FolderMailSender(tmp_path).send(a_message("a@example.com", "hi"))
    assert seen == [[]] and len(eml_names(tmp_path)) == 1
