"""Ingesting files a new user has at hand (docs/documents.md, new-user pass round four):
a text file with a UTF-16 or UTF-32 byte-order mark is read, since the mark says how
it is encoded; a PDF, an office file, a binary file and a non-UTF-8 text file are
refused naming what the file is and how to turn it into text engram reads."""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.errors import InvalidInputError

TEXT = "Grüße aus Köln: the deploy runs on Fridays\n"


@pytest.fixture
def m(config: Config) -> Iterator[Memory]:
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as mem:
        yield mem


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-32", "utf-32-le"])
def test_a_text_file_with_a_byte_order_mark_is_read(m: Memory, tmp_path: Path, codec: str) -> None:
    path = tmp_path / "notes.txt"
    bom = {"utf-16-be": b"\xfe\xff", "utf-32-le": b"\xff\xfe\x00\x00"}.get(codec, b"")
    path.write_bytes(bom + TEXT.encode(codec))
    doc = m.documents.ingest(path=str(path), user_id="alice")
    assert doc.byte_length == len(TEXT.encode("utf-8"))
    assert m.documents.process(doc.id, user_id="alice").status == "done"
    (chunk,) = m.documents.chunks(doc.id, user_id="alice")
    memory = m.get(chunk.memory_id, user_id="alice")
    assert memory is not None and "Grüße aus Köln" in memory.content


def _docx(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("word/document.xml", "<w:document/>")


@pytest.mark.parametrize(
    ("name", "write", "says"),
    [
        ("report.pdf", lambda p: p.write_bytes(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"), "is damaged"),
        ("memo.docx", _docx, "is a ZIP archive"),
        ("blob.txt", lambda p: p.write_bytes(bytes(range(256))), "is a binary file"),
        ("latin1.txt", lambda p: p.write_bytes("Café in Zürich".encode("latin-1")), "iconv"),
        ("bad16.txt", lambda p: p.write_bytes(b"\xff\xfe" + b"a\x00\x00\xd8"), "not valid UTF-16"),
    ],
)
def test_a_file_engram_cannot_read_as_text_is_refused_with_what_to_do(
    m: Memory, tmp_path: Path, name: str, write: object, says: str
) -> None:
    path = tmp_path / name
    write(path)  # type: ignore[operator]
    with pytest.raises(InvalidInputError, match=says):
        m.documents.ingest(path=str(path), user_id="alice")
    assert m.documents.list(user_id="alice") == []
