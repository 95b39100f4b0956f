"""Memory ids found by hash (``vector_ids.IdHashes``, lat38): the same rows as the
byte-string binary search it replaced in the term and vector blocks' ``KeyRows``, for
ids that share their hash, ids absent, duplicates (the latest row wins) and probes
wider or narrower than the array."""

from __future__ import annotations

import numpy as np
import pytest

from engram.records import new_id
from engram.store.sqlite import vector_ids
from engram.store.sqlite.vector_ids import IdHashes, KeyRows, encode_ids, id_hashes

#: Two ids whose 8-byte words are the same words in another order: one hash (XOR).
TWINS = ("abcdefgh12345678", "12345678abcdefgh")


def _searched(ids: np.ndarray, probes: np.ndarray) -> list[int]:
    """The last index of an equal id in sorted ``ids``, or -1, by the byte search."""
    at = np.searchsorted(ids, probes, side="right") - 1
    hit = (at >= 0) & (ids[np.maximum(at, 0)] == probes)
    return np.where(hit, at, -1).tolist()


def test_an_ids_hash_does_not_depend_on_the_arrays_width() -> None:
    narrow = encode_ids(["m1", "abc"])
    wide = encode_ids(["m1", "abc", "a much longer id than both of them"])
    assert id_hashes(narrow).tolist() == id_hashes(wide)[:2].tolist()
    assert id_hashes(encode_ids(list(TWINS)))[0] == id_hashes(encode_ids(list(TWINS)))[1]


def test_found_by_hash_as_by_the_byte_search() -> None:
    rng = np.random.default_rng(3)
    made = [new_id() for _ in range(3000)]  # time-ordered: their first bytes are alike
    made += [*TWINS, "abcd", "a", "ünï", *[f"{rng.integers(0, 50):x}" for _ in range(300)]]
    ids = np.sort(encode_ids(made))  # repeats among the short ones: the last wins
    probes = encode_ids(
        [*made[::5], *TWINS, "12345678abcdefgX", "abcdefgh", "", "zz", new_id(), "abc" * 20]
    )
    assert IdHashes(ids).find(ids, probes).tolist() == _searched(ids, probes)
    some = encode_ids(made[:40])  # every probe found: the early answer
    assert IdHashes(ids).find(ids, some).tolist() == _searched(ids, some)


def test_twins_sharing_a_hash_are_each_found_and_an_absent_one_is_not() -> None:
    ids = np.sort(encode_ids([TWINS[0], TWINS[1], TWINS[1], "m1"]))
    hashes = IdHashes(ids)
    probes = encode_ids([TWINS[0], TWINS[1], "m1", "efghabcd56781234"])
    assert hashes.find(ids, probes).tolist() == _searched(ids, probes) == [2, 1, 3, -1]


def test_key_rows_by_hash_give_the_rows_through_the_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = np.random.default_rng(5)
    ids = [*[f"{rng.integers(0, 60):04x}" for _ in range(300)], *TWINS, TWINS[0]]
    asked = [*ids[::4], *TWINS, "abc", "zzzz", "", "0000", "efghabcd56781234"]
    monkeypatch.setattr(vector_ids, "SORTED_MIN", 10**9)
    through_order = KeyRows.of_ids(ids).rows(asked)
    monkeypatch.setattr(vector_ids, "SORTED_MIN", 1)
    keys = KeyRows.of_ids(ids)
    assert keys.rows(asked) == through_order  # the first call: no hashes yet
    assert keys.rows(asked) == through_order  # by hash
    assert keys.rows([TWINS[0]]) == [len(ids) - 1]  # the latest row of a repeated id
    keys.append(TWINS[1])  # the tail answers first, then the fold drops the hashes
    assert keys.rows([TWINS[1], "zzzz"]) == [len(ids), None]
    keys._fold()
    assert keys.rows([TWINS[1]]) == keys.rows([TWINS[1]]) == [len(ids)]
