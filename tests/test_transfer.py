"""Lossless export and import: a whole store goes out as JSONL and comes back the same.

"The same" is checked table by table with SQL on the SQLite file, independently of the
code under test: every memory column, every history and feedback row, every vector's
bytes and every transcript. Only surrogate row numbers (``seq``, history and feedback
ids) may differ, and the order of a memory's history and feedback rows must not.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import HashEmbedder
from engram import Config, InvalidInputError, Memory, StoreError
from engram.cli.main import cli
from engram.store import ImportCounts, MemoryBundle, TranscriptRow
from engram.store.sqlite import SQLiteStore
from engram.transfer import FORMAT_VERSION, export_jsonl, import_jsonl
from engram.validate import build_record

ALICE, BOB = "user:alice", "user:bob"
KEYWORD_ONLY = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}


# -- helpers ----------------------------------------------------------------------------
def dump(path: Path) -> dict[str, Any]:
    """Every row of every data table, without surrogate row numbers."""
    conn = sqlite3.connect(path)
    try:
        columns = [r[1] for r in conn.execute("PRAGMA table_info(memories)") if r[1] != "seq"]
        memories = conn.execute(f"SELECT {', '.join(columns)} FROM memories ORDER BY id").fetchall()
        history = conn.execute(
            "SELECT memory_id, namespace, event, before, after, actor, reason, created_at "
            "FROM memory_history ORDER BY memory_id, id"
        ).fetchall()
        feedback = conn.execute(
            "SELECT memory_id, namespace, rating, comment, created_at "
            "FROM memory_feedback_log ORDER BY memory_id, id"
        ).fetchall()
        vectors = conn.execute(
            "SELECT m.id, v.model, v.dim, v.content_hash, v.vector FROM memory_vectors v "
            "JOIN memories m ON m.seq = v.memory_seq ORDER BY m.id"
        ).fetchall()
        transcripts = conn.execute(
            "SELECT namespace, session_key, content, agent_id, created_at "
            "FROM session_transcripts ORDER BY namespace, session_key"
        ).fetchall()
    finally:
        conn.close()
    return {
        "memories": [dict(zip(columns, row, strict=True)) for row in memories],
        "history": history,
        "feedback": feedback,
        "vectors": vectors,
        "transcripts": transcripts,
    }


def open_memory(path: Path, config: Config) -> Memory:
    return Memory(path, config=config, embedder=HashEmbedder())


def build_source(mem: Memory) -> dict[str, str]:
    """A store with every kind of row: updated, deleted, rated, deduped, two namespaces,
    observation fields, provenance, old timestamps, a transcript and vectors."""
    ids: dict[str, str] = {}
    ids["plain"] = mem.add("Deploys go through ops/deploy.sh", namespace=ALICE).id
    ids["rich"] = mem.add(
        "Chose Litestar over Flask for the API",
        namespace=ALICE,
        type="decision",
        category="semantic",
        tags=["api", "adr"],
        title="Framework choice",
        narrative="We compared three frameworks.",
        facts=["Litestar is faster", "Flask lacks typing"],
        importance=0.9,
        score=8.7,
        confidence=0.75,
        agent_id="planner",
        run_id="r1",
        session_id="s1",
        who="alice",
        why="performance",
        metadata={"source": "adr-7", "n": 3, "nested": {"ok": True}},
        created_at="2024-05-08T13:56:00.123456Z",
    ).id
    ids["updated"] = mem.add("The staging DB is db-staging-1", namespace=ALICE).id
    mem.update(ids["updated"], "The staging DB is db-staging-2", namespace=ALICE, tags=["ops"])
    ids["deleted"] = mem.add("An obsolete note about Jenkins", namespace=ALICE).id
    mem.feedback(ids["deleted"], "down", "wrong", namespace=ALICE)
    mem.delete(ids["deleted"], namespace=ALICE)
    mem.feedback(ids["plain"], "up", "helped", namespace=ALICE)
    mem.feedback(ids["plain"], "up", None, namespace=ALICE)
    mem.feedback(ids["rich"], -1, "too long", namespace=ALICE)
    mem.add("Deploys go through ops/deploy.sh", namespace=ALICE)  # a dedup event
    ids["bob"] = mem.add("Bob prefers dark mode ✓ — ünïcödé", namespace=BOB, type="preference").id
    ids["same_text_other_ns"] = mem.add("Deploys go through ops/deploy.sh", namespace=BOB).id
    mem.add_transcript("s1", "user: which framework?\nassistant: Litestar", namespace=ALICE)
    return ids


@pytest.fixture
def source(tmp_path: Path, config: Config) -> Iterator[tuple[Path, dict[str, str]]]:
    path = tmp_path / "source.db"
    with open_memory(path, config) as mem:
        ids = build_source(mem)
    yield path, ids


@pytest.fixture
def exported(source: tuple[Path, dict[str, str]], tmp_path: Path) -> Path:
    """The whole source store, vectors included, exported to ``all.jsonl``."""
    return export_file(source[0], tmp_path / "all.jsonl", vectors=True)


def export_file(db: Path, out: Path, **kwargs: Any) -> Path:
    store = SQLiteStore(db)
    try:
        with out.open("w", encoding="utf-8") as handle:
            export_jsonl(store, handle, **kwargs)
    finally:
        store.close()
    return out


def import_file(db: Path, file: Path, **kwargs: Any) -> ImportCounts:
    store = SQLiteStore(db)
    try:
        return import_jsonl(store, file, **kwargs)
    finally:
        store.close()


def lines(file: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines()]


def write_lines(file: Path, rows: Sequence[dict[str, Any] | str]) -> Path:
    file.write_text(
        "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows),
        encoding="utf-8",
    )
    return file


# -- round trip -------------------------------------------------------------------------
def test_round_trip_is_lossless(
    source: tuple[Path, dict[str, str]], tmp_path: Path, config: Config
) -> None:
    db, ids = source
    file = export_file(db, tmp_path / "all.jsonl", vectors=True)
    target = tmp_path / "target.db"
    counts = import_file(target, file)
    before, after = dump(db), dump(target)
    assert after == before
    assert counts == ImportCounts(
        memories=len(before["memories"]),
        history=len(before["history"]),
        feedback=len(before["feedback"]),
        vectors=len(before["vectors"]),
        transcripts=1,
        rows=[r.get("kind") for r in lines(file)].count("row"),  # the graph's rows
    )
    assert len(before["vectors"]) == 6  # five live memories and the tombstoned one
    assert any(m["deleted_at"] for m in after["memories"])
    # The imported store answers exactly as the source does: FTS, vectors and quality.
    with open_memory(db, config) as old, open_memory(target, config) as new:
        for query in ("deploy script", "which framework", "staging database"):
            want = old.recall(query, namespace=ALICE, expand=True)
            got = new.recall(query, namespace=ALICE, expand=True)
            assert [h.id for h in got.hits] == [h.id for h in want.hits]
            assert [h.score for h in got.hits] == pytest.approx([h.score for h in want.hits])
            assert got.mode == want.mode == "hybrid"
            assert got.transcripts == want.transcripts
        assert new.get(ids["plain"], namespace=ALICE).quality == 2
        assert [h.event for h in new.history(ids["plain"], namespace=ALICE)] == [
            "create",
            "feedback",
            "feedback",
            "dedup",
        ]
        assert new.feedback_log(namespace=ALICE)[0]["comment"] in {"helped", "too long"}
        assert new.doctor()["vectors"]["missing"] == 0


def test_importing_twice_changes_nothing(
    source: tuple[Path, dict[str, str]], exported: Path, tmp_path: Path
) -> None:
    db, _ = source
    target = tmp_path / "target.db"
    first = import_file(target, exported)
    snapshot = dump(target)
    second = import_file(target, exported)
    assert dump(target) == snapshot
    assert second == ImportCounts(
        existing=first.memories + first.transcripts, rows_existing=first.rows
    )
    # Importing into the source itself is a no-op too.
    import_file(db, exported)
    assert dump(db) == snapshot


def test_header_and_line_layout(source: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    db, ids = source
    rows = lines(export_file(db, tmp_path / "all.jsonl", vectors=True))
    header = rows[0]
    assert header["engram_export"] == FORMAT_VERSION
    assert header["namespaces"] is None and header["vectors"] is True
    assert datetime.fromisoformat(header["created_at"]).tzinfo is not None
    assert header["engram_version"]
    kinds = [r["kind"] for r in rows[1:]]
    assert kinds[-1] == "end" and kinds.count("transcript") == 1
    memory_ids = [r["memory"]["id"] for r in rows if r.get("kind") == "memory"]
    assert memory_ids == sorted(memory_ids) and len(memory_ids) == 6
    vector = next(r for r in rows if r.get("kind") == "vector")
    assert set(vector) == {"kind", "memory_id", "model", "dim", "content_hash", "vector"}
    assert vector["model"] == "test-hash" and vector["dim"] == 64
    table = dump(db)
    assert rows[-1] == {
        "kind": "end",
        "memories": 6,
        "history": len(table["history"]),
        "feedback": 4,
        "vectors": 6,
        "transcripts": 1,
        "rows": kinds.count("row"),
    }
    assert ids["deleted"] in memory_ids


def test_export_of_one_namespace(source: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    db, ids = source
    file = export_file(db, tmp_path / "bob.jsonl", namespaces=[BOB])
    rows = lines(file)
    assert rows[0]["namespaces"] == [BOB] and rows[0]["vectors"] is False
    assert {r["memory"]["id"] for r in rows if r.get("kind") == "memory"} == {
        ids["bob"],
        ids["same_text_other_ns"],
    }
    assert all(r.get("kind") != "vector" for r in rows)
    assert all(r.get("kind") != "transcript" for r in rows)  # the transcript is Alice's
    target = tmp_path / "target.db"
    import_file(target, file)
    assert [m["namespace"] for m in dump(target)["memories"]] == [BOB, BOB]
    assert dump(target)["vectors"] == []


def test_without_vectors_reindex_fills_them(
    source: tuple[Path, dict[str, str]], exported: Path, tmp_path: Path, config: Config
) -> None:
    db, _ = source
    target = tmp_path / "target.db"
    counts = import_file(target, exported, vectors=False)
    assert counts.vectors == 0 and dump(target)["vectors"] == []

    def unembedded(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**row, "embedding_model": None} for row in rows]

    # Everything arrives but the vectors, so nothing counts as embedded yet.
    assert dump(target)["memories"] == unembedded(dump(db)["memories"])
    with open_memory(target, config) as mem:
        assert mem.reindex() == 5  # the live ones
    live_models = [m["embedding_model"] for m in dump(target)["memories"] if not m["deleted_at"]]
    assert live_models == ["test-hash"] * 5
    live = {m["id"] for m in dump(db)["memories"] if m["deleted_at"] is None}
    assert [v for v in dump(target)["vectors"]] == [v for v in dump(db)["vectors"] if v[0] in live]


def test_same_content_already_live_is_skipped_as_duplicate(
    source: tuple[Path, dict[str, str]], tmp_path: Path, config: Config
) -> None:
    db, ids = source
    file = export_file(db, tmp_path / "all.jsonl")
    target = tmp_path / "target.db"
    with open_memory(target, config) as mem:
        mine = mem.add("Deploys go through ops/deploy.sh", namespace=ALICE)
        mem.add("An obsolete note about Jenkins", namespace=ALICE)  # live here, dead there
    counts = import_file(target, file)
    assert counts.duplicates == 1 and counts.memories == 5
    with open_memory(target, config) as mem:
        assert {r.id for r in mem.get_all(namespace=ALICE) if "deploy.sh" in r.content} == {mine.id}
        assert "helped" not in {row["comment"] for row in mem.feedback_log(namespace=ALICE)}
        assert [h.event for h in mem.history(mine.id, namespace=ALICE)] == ["create"]
        tombstone = mem.get_all(namespace=ALICE, include_deleted=True)
        assert ids["deleted"] in {r.id for r in tombstone if r.deleted}
    assert import_file(target, file) == ImportCounts(
        existing=5 + 1,
        duplicates=1,
        rows_existing=counts.rows + counts.rows_existing,
        orphans=counts.orphans,
    )


def text(**kwargs: Any) -> st.SearchStrategy[str]:
    """Any text engram accepts: valid UTF-8 without NUL (refused on every backend)."""
    return st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"), **kwargs)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    content=text(min_size=1, max_size=200).filter(lambda s: s.strip() != ""),
    title=st.none() | text(min_size=1, max_size=50).filter(str.strip),
    tags=st.lists(text(min_size=1, max_size=10).filter(str.strip), max_size=4),
    metadata=st.dictionaries(
        text(max_size=8),
        st.recursive(
            st.none()
            | st.booleans()
            | st.integers(-(2**53), 2**53)
            | st.floats(allow_nan=False, allow_infinity=False)
            | text(max_size=20),
            lambda inner: (
                st.lists(inner, max_size=3) | st.dictionaries(text(max_size=5), inner, max_size=3)
            ),
            max_leaves=8,
        ),
        max_size=4,
    ),
    score=st.none() | st.floats(0, 10),
    created=st.datetimes(
        min_value=datetime(1990, 1, 1), max_value=datetime(2090, 1, 1), timezones=st.just(UTC)
    ),
)
def test_any_record_survives_the_round_trip(
    tmp_path: Path,
    content: str,
    title: str | None,
    tags: list[str],
    metadata: dict[str, Any],
    score: float | None,
    created: datetime,
) -> None:
    record = build_record(
        content,
        namespace="n",
        max_chars=100_000,
        title=title,
        tags=tags,
        metadata=metadata,
        score=score,
        created_at=created,
    )
    src = SQLiteStore(":memory:")
    dst = SQLiteStore(":memory:")
    file = tmp_path / f"{record.id}.jsonl"
    try:
        src.memories.insert([record])
        with file.open("w", encoding="utf-8") as out:
            export_jsonl(src, out)
        assert import_jsonl(dst, file).memories == 1
        got = dst.memories.get("n", record.id)
        want = src.memories.get("n", record.id)
        assert got is not None and want is not None and got.to_dict() == want.to_dict()
        assert dst.memories.history("n", record.id)[0].after == record.to_dict()
    finally:
        src.close()
        dst.close()
        file.unlink(missing_ok=True)


# -- bad files --------------------------------------------------------------------------
Edit = Callable[[list[dict[str, Any]]], list[dict[str, Any] | str]]


def _replace(index: int, value: dict[str, Any] | str) -> Edit:
    return lambda rows: [value if i == index else r for i, r in enumerate(rows)]


def _edit_first(kind: str, change: Callable[[dict[str, Any]], None]) -> Edit:
    def edit(rows: list[dict[str, Any]]) -> list[dict[str, Any] | str]:
        row = next(r for r in rows if r.get("kind") == kind)
        change(row)
        return list(rows)

    return edit


def _memory_with(**fields: Any) -> Edit:
    """The first memory line with ``fields`` changed."""
    return _edit_first("memory", lambda r: r["memory"].update(fields))


def _swap_first_memory_and_history(rows: list[dict[str, Any]]) -> list[dict[str, Any] | str]:
    out: list[dict[str, Any] | str] = list(rows)
    out[1], out[2] = out[2], out[1]
    return out


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (_replace(3, "{not json"), "line 4: not valid JSON"),
        # json's own message ends in "at": it was said twice ("control character at at").
        (_replace(3, '{"bad\tjson"}'), "not valid JSON (Invalid control character at column 6)"),
        (_replace(3, "[1, 2]"), "line 4: expected a JSON object"),
        (_replace(3, {"kind": "gossip"}), "line 4: unknown kind 'gossip'"),
        (_swap_first_memory_and_history, "line 2: a history line must follow the line of its"),
        (
            _edit_first("memory", lambda r: r["memory"].pop("content_hash")),
            "missing field 'content_hash'",
        ),
        (_memory_with(colour="red"), "unknown field(s) in memory: colour"),
        (_memory_with(content="tampered"), "content_hash does not match its content"),
        (_memory_with(type="gossip"), "field 'type' has an unknown value 'gossip'"),
        (_memory_with(quality="high"), "field 'quality' has the wrong type"),
        (_memory_with(created_at="yesterday"), "not an ISO 8601 time"),
        (_memory_with(namespace="no spaces"), "invalid namespace 'no spaces'"),
        (_edit_first("feedback", lambda r: r.update(rating=5)), "rating must be 1 or -1"),
        (
            _edit_first("history", lambda r: r.update(namespace="elsewhere")),
            "namespace differs from its memory's",
        ),
        (_edit_first("vector", lambda r: r.update(dim=63)), "not dim=63"),
        (_edit_first("vector", lambda r: r.update(vector="!!!")), "'vector' is not base64"),
        (lambda rows: rows[:-1], "without its 'end' line: the file is truncated"),
        (lambda rows: [*rows, {"kind": "memory"}], "content after the 'end' line"),
        (_edit_first("end", lambda r: r.update(history=1)), "says 1 history but the file"),
        (_replace(0, {"hello": "world"}), "line 1: not an engram export"),
        (lambda rows: [], "is empty"),
    ],
)
def test_a_malformed_file_names_the_problem_and_imports_nothing(
    exported: Path,
    tmp_path: Path,
    config: Config,
    edit: Edit,
    message: str,
) -> None:
    rows = lines(exported)
    bad = write_lines(tmp_path / "bad.jsonl", edit(rows))
    target = tmp_path / "target.db"
    with open_memory(target, config) as mem:
        mem.add("already here", namespace=ALICE)
    before = dump(target)
    with pytest.raises(InvalidInputError) as caught:
        import_file(target, bad)
    assert message in str(caught.value)
    assert str(bad) in str(caught.value)
    assert dump(target) == before


def test_a_newer_format_is_refused_clearly(
    source: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    db, _ = source
    rows = lines(export_file(db, tmp_path / "all.jsonl"))
    rows[0]["engram_export"] = FORMAT_VERSION + 1
    newer = write_lines(tmp_path / "newer.jsonl", rows)
    target = tmp_path / "target.db"
    with pytest.raises(
        InvalidInputError,
        match=f"export format {FORMAT_VERSION + 1} was written by a newer engram.*upgrade engram",
    ):
        import_file(target, newer)
    assert dump(target)["memories"] == []


def test_vectors_of_another_dimension_are_refused(
    exported: Path, tmp_path: Path, config: Config
) -> None:
    target = tmp_path / "target.db"
    with Memory(target, config=config, embedder=HashEmbedder(dimension=32)) as mem:
        mem.add("a 32-dimension memory")
    before = dump(target)
    with pytest.raises(InvalidInputError, match="dimension 64 but this store's have 32"):
        import_file(target, exported)
    assert dump(target) == before
    assert import_file(target, exported, vectors=False).memories == 6


class FailingSecondBatch:
    """A real SQLite store whose second ``import_bundles`` call fails, as a full disk or
    a killed process would: the seam is the store's transfer part itself."""

    def __init__(self, store: SQLiteStore) -> None:
        self.store = store
        self.calls = 0

    @property
    def transfer(self) -> FailingSecondBatch:
        return self

    def import_bundles(self, bundles: Sequence[MemoryBundle]) -> ImportCounts:
        self.calls += 1
        if self.calls == 2:
            raise StoreError("disk full")
        return self.store.transfer.import_bundles(bundles)

    def import_transcripts(self, rows: Sequence[TranscriptRow]) -> ImportCounts:
        return self.store.transfer.import_transcripts(rows)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


