"""Content comes back exactly as given (issue 26 item 12): newlines and indentation are
kept; seed 004's normalisation only decides the hash (dedupe) and the keyword index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from engram import Config, ContentTooLargeError, EmptyContentError, Memory
from engram.cli.main import cli
from engram.store.protocols.memories import MemoryFacts
from engram.text import normalize_content

CODE = "a\n\n    code()\nb"
BLOCK = "Steps:\n  1. run `make`\n  2. deploy\n\n\tdone  "


@pytest.mark.parametrize("text", [CODE, BLOCK, "  leading and trailing  ", "x\r\ny"])
def test_content_is_stored_and_returned_as_given(mem: Memory, text: str) -> None:
    record = mem.add(text)
    assert record.content == text
    assert mem.get(record.id).content == text
    assert [r.content for r in mem.get_all()] == [text]
    # the dedup key is still seed 004's hash of the normalised text
    assert record.content_hash == normalize_content(text).content_hash


def test_whitespace_variants_still_dedupe_to_the_first(mem: Memory) -> None:
    first = mem.add(CODE)
    again = mem.add_many(["a code() b"]).items[0]
    assert not again.created
    assert again.record is not None and again.record.id == first.id
    assert mem.get(first.id).content == CODE


def test_keyword_search_reads_the_normalised_text(config: Config) -> None:
    with Memory(":memory:", config=config, embedder=None) as mem:
        record = mem.add("deploy notes:\n\n    run_migrations()\n    restart")
        hits = mem.search("run_migrations restart")
        assert [h.id for h in hits] == [record.id]
        assert hits[0].memory.content == record.content


def test_update_keeps_new_content_as_given(mem: Memory) -> None:
    record = mem.add("old text")
    updated = mem.update(record.id, content=BLOCK)
    assert updated.content == BLOCK
    assert mem.get(record.id).content == BLOCK
    assert updated.content_hash == normalize_content(BLOCK).content_hash


@pytest.mark.parametrize("text", ["", "   ", "\n\t\n"])
def test_only_whitespace_is_still_refused(mem: Memory, text: str) -> None:
    with pytest.raises(EmptyContentError, match="content is empty"):
        mem.add(text)
    assert mem.get_all() == []


def test_cli_add_from_stdin_keeps_lines_and_indentation(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}
    runner = CliRunner()
    for given, stored in ((CODE, CODE), (CODE + "\n", CODE), ("x\r\n", "x")):
        result = runner.invoke(
            cli,
            ["--home", str(home), "add", "-", "--json", "-n", f"ns{len(given)}"],
            env=env,
            input=given,
            catch_exceptions=False,
        )
        assert result.exit_code == 0, result.output
        out = json.loads(result.output)
        assert out["content"] == stored
        config = Config.load(env={}, home=str(home), embedder={"name": "none"})
        with Memory(config=config) as mem:
            assert mem.get(out["id"], namespace=out["namespace"]).content == stored


def test_the_size_limit_counts_the_collapsed_text(config: Config) -> None:
    # Keeping whitespace refuses nothing that was accepted before: 50 characters of text
    # padded with 1,000 spaces fit a 60-character limit, and are stored padded.
    padded = "x" * 25 + " " * 1000 + "y" * 24
    with Memory(":memory:", config=config.with_overrides(max_content_chars=60)) as mem:
        assert mem.add(padded).content == padded
        with pytest.raises(ContentTooLargeError, match="61 characters, over the limit of 60"):
            mem.add("z" * 61)


def test_recall_measures_a_memory_by_its_collapsed_text(mem: Memory) -> None:
    """Content is stored as given, but recall's length and head rules (long memories,
    standing instructions) see the collapsed text they were measured on, both when
    the store reads the facts and when recall takes them from a record it holds."""
    text = "Always   run\n\n        the tests\n" + " " * 3000 + "before a release."
    record = mem.add(text)
    assert record.content == text  # verbatim
    facts = mem.store.memories.facts(mem.config.default_namespace, [record.id])[record.id]
    collapsed = "always run the tests before a release"
    assert facts.chars == len(collapsed)
    assert facts.head == collapsed
    assert MemoryFacts.of(record) == facts
