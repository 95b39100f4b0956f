"""A namespace's vector sum kept by the dense search (``VectorCentres``, task centre43):
the exact sum of its live vectors after every kind of write on SQLite, at most a few
writes stale and exact after a refresh on PostgreSQL; recall reads it without writing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engram import Memory
from engram.store.postgres import centres as pg_centres
from engram.store.protocols.vector_centres import Centre, VectorCentres

NS = "user:centre"


def _centres(mem: Memory) -> VectorCentres:
    assert isinstance(mem.index, VectorCentres)
    return mem.index


def _fresh(mem: Memory, namespaces: list[str]) -> Centre | None:
    """The sum recall would read now, after what PostgreSQL holds is read again (SQLite
    keeps it exact at every write: nothing to read again there)."""
    held = getattr(mem.index, "centres", None)
    if held is not None:
        held.forget()
    return _centres(mem).centre(namespaces)


def _check(mem: Memory, *namespaces: str) -> None:
    """The sum and count equal those of ``vectors.load`` over ``namespaces``."""
    assert mem.index is not None
    loaded = [mem.store.vectors.load(ns, mem.index.model).matrix for ns in namespaces]
    rows = [m for m in loaded if m.size]
    got = _fresh(mem, list(namespaces))
    assert got is not None
    want_n = sum(len(m) for m in rows)
    assert got.count == want_n
    if want_n == 0:
        assert got.mean() is None
        assert not np.any(got.total)
        return
    want = np.concatenate(rows).astype(np.float64).sum(axis=0)
    # float32 rows summed in float64 (SQLite); pgvector's avg is read back as float4
    np.testing.assert_allclose(got.total, want, rtol=1e-5, atol=1e-5)


def _fill(mem: Memory, namespace: str = NS, n: int = 6) -> list[str]:
    return [
        mem.add(
            f"memory {i} about the garden and item {i * 7}",
            namespace=namespace,
            metadata={"k": i},
        ).id
        for i in range(n)
    ]


def test_sum_after_add_and_union(mem: Memory) -> None:
    _fill(mem)
    _fill(mem, "shared:centre", 3)
    _check(mem, NS)
    _check(mem, "shared:centre")
    _check(mem, NS, "shared:centre")  # a union's sum and count
    both = _centres(mem).centre([NS, "shared:centre"])
    assert both is not None and both.count == 9
    nobody = _centres(mem).centre(["nobody"])
    assert nobody is None or nobody.count == 0


def test_sum_after_forget_and_edit(mem: Memory) -> None:
    ids = _fill(mem)
    _check(mem, NS)
    mem.delete(ids[0], namespace=NS)
    _check(mem, NS)
    mem.update(ids[1], "a wholly new text on the bicycle", namespace=NS)
    _check(mem, NS)
    mem.purge(namespace=NS)
    _check(mem, NS)


def test_sum_after_erase(mem: Memory) -> None:
    _fill(mem)
    _fill(mem, "user:other", 2)
    _check(mem, NS)
    mem.erasure.erase(namespace=NS, filters={"metadata.k": 2})
    _check(mem, NS)
    mem.erasure.erase(namespace=NS)
    _check(mem, NS)
    _check(mem, "user:other")


def test_an_erase_takes_the_vector_out_of_what_recall_reads(mem: Memory) -> None:
    """Without a refresh asked for: the erase itself drops what was held."""
    _fill(mem)
    before = _centres(mem).centre([NS])
    assert before is not None and before.count == 6
    mem.erasure.erase(namespace=NS, filters={"metadata.k": 2})
    after = _centres(mem).centre([NS])
    assert after is not None and after.count == 5


def test_sum_after_reembed(mem: Memory) -> None:
    _fill(mem)
    _check(mem, NS)
    mem.reindex(rebuild=True)
    _check(mem, NS)


def test_sum_after_import(mem: Memory, tmp_path: Path) -> None:
    _fill(mem)
    path = tmp_path / "out.jsonl"
    with path.open("w") as out:
        mem.admin.export_jsonl(out, namespaces=[NS], vectors=True)
    mem.erasure.erase(namespace=NS)
    _check(mem, NS)
    mem.admin.import_jsonl(path)
    _check(mem, NS)
    got = _centres(mem).centre([NS])
    assert got is not None and got.count == 6


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_sqlite_keeps_the_sum_at_every_write(mem: Memory) -> None:
    """SQLite's running sum follows each write of this process with no read again."""
    ids = _fill(mem)
    for step in range(3):
        mem.add(f"another line {step} about the garden", namespace=NS)
        _check(mem, NS)
    mem.delete(ids[3], namespace=NS)
    index = _centres(mem)
    got = index.centre([NS])
    assert got is not None and got.count == 8


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_postgres_mean_is_a_few_writes_stale_then_exact(mem: Memory) -> None:
    """PostgreSQL serves the sum it read until ``REFRESH_MIN`` writes (here: 2 % of the
    count is less) have gone by; that mean stays within 1e-2 cosine of the exact one for
    a namespace with a topic; then a worker reads it again and it is exact."""
    held = getattr(mem.index, "centres", None)
    assert isinstance(held, pg_centres.PgCentres)
    for i in range(60):
        mem.add(f"the kestrel dashboard charts sprint note {i}", namespace=NS)
    first = _centres(mem).centre([NS])
    assert first is not None and first.count == 60
    reads = held.reads
    for i in range(pg_centres.REFRESH_MIN - 1):
        mem.add(f"the kestrel dashboard charts follow up {i}", namespace=NS)
    stale = _centres(mem).centre([NS])
    assert stale is not None and stale.count == 60 and held.reads == reads  # no read
    assert mem.index is not None
    exact = mem.store.vectors.load(NS, mem.index.model).matrix.astype(np.float64).mean(axis=0)
    stale_mean = stale.mean()
    assert stale_mean is not None
    assert _cosine(stale_mean, exact) > 1 - 1e-2
    mem.add("the kestrel dashboard charts last one", namespace=NS)  # the refresh is due
    _centres(mem).centre([NS])  # starts it on a worker; this recall keeps the held sum
    held.settle()
    fresh = _centres(mem).centre([NS])
    assert fresh is not None and fresh.count == 60 + pg_centres.REFRESH_MIN
    assert held.reads == reads + 1
    got = fresh.mean()
    assert got is not None
    np.testing.assert_allclose(got, _exact_mean(mem), rtol=1e-5, atol=1e-6)


