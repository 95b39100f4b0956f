"""A restored export keeps what the learned injection detector quarantined (new-user
pass, round twelve): the detector runs where vectors are made, on new writes only, so
an import cannot read its verdict again; the scan of an import used to drop every flag
a file carried and re-read only the rules, so a memory the detector had kept out of
every context came back into them, while ``trusted=True`` kept it out."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from conftest import HashEmbedder, run_cli
from engram import Config, Memory
from engram.injection_detector import CODE, FLAGS

LEARNED = f"{CODE}: the embedding and word n-gram classifiers give 1.00 together (threshold 0.99)"
NS = "user:dana"


def exported(config: Config, tmp_path: Path, flags: list[str]) -> Path:
    """An export of two memories, one carrying ``flags`` as a store writes them."""
    out = io.StringIO()
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as source:
        source.add("Bike lock code is 4471.", namespace=NS)
        source.add("Groceries: apples, bananas, eggs, bin bags.", namespace=NS)
        source.admin.export_jsonl(out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    for line in lines:
        if line.get("kind") == "memory" and line["memory"]["content"].startswith("Groceries"):
            line["memory"]["metadata"] = {FLAGS: flags}
    path = tmp_path / "export.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def flags_of(mem: Memory) -> dict[str, list[str]]:
    return {r.content: list(r.metadata.get(FLAGS, [])) for r in mem.get_all(namespace=NS)}


@pytest.mark.parametrize("trusted", [False, True])
def test_an_import_keeps_the_learned_detectors_quarantine(
    mem: Memory, config: Config, tmp_path: Path, trusted: bool
) -> None:
    counts = mem.admin.import_jsonl(exported(config, tmp_path, [LEARNED]), trusted=trusted)
    assert counts.memories == 2
    assert flags_of(mem) == {
        "Bike lock code is 4471.": [],
        "Groceries: apples, bananas, eggs, bin bags.": [LEARNED],
    }
    # still out of every context, as it was in the store it came from
    recall = mem.recall("groceries apples bananas", namespace=NS, min_relevance=0)
    assert "Groceries" not in recall.context
    if not trusted:
        assert counts.flagged == 1


def test_the_rules_flags_a_file_carries_are_read_again(
    mem: Memory, config: Config, tmp_path: Path
) -> None:
    # a rule's flag is decided by the scan now (a file can carry any flags): the rules
    # pass this text, so the made-up rule flag goes and the detector's stays
    path = exported(config, tmp_path, ["instruction_override: made up", LEARNED])
    mem.admin.import_jsonl(path)
    assert flags_of(mem)["Groceries: apples, bananas, eggs, bin bags."] == [LEARNED]


def test_injection_mode_off_imports_without_the_quarantine(
    config: Config, store_location: str, tmp_path: Path
) -> None:
    # with the scan off, the detector is off on writes too: nothing is quarantined
    off = config.with_overrides(injection_mode="off")
    with Memory(store_location, config=off, embedder=HashEmbedder()) as target:
        target.admin.import_jsonl(exported(config, tmp_path, [LEARNED]))
        assert flags_of(target)["Groceries: apples, bananas, eggs, bin bags."] == []


def test_the_cli_says_why_a_block_mode_import_carries_flags(config: Config, tmp_path: Path) -> None:
    # block mode: the line named flag mode, which the store was not in
    result = run_cli(tmp_path / "home", "import", str(exported(config, tmp_path, [LEARNED])))
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "1 imported with injection flags" in said
    assert "the learned injection detector's quarantine, kept from the file" in said


@pytest.mark.parametrize("trusted", [False, True])
def test_flagged_counts_only_the_memories_imported(
    mem: Memory, config: Config, tmp_path: Path, trusted: bool
) -> None:
    # importing the same file again imports nothing: it said "1 imported with injection
    # flags" beside "imported 0 memories ... skipped 2 already stored"
    path = exported(config, tmp_path, [LEARNED])
    first = mem.admin.import_jsonl(path, trusted=trusted)
    assert (first.memories, first.flagged) == (2, 1)
    again = mem.admin.import_jsonl(path, trusted=trusted)
    assert (again.memories, again.existing, again.flagged) == (0, 2, 0)
