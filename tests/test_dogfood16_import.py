"""What ``engram import`` says of a file that is not an export but something a team
moving to engram has at hand (task dogfood16, round sixteen): their SQLite store
itself, a gzipped export, mem0's memories dumped as JSON. Before, a store file was
"not UTF-8 text ... was the file edited with another encoding?", a gzipped export the
same, and mem0's list "expected a JSON object, got list": none said what the file was
or what to run. Now each names what it is and the command (or docs section) that
brings it in; nothing is written, on either backend."""

from __future__ import annotations

import gzip
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from engram import InvalidInputError, Memory
from engram.cli.main import cli
from engram.compat.mem0 import Memory as Mem0Door
from engram.transfer import export_jsonl, import_jsonl

#: mem0's items as its ``get_all`` gives them (mem0 2.x, an OSS store).
MEM0_ITEMS: list[dict[str, Any]] = [
    {
        "id": "5b0f1e2a-8c1d-4f57-9a3e-0d2b6c7e9f10",
        "memory": "Prefers Go over Java for new services",
        "hash": "7d1f0c5e3b9a2f6e4d8c1b0a9e7f6d5c",
        "metadata": {"team": "payments"},
        "created_at": "2026-10-02T09:14:00-07:00",
        "updated_at": None,
        "user_id": "priya",
        "role": "user",
    },
    {
        "id": "a3c9d2e1-4b5f-4e6a-8d7c-9b0a1f2e3d4c",
        "memory": "Answers tickets in British English",
        "hash": "1a2b3c4d5e6f708192a3b4c5d6e7f809",
        "metadata": None,
        "created_at": "2026-10-03T11:00:00-07:00",
        "updated_at": None,
        "agent_id": "support-bot",
    },
]


def _stored(mem: Memory) -> list[str]:
    names = mem.store.memories.namespaces()
    return sorted(r.id for ns in names for r in mem.get_all(namespace=ns))


def _refused(mem: Memory, file: Path, *words: str) -> str:
    before = _stored(mem)
    with pytest.raises(InvalidInputError) as caught:
        import_jsonl(mem.store, file)
    message = str(caught.value)
    for word in words:
        assert word in message, message
    assert "another encoding" not in message and "expected a JSON object" not in message
    assert _stored(mem) == before
    return message


def test_a_sqlite_store_is_named_with_migrate_store(mem: Memory, tmp_path: Path) -> None:
    mem.add("Ann likes tea", user_id="ann")
    other = tmp_path / "engram.db"
    with sqlite3.connect(other) as conn:  # any SQLite file
        conn.execute("CREATE TABLE t (x)")
    _refused(
        mem,
        other,
        f"{other} is a SQLite database (an engram store?), not an export",
        f"engram migrate-store --from sqlite:///{other.resolve()}",
        f"engram --db {other} export --all --vectors -o",
    )


def test_a_gzipped_export_says_how_to_import_it(mem: Memory, tmp_path: Path) -> None:
    mem.add("Ann likes tea", user_id="ann")
    plain = tmp_path / "backup.jsonl"
    with plain.open("w", encoding="utf-8") as handle:
        export_jsonl(mem.store, handle)
    packed = tmp_path / "backup.jsonl.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    _refused(mem, packed, f"{packed} is gzip-compressed", f"gunzip -c {packed} | engram import -")


@pytest.mark.parametrize(
    "dump",
    [
        lambda items: json.dumps(items),  # a list, on one line
        lambda items: json.dumps({"results": items}),  # get_all's answer as it came
        lambda items: json.dumps({"results": items}, indent=2),  # pretty-printed
    ],
)
def test_mem0s_memories_point_to_the_door(mem: Memory, tmp_path: Path, dump: Any) -> None:
    file = tmp_path / "mem0.json"
    file.write_text(dump(MEM0_ITEMS), encoding="utf-8")
    _refused(
        mem,
        file,
        f"{file} holds mem0 memories",
        "not an engram export",
        "docs/compat-mem0.md#bringing-memories-from-mem0",
    )


def test_the_cli_says_the_same(tmp_path: Path) -> None:
    other = tmp_path / "old.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    home = tmp_path / "home"
    result = CliRunner().invoke(cli, ["--home", str(home), "import", str(other)])
    assert result.exit_code == 2, result.output
    assert "is a SQLite database (an engram store?), not an export" in result.output
    assert "engram migrate-store" in result.output


def test_the_docs_way_brings_mem0s_memories_across(mem: Memory) -> None:
    """docs/compat-mem0.md's loop, on the items above: each memory once, with its owner,
    metadata, role and mem0's id and time kept in metadata; run again, nothing doubles."""
    new = Mem0Door(memory=mem)

    def copy_from_mem0(items: list[dict[str, Any]]) -> None:  # as the docs write it
        for item in items:
            ids = {k: item[k] for k in ("user_id", "agent_id", "run_id") if item.get(k)}
            metadata = dict(item.get("metadata") or {})
            metadata.update(mem0_id=item["id"], mem0_created_at=item["created_at"])
            message = {"role": item.get("role") or "user", "content": item["memory"]}
            new.add([message], metadata=metadata, infer=False, **ids)

    copy_from_mem0(MEM0_ITEMS)
    copy_from_mem0(MEM0_ITEMS)
    priya = new.get_all(filters={"user_id": "priya"})["results"]
    assert [i["memory"] for i in priya] == ["Prefers Go over Java for new services"]
    assert priya[0]["metadata"] == {
        "team": "payments",
        "mem0_id": MEM0_ITEMS[0]["id"],
        "mem0_created_at": "2026-10-02T09:14:00-07:00",
    }
    bot = new.get_all(filters={"agent_id": "support-bot"})["results"]
    assert [i["memory"] for i in bot] == ["Answers tickets in British English"]
    found = new.search("which language for services?", filters={"user_id": "priya"})
    assert found["results"][0]["id"] == priya[0]["id"]