def _exact_mean(mem: Memory) -> np.ndarray:
    assert mem.index is not None
    matrix = mem.store.vectors.load(NS, mem.index.model).matrix.astype(np.float64)
    mean: np.ndarray = matrix.mean(axis=0)
    return mean


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_recall_with_centred_cosines_writes_nothing(mem: Memory) -> None:
    """SQLite: a recall with the stage on changes no row more than one with it off."""
    for i in range(30):
        mem.add(f"the kestrel dashboard charts sprint note {i}", namespace=NS)
    conn = mem.store._db.conn  # type: ignore[attr-defined]
    question = "what palette did we pick for the kestrel dashboard charts"
    mem.recall(question, namespace=NS, centred_weight=0.0)  # warm what recall may cache
    mem.recall(question, namespace=NS, centred_weight=0.2)
    changes = []
    for weight in (0.0, 0.2):
        before = conn.total_changes
        mem.recall(question, namespace=NS, centred_weight=weight)
        changes.append(conn.total_changes - before)
    assert changes[1] == changes[0] == 0


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_postgres_recall_reads_no_sum_once_known(mem: Memory) -> None:
    for i in range(30):
        mem.add(f"the kestrel dashboard charts sprint note {i}", namespace=NS)
    held = getattr(mem.index, "centres", None)
    assert isinstance(held, pg_centres.PgCentres)
    question = "what palette did we pick for the kestrel dashboard charts"
    mem.recall(question, namespace=NS, centred_weight=0.2)
    reads = held.reads
    for _ in range(3):
        mem.recall(question, namespace=NS, centred_weight=0.2)
    assert held.reads == reads