def test_an_import_that_stops_half_way_finishes_when_run_again(
    source: tuple[Path, dict[str, str]], exported: Path, tmp_path: Path
) -> None:
    db, _ = source
    target = tmp_path / "target.db"
    store = SQLiteStore(target)
    try:
        with pytest.raises(StoreError, match="disk full"):
            import_jsonl(FailingSecondBatch(store), exported, batch_size=3)  # type: ignore[arg-type]
    finally:
        store.close()
    partial = dump(target)
    whole = dump(db)
    # The first batch is there whole: three memories with all of their rows.
    assert len(partial["memories"]) == 3
    first = {m["id"] for m in partial["memories"]}
    assert partial["history"] == [h for h in whole["history"] if h[0] in first]
    assert partial["feedback"] == [f for f in whole["feedback"] if f[0] in first]
    assert partial["vectors"] == [v for v in whole["vectors"] if v[0] in first]
    counts = import_file(target, exported, batch_size=3)
    assert counts.existing == 3 and counts.memories == 3
    assert dump(target) == whole


# -- the CLI ----------------------------------------------------------------------------
def run(home: Path, *args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["--home", str(home), *args], env=KEYWORD_ONLY, input=input)


def test_cli_export_import_round_trip(source: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    db, ids = source
    out = tmp_path / "backup.jsonl"
    exported = run(
        tmp_path / "src", "--db", str(db), "export", "--all", "--vectors", "-o", str(out), "--json"
    )
    assert exported.exit_code == 0, exported.output
    summary = json.loads(exported.output)
    assert summary["memories"] == 6 and summary["vectors"] == 6 and summary["namespaces"] is None
    assert not out.with_name("backup.jsonl.partial").exists()
    home = tmp_path / "home"
    imported = run(home, "import", str(out), "--json")
    assert imported.exit_code == 0, imported.output
    assert json.loads(imported.output)["memories"] == 6
    assert dump(home / "engram.db") == dump(db)
    again = run(home, "import", str(out))
    assert again.exit_code == 0
    assert "imported 0 memories" in again.output and "skipped 7 already stored" in again.output
    assert dump(home / "engram.db") == dump(db)


def test_cli_export_to_stdout_and_import_from_stdin(
    source: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    db, ids = source
    exported = run(tmp_path / "src", "--db", str(db), "export", "--user", "bob")
    assert exported.exit_code == 0
    jsonl = exported.stdout
    assert json.loads(jsonl.splitlines()[0])["namespaces"] == [BOB]
    assert "exported 2 memories" in exported.stderr
    home = tmp_path / "home"
    imported = run(home, "import", "-", input=jsonl)
    assert imported.exit_code == 0, imported.output
    assert "run `engram reindex`" in imported.output
    assert [m["id"] for m in dump(home / "engram.db")["memories"]] == sorted(
        [ids["bob"], ids["same_text_other_ns"]]
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("export", "--all", "--user", "bob"), "--all exports every namespace"),
        (("import", "missing.jsonl"), "cannot read missing.jsonl"),
    ],
)
def test_cli_errors(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    result = run(tmp_path / "home", *args)
    assert result.exit_code == 2
    output = " ".join(result.output.split())  # rich wraps long lines
    assert message in output and "Traceback" not in output


def test_cli_import_of_a_bad_file_names_the_line(tmp_path: Path) -> None:
    bad = write_lines(tmp_path / "bad.jsonl", [{"engram_export": 1}, "{oops"])
    result = run(tmp_path / "home", "import", str(bad))
    assert result.exit_code == 2
    assert f"{bad}, line 2: not valid JSON" in " ".join(result.output.split())
    assert not (tmp_path / "home" / "engram.db").exists()  # no empty store left behind


def test_a_copy_through_each_backend_is_exact(
    source: tuple[Path, dict[str, str]],
    exported: Path,
    tmp_path: Path,
    config: Config,
    store_location: str,
) -> None:
    """SQLite -> this backend -> SQLite: what a store-to-store migration relies on."""
    db, _ = source
    with Memory(store_location, config=config, embedder=None) as middle:
        first = import_jsonl(middle.store, exported)
        assert first.memories == 6 and first.transcripts == 1
        assert import_jsonl(middle.store, exported) == ImportCounts(
            existing=7, rows_existing=first.rows
        )
        again = tmp_path / "again.jsonl"
        with again.open("w", encoding="utf-8") as out:
            export_jsonl(middle.store, out, vectors=True, batch_size=4)
    assert lines(again)[1:] == lines(exported)[1:]
    target = tmp_path / "target.db"
    import_file(target, again)
    assert dump(target) == dump(db)


def test_cli_export_of_an_empty_namespace_warns(
    source: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    """A backup script with a mistyped --user wrote an empty export and said only
    'exported 0 memories': nothing hinted that the namespace holds nothing."""
    db, _ = source
    out = tmp_path / "backup.jsonl"
    result = run(tmp_path / "src", "--db", str(db), "export", "--user", "alcie", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "warning: namespace 'user:alcie' holds nothing to export" in result.output
    assert "engram doctor lists the namespaces" in result.output
    assert out.exists()  # still a valid (empty) export
