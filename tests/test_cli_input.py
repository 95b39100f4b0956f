"""Text read from standard input or a named file: bytes that are not UTF-8 are an
input error (exit 2) naming the source, never a UnicodeDecodeError traceback, and
nothing is stored. Python's stdin decodes strictly under most UTF-8 locales (macOS'
en_US.UTF-8), so a Latin-1 file piped in crashed every command that reads '-'."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from engram import Config, Memory
from engram.cli.common import stdin_chunks
from engram.cli.main import cli
from engram.errors import InvalidInputError

KEYWORD_ONLY = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}
LATIN1 = "Café menu: soup of the day is leek.\n".encode("latin-1")


def run(home: Path, *args: str, input: bytes | None = None) -> Result:
    return CliRunner().invoke(
        cli, ["--home", str(home), *args], env=KEYWORD_ONLY, input=input, catch_exceptions=False
    )


def count(home: Path) -> int:
    config = Config.load(env={}, home=str(home), embedder={"name": "none"})
    with Memory(config=config) as mem:
        return mem.get_all(namespace="default", limit=100).total


@pytest.mark.parametrize(
    "args",
    [
        ("add", "-"),
        ("ingest", "-"),
        ("observe", "-", "--task", "t"),
        ("blocks", "set", "persona", "-"),
        ("import", "-"),
    ],
    ids=lambda a: " ".join(a),
)
def test_stdin_that_is_not_utf8_is_an_input_error(tmp_path: Path, args: tuple[str, ...]) -> None:
    home = tmp_path / "home"
    run(home, "add", "kept")  # the store exists, so only the bad input can fail
    result = run(home, *args, input=LATIN1)
    assert result.exit_code == 2, result.output
    assert "standard input is not UTF-8 text (byte 0xe9 at offset 3)" in result.output
    assert "Traceback" not in result.output
    assert count(home) == 1


def test_json_error_for_stdin_names_the_code(tmp_path: Path) -> None:
    result = run(tmp_path / "home", "add", "-", "--json", input=LATIN1)
    assert result.exit_code == 2
    assert json.loads(result.output.strip().splitlines()[-1])["error"] == "invalid_input"


def test_a_byte_order_mark_on_stdin_is_not_content(tmp_path: Path) -> None:
    home = tmp_path / "home"
    result = run(home, "add", "-", "--json", input="\ufeffhello from notepad\n".encode())
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["content"] == "hello from notepad"


@pytest.mark.parametrize(
    "args",
    [("observe", "{file}", "--task", "t"), ("sessions", "end", "s1", "--transcript", "{file}")],
    ids=["observe", "sessions end"],
)
def test_a_named_file_that_is_not_utf8_is_an_input_error(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    home = tmp_path / "home"
    run(home, "add", "kept")
    path = tmp_path / "latin1.txt"
    path.write_bytes(LATIN1)
    result = run(home, *(a.format(file=path) for a in args))
    assert result.exit_code == 2, result.output
    assert f"{path} is not UTF-8 text (byte 0xe9 at offset 3)" in result.output
    assert count(home) == 1


def test_stdin_chunks_keep_characters_split_across_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An import reads stdin a chunk at a time: a character cut by a chunk's end is not
    an error, and a bad byte's offset counts from the start of the stream."""
    text = "ünïcödé 💾 日本語\n" * 50
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert "".join(stdin_chunks(size=7)) == text
    bad = text.encode() + b"tail \xe9"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(bad)))
    with pytest.raises(InvalidInputError, match=f"at offset {len(bad) - 1}\\)"):
        "".join(stdin_chunks(size=5))


def test_ctrl_c_during_an_import_says_what_was_kept_and_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C half way through an import printed only click's 'Aborted!': nothing said
    that the batches written so far stay, nor that running the import again finishes it."""
    source = tmp_path / "source"
    config = Config.load(env={}, home=str(source), embedder={"name": "none"})
    with Memory(config=config) as mem:
        mem.add_many([{"content": f"note {i} about item {i * 7}"} for i in range(600)])
        with (tmp_path / "all.jsonl").open("w", encoding="utf-8") as out:
            mem.admin.export_jsonl(out)

    @contextmanager
    def ctrl_c_after_a_batch(label: str, quiet: bool) -> Iterator[Any]:
        def progress(done: int, total: int) -> None:
            if done:
                raise KeyboardInterrupt

        yield progress

    monkeypatch.setattr("engram.cli.transfer._bar", ctrl_c_after_a_batch)
    home = tmp_path / "home"
    result = run(home, "import", str(tmp_path / "all.jsonl"))
    assert result.exit_code == 1
    assert "interrupted: 500 of 600 memories were imported" in result.output
    assert "run the same import again to finish it" in result.output
    assert count(home) == 500
    monkeypatch.undo()
    again = run(home, "import", str(tmp_path / "all.jsonl"))
    assert again.exit_code == 0, again.output
    assert count(home) == 600
