"""``engram mine`` of files a new user has at hand (new-user pass, round twelve): a file
that is not UTF-8 got Python's codec message ("'utf-8' codec can't decode byte 0x8f in
position 1: invalid start byte") where ``add`` and ``import`` name the byte and the fix,
and an empty list of messages filed nothing without a word, exit 0."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli


def test_a_file_that_is_not_utf8_names_the_byte_and_the_fix(tmp_path: Path) -> None:
    chat = tmp_path / "chat.json"
    chat.write_bytes(
        json.dumps([{"role": "user", "content": "caf\u00e9"}], ensure_ascii=False).encode("latin-1")
    )
    result = run_cli(tmp_path / "home", "mine", str(chat), "--wing", "Home")
    assert result.exit_code == 2
    said = " ".join(result.stderr.split())
    assert f"{chat} is not UTF-8 text (byte 0xe9 at offset" in said
    assert "iconv" in said
    assert "codec" not in said


def test_an_empty_list_of_messages_says_nothing_was_mined(tmp_path: Path) -> None:
    for body in ("[]", '{"messages": []}'):
        chat = tmp_path / "chat.json"
        chat.write_text(body, encoding="utf-8")
        result = run_cli(tmp_path / "home", "mine", str(chat), "--wing", "Home")
        assert result.exit_code == 2, result.output
        assert f"{chat} holds no messages" in " ".join(result.stderr.split())
    # refused before the store was opened: nothing was created
    assert not (tmp_path / "home" / "engram.db").exists()


def test_a_utf8_file_with_a_byte_order_mark_is_mined(tmp_path: Path) -> None:
    chat = tmp_path / "chat.json"
    chat.write_bytes(
        b"\xef\xbb\xbf" + json.dumps([{"role": "user", "content": "hi there"}]).encode()
    )
    result = run_cli(tmp_path / "home", "mine", str(chat), "--wing", "Home")
    assert result.exit_code == 0, result.output
    assert "1 filed" in result.output
