"""The numpy-backed row maps of the SQLite backend's derived blocks (``vector_ids``),
and the snapshots that save them (format 2: ids as bytes with their sort order).

A snapshot written before (format 1: str ids, no order) must still load, be caught up
and never bring a deleted memory back; a damaged order file is dropped like any other
damaged part (the ``saved`` fixture and helpers are ``test_ann_snapshot``'s).
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import numpy as np
import pytest

import test_ann_snapshot as snap
from engram import Config, Memory
from engram.store.sqlite import vector_ids
from engram.store.sqlite.vector_ids import KeyRows
from test_ann import SIZE
from test_ann_snapshot import (
    _ann,
    _files,
    _keyword_open,
    _matches_exact,
    _open,
    _part,
    _persisted,
    _query,
    saved_terms,
)

kind, saved = snap.kind, snap.saved  # the fixtures: both kinds of snapshot


def test_rows_of_ids_are_found_and_the_latest_row_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vector_ids, "FOLD_MIN", 3)
    keys = KeyRows.of_ids(["b", "a", "c", "ünï"])
    assert keys.array().dtype.kind == "S"  # UTF-8 bytes, not 4 bytes a character
    assert [keys.get(k) for k in ("a", "b", "c", "ünï", "d")] == [1, 0, 2, 3, None]
    assert keys[3] == "ünï" and keys[-1] == "ünï" and len(keys) == 4
    assert keys.append("a") == 4 and keys.get("a") == 4  # the latest row of "a"
    assert "a" in keys and "zz" not in keys
    keys.append("d")
    keys.append("e")  # the tail reaches FOLD_MIN: folded into the array
    assert keys.array().shape == (7,)
    assert keys.take(range(7)) == ["b", "a", "c", "ünï", "a", "d", "e"]
    assert keys.get("a") == 4 and keys.get("e") == 6 and keys.get("b") == 0


def test_an_id_longer_than_the_arrays_width_is_not_a_prefix_match() -> None:
    keys = KeyRows.of_ids(["abcd", "wxyz"])
    assert keys.get("abcdef") is None and keys.get("abc") is None
    assert keys.get("abcd") == 0
    assert keys.rows(["abcdef", "wxyz", "abc", "abcd"]) == [None, 1, None, 0]
    keys.append("new")
    assert keys.rows(["new", "zzzz", "abcd"]) == [2, None, 0]
    assert KeyRows.of_ints([4, 1, 4]).rows([4, 1, 3]) == [2, 1, None]


def test_live_gives_the_keys_whose_latest_row_is_alive_and_those_rows() -> None:
    """``live`` is ``rows`` and a check of each row's alive flag, made on arrays: keys
    in their order, absent and dead ones left out, the tail's latest row winning."""
    keys = KeyRows.of_ids(["a", "b", "c", "ünï"])
    keys.append("b")  # row 4: the latest row of "b"
    alive = np.array([True, False, True, True, True])
    found, rows = keys.live(["c", "zz", "b", "a", "ünï", "c"], alive)
    assert found == ["c", "b", "a", "ünï", "c"] and rows.tolist() == [2, 4, 0, 3, 2]
    alive[4] = False  # the latest row of "b" removed: its older row does not answer
    found, rows = keys.live(["b", "a"], alive)
    assert found == ["a"] and rows.tolist() == [0]
    assert keys.row_array(["b", "zz", "ünï"]).tolist() == [4, -1, 3]
    empty, none = KeyRows.of_ids([]).live(["a"], np.zeros(0, bool))
    assert empty == [] and none.tolist() == []
    ints = KeyRows.of_ints([7, 9, 7])
    assert ints.live([7, 9, 8], np.array([True, True, True]))[1].tolist() == [2, 1]


def test_take_gathers_the_keys_of_rows_and_falls_back_for_tail_and_negative_rows() -> None:
    keys = KeyRows.of_ids(["b", "a", "ünï"])
    assert keys.take([2, 0, 2]) == ["ünï", "b", "ünï"]
    assert all(type(k) is str for k in keys.take([0, 1]))
    keys.append("tail")
    assert keys.take([3, 1, -1]) == ["tail", "a", "tail"]
    assert KeyRows.of_ints([5, 6]).take(np.array([1, 0])) == [6, 5]
    assert keys.take([]) == []


