"""A duplicate write is reported and merged, never silently dropped (issue 26 item 13).

Seed 004 dedupes on the normalised content's hash; engram keeps the first memory and
merges what a later write of the same content adds (tags, new metadata keys), with a
``merge`` history row, and says ``duplicate_of`` on every surface.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from fastapi.testclient import TestClient

from engram import Config, Memory
from engram.api import create_app
from engram.cli.main import cli
from engram.records import Merged, Outcome

FIRST = "Server password is Hunter2"
AGAIN = "server password is hunter2"


def test_a_duplicate_merges_tags_and_metadata_and_says_so(mem: Memory) -> None:
    first = mem.add(FIRST, tags=["a"], metadata={"source": "wiki"})
    [item] = mem.add_many(
        [{"content": AGAIN, "tags": ["b", "a"], "type": "decision", "metadata": {"team": "ops"}}]
    ).items
    assert item.outcome is Outcome.DUPLICATE and not item.created
    assert item.duplicate_of == first.id
    assert item.merged == Merged(tags=("b",), metadata=("team",), kept=("type",))
    assert item.reason is not None and first.id in item.reason and "added tags b" in item.reason
    assert item.record is not None and item.record.id == first.id
    stored = mem.get(first.id)
    assert stored.content == FIRST  # the first write's text and type stay
    assert stored.type.value == "fact"
    assert stored.tags == ("a", "b")
    assert stored.metadata == {"source": "wiki", "team": "ops"}
    assert item.record.tags == stored.tags and item.record.metadata == stored.metadata
    merge = [h for h in mem.history(first.id) if h.event == "merge"]
    assert len(merge) == 1
    assert merge[0].before is not None and merge[0].before["tags"] == ["a"]
    assert merge[0].after is not None and merge[0].after["tags"] == ["a", "b"]


def test_a_conflicting_metadata_value_is_kept_and_named(mem: Memory) -> None:
    first = mem.add(FIRST, metadata={"source": "wiki"})
    [item] = mem.add_many([{"content": AGAIN, "metadata": {"source": "chat"}}]).items
    assert item.merged == Merged(kept=("metadata.source",))
    assert mem.get(first.id).metadata == {"source": "wiki"}
    assert [h.event for h in mem.history(first.id)].count("merge") == 0


def test_an_identical_repeat_changes_nothing(mem: Memory) -> None:
    first = mem.add(FIRST, tags=["a"])
    [item] = mem.add_many([{"content": FIRST, "tags": ["a"]}]).items
    assert item.duplicate_of == first.id and item.merged == Merged()
    assert item.reason == f"same content as memory {first.id}: nothing new to merge"
    assert mem.get(first.id).updated_at == first.updated_at
    assert [h.event for h in mem.history(first.id)].count("merge") == 0


def test_repeats_within_one_batch_merge_in_turn(mem: Memory) -> None:
    batch = mem.add_many(
        [
            {"content": FIRST, "tags": ["a"]},
            {"content": AGAIN, "tags": ["b"]},
            {"content": FIRST + ".", "tags": ["c"], "metadata": {"k": 1}},
        ]
    )
    first, second, third = batch.items
    assert first.created and second.duplicate_of == third.duplicate_of == first.record.id  # type: ignore[union-attr]
    stored = mem.get(first.record.id)  # type: ignore[union-attr]
    assert stored.tags == ("a", "b", "c") and stored.metadata == {"k": 1}
    assert third.record is not None and third.record.tags == ("a", "b", "c")
    assert batch.to_dict()["items"][1]["duplicate_of"] == first.record.id  # type: ignore[union-attr]


def test_http_and_cli_report_the_duplicate(config: Config, tmp_path: Path) -> None:
    with Memory(":memory:", config=config, embedder=None) as mem:
        client = TestClient(create_app(mem, auth=False, mcp=False))
        made = client.post("/v1/memories", json={"content": FIRST, "tags": ["a"]})
        assert made.status_code == 201 and made.json()["duplicate_of"] is None
        again = client.post("/v1/memories", json={"content": AGAIN, "tags": ["b"]})
        assert again.status_code == 200
        body = again.json()
        assert body["created"] is False and body["duplicate_of"] == made.json()["id"]
        assert body["merged"] == {"tags": ["b"], "metadata": [], "kept": []}
        assert body["tags"] == ["a", "b"]
        batch = client.post(
            "/v1/memories/batch", json={"items": [{"content": AGAIN, "tags": ["c"]}]}
        ).json()
        assert batch["items"][0]["duplicate_of"] == made.json()["id"]
        assert batch["items"][0]["merged"]["tags"] == ["c"]
    home = str(tmp_path / "cli")
    env = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}
    runner = CliRunner()
    stored = runner.invoke(cli, ["--home", home, "add", FIRST, "--tag", "a", "--json"], env=env)
    first_id = json.loads(stored.output)["id"]
    text = runner.invoke(cli, ["--home", home, "add", AGAIN, "--tag", "b"], env=env)
    assert text.exit_code == 0
    assert f"already stored as {first_id}" in text.output and "added tags b" in text.output
    out = runner.invoke(
        cli, ["--home", home, "add", AGAIN, "--tag", "c", "--type", "decision", "--json"], env=env
    )
    data = json.loads(out.output)
    assert data["duplicate_of"] == first_id and data["created"] is False
    assert data["merged"] == {"tags": ["c"], "metadata": [], "kept": ["type"]}


def test_a_repeat_from_another_session_merges_nothing(mem: Memory) -> None:
    first = mem.add(FIRST, tags=["a"])
    [item] = mem.add_many([{"content": AGAIN, "tags": ["chat"], "session_id": "s9"}]).items
    assert item.duplicate_of == first.id and item.merged == Merged(kept=("session_id",))
    assert mem.get(first.id).tags == ("a",)


def test_a_document_chunk_merges_nothing_into_a_callers_memory(mem: Memory) -> None:
    first = mem.add("Alice's travel checklist: passport, tickets")
    doc = mem.documents.ingest("Alice's travel checklist: passport, tickets")
    mem.documents.process(doc.id)
    assert mem.get(first.id).metadata == {}
    assert mem.get(first.id).tags == ()
