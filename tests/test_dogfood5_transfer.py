"""``import`` of a hand-edited export (new-user pass, round five): a line that is not
UTF-8 is named by its own number, and nothing of the file is imported."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.errors import InvalidInputError


def test_a_line_that_is_not_utf8_is_named_by_its_number(config: Config, tmp_path: Path) -> None:
    out = io.StringIO()
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as source:
        for text in ("Family trip 👨‍👩‍👧 to Lisbon 🇵🇹", "שלום עולם — مرحبا", "Cafe\u0301"):
            source.add(text, namespace="awk", metadata={"nested": {"a": [None, {"b": None}]}})
        source.admin.export_jsonl(out)
    lines = out.getvalue().encode("utf-8").splitlines(keepends=True)
    # Line 4 re-saved in Latin-1 by an editor: "é" becomes the single byte 0xe9.
    lines[3] = lines[3].replace("é".encode(), b"\xe9") if "é".encode() in lines[3] else b"\xe9\n"
    bundle = tmp_path / "edited.jsonl"
    bundle.write_bytes(b"".join(lines))
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as target:
        target.add("was here before", namespace="awk")
        with pytest.raises(InvalidInputError, match=r"line 4: not UTF-8 text \(byte 0xe9"):
            target.admin.import_jsonl(bundle)
        assert [r.content for r in target.get_all(namespace="awk")] == ["was here before"]