def test_rows_through_the_sorted_copy_are_the_rows_through_the_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = np.random.default_rng(7)
    ids = [f"{rng.integers(0, 40):04x}" for _ in range(200)]  # repeats: the latest wins
    asked = [*ids[::3], "abcdef", "abc", "zzzz", "", "0000"]
    monkeypatch.setattr(vector_ids, "SORTED_MIN", 10**9)
    through_order = KeyRows.of_ids(ids).rows(asked)
    monkeypatch.setattr(vector_ids, "SORTED_MIN", 1)
    keys = KeyRows.of_ids(ids)
    assert keys.rows(asked) == through_order  # the first call: no copy yet
    assert keys.nbytes() == KeyRows.of_ids(ids).nbytes() + keys.order().nbytes
    assert keys.rows(asked) == through_order  # through the copy, which counts
    assert keys.nbytes() > KeyRows.of_ids(ids).nbytes() + keys.order().nbytes
    keys.append("abc")  # in the tail, then folded: the copy is made again
    assert keys.rows(["abc"]) == [200]
    keys._fold()
    assert keys.rows(["abc", "abcdef"]) == [200, None]
    assert keys.rows(["abc", "abcdef"]) == [200, None]
    seqs = KeyRows.of_ints([5, 9, 2, 9])
    assert seqs.rows([9, 2, 7, -1]) == [3, 2, None, None]


def test_int_keys_and_a_saved_order() -> None:
    seqs = KeyRows.of_ints([5, 9, 2])
    assert [seqs.get(s) for s in (2, 5, 9, 7)] == [2, 0, 1, None]
    assert seqs.append(9) == 3 and seqs.get(9) == 3 and seqs[3] == 9
    ids = KeyRows.of_ids(np.array(["q", "p"]))  # a format 1 file's str array
    ids.set_order(np.array([1, 0], np.int32))
    assert ids.get("p") == 1 and ids.get("q") == 0
    with pytest.raises(ValueError, match="disagree"):
        ids.set_order(np.array([0], np.int32))


def test_a_snapshot_saves_ids_as_bytes_with_their_order(saved: Path, kind: str) -> None:
    ids = np.load(_part(saved, "ids"))
    order = np.load(_part(saved, "order"))
    assert ids.dtype.kind == "S" and len(ids) == SIZE
    assert (ids[order][:-1] <= ids[order][1:]).all()


def _as_format_1(path: Path) -> None:
    """Rewrite a snapshot as the code before format 2 wrote it: str ids, no order."""
    [manifest_path] = [p for p in _files(path) if p.suffix == ".json"]
    manifest = json.loads(manifest_path.read_text())
    ids_path = _part(path, "ids")
    np.save(ids_path, np.load(ids_path).astype(str), allow_pickle=False)
    raw = ids_path.read_bytes()
    manifest["files"]["ids"] |= {"bytes": len(raw), "crc32": zlib.crc32(raw)}
    _part(path, "order").unlink()
    del manifest["files"]["order"]
    manifest["format"] = 1
    manifest_path.write_text(json.dumps(manifest))


def test_a_format_1_snapshot_is_still_read_and_caught_up(
    saved: Path, config: Config, kind: str
) -> None:
    _as_format_1(saved)
    with Memory(
        saved, config=config.with_overrides(recall={"ann_min_vectors": 1_000_000}), embedder=None
    ) as other:
        target = other.get_all(namespace="big", limit=10_000)[17]
        other.delete(target.id, namespace="big")
    with _open(saved, config, kind) as mem:
        assert mem.index is not None
        found = [i for i, _ in mem.index.search("big", _query(mem, target.content), SIZE)]
        assert target.id not in found  # masked at the catch-up, looked up by id
        assert _matches_exact(mem, "w3 w4 w5")
        assert _persisted(mem)["loaded"] == 1 and "failures" not in _ann(mem)


def test_a_damaged_order_file_drops_the_snapshot(saved: Path, config: Config, kind: str) -> None:
    order = _part(saved, "order")
    raw = bytearray(order.read_bytes())
    raw[-3] ^= 0x7F
    order.write_bytes(bytes(raw))
    with _open(saved, config, kind) as mem:
        assert _matches_exact(mem, "w3 w4 w5")
        assert _persisted(mem)["loaded"] == 0 and "dropped" in str(_ann(mem)["failures"])


def test_the_term_index_reads_back_ids_and_seqs_as_arrays(tmp_path: Path, config: Config) -> None:
    path, before = saved_terms(tmp_path, config, "w3 OR w4")
    [ids] = [p for p in _files(path, "terms") if p.name.endswith(".ids")]
    assert np.load(ids).dtype.kind == "S"
    assert [p for p in _files(path, "terms") if p.name.endswith(".id_order")]
    with _keyword_open(path, config) as mem:
        assert mem.store.keyword.search("big", "w3 OR w4", 20) == before
        assert mem.store.keyword.state()["loaded_from_disk"] == 1
        gone = before[0][0]
        # Exact scores of given ids (recall's keyword leg) look rows up by id.
        assert gone in mem.store.keyword.scores("big", "w3 OR w4", [gone])
        mem.delete(gone, namespace="big")
        assert gone not in mem.store.keyword.scores("big", "w3 OR w4", [gone])
        found = [i for i, _ in mem.store.keyword.search("big", "w3 OR w4", 50)]
        assert gone not in found
