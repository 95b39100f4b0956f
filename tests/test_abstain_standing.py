"""The store standing in recall (issue 24, round 5): each namespace's profile (every
category label's best cosine in it) computed through the store's own dense search,
kept current across adds and deletes, read for several namespaces as one store, and
the two-stage decision it feeds."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from conftest import HashEmbedder
from engram import Memory
from engram.bench import abstain as bench
from engram.bench import abstain_line
from engram.config import Config
from engram.recall import calibrations, standing
from engram.recall.abstain import CALIBRATION, Calibration, Evidence, StandingLine, Verdict

NOTES = [
    "The database is Postgres on a managed instance.",
    "Alice prefers green tea over coffee in the morning.",
    "We decided to run the test suite with warnings as errors.",
]


def exact(mem: Memory, namespace: str) -> np.ndarray:
    """Each label's best cosine by a full matrix product over the namespace's vectors."""
    assert mem.embedder is not None and mem.index is not None
    labels = standing.label_vectors(mem.embedder)
    matrix = mem.store.vectors.load(namespace, mem.index.model).matrix
    return np.asarray((labels @ matrix.T).max(axis=1))


def profiled(mem: Memory, namespace: str = "default") -> np.ndarray:
    assert mem.standings is not None
    found = mem.standings.profile(namespace)
    assert found is not None
    return found.maxima


def test_the_profile_is_each_labels_best_cosine(mem: Memory) -> None:
    for note in NOTES:
        mem.add(note)
    np.testing.assert_allclose(profiled(mem), exact(mem, "default"), atol=1e-4)
    assert mem.standings is not None and mem.standings.profile("empty") is None


def test_adds_fold_in_without_a_recompute(mem: Memory) -> None:
    for note in NOTES:
        mem.add(note)
    before = profiled(mem).copy()
    assert mem.standings is not None and mem.standings.computed == 1
    mem.add("database")  # a label's own text: its best cosine becomes 1
    after = profiled(mem)
    assert mem.standings.computed == 1  # folded in, current at the new epoch
    np.testing.assert_allclose(after, exact(mem, "default"), atol=1e-4)
    assert after.max() == pytest.approx(1.0, abs=1e-4) and before.max() < 0.99
    assert (after >= before - 1e-6).all()


def test_a_delete_makes_the_profile_recompute(mem: Memory) -> None:
    for note in NOTES:
        mem.add(note)
    label = mem.add("database")
    high = profiled(mem).max()
    assert mem.standings is not None
    computed = mem.standings.computed
    mem.delete(label.id)
    low = profiled(mem)
    assert mem.standings.computed == computed + 1
    np.testing.assert_allclose(low, exact(mem, "default"), atol=1e-4)
    assert low.max() < high - 0.01


@contextmanager
def held(standings: standing.Standings) -> Iterator[threading.Event]:
    """The standing worker held before each profile it computes until the event is
    set, so a test sees the state between asking for a profile and having it (without
    the hold the worker may finish before ``value`` reads again, and the test races)."""
    gate = threading.Event()
    compute = standings._compute

    def wait_then_compute(namespace: str) -> np.ndarray | None:
        assert gate.wait(30), "the test never released the standing worker"
        return compute(namespace)

    standings._compute = wait_then_compute  # type: ignore[method-assign]
    try:
        yield gate
    finally:
        gate.set()
        standings._compute = compute  # type: ignore[method-assign]


def test_recall_asks_for_the_profile_off_its_wait(mem: Memory) -> None:
    for note in NOTES:
        mem.add(note)
    standings = mem.standings
    assert standings is not None
    with held(standings) as gate:
        assert standings.value(["default"], 0.5) is None  # asked for, not waited on
        gate.set()
        standings.wait()
    value = standings.value(["default"], 0.5)
    assert value == pytest.approx(standing.standing_of(0.5, exact(mem, "default")), abs=1e-3)


def test_several_namespaces_read_as_one_store(mem: Memory) -> None:
    for note in NOTES:
        mem.add(note, namespace="a")
    mem.add("database", namespace="b")
    mem.add("cloud provider", namespace="b")
    standings = mem.standings
    assert standings is not None
    standings.profile("a"), standings.profile("b")
    union = np.maximum(exact(mem, "a"), exact(mem, "b"))
    got = standings.value(["a", "b"], 0.4)
    assert got == pytest.approx(standing.standing_of(0.4, union), abs=1e-3)
    assert got != pytest.approx(standings.value(["a"], 0.4), abs=1e-3)
    # A namespace not yet profiled leaves the pair without a standing until it is...
    with held(standings) as gate:
        assert standings.value(["a", "nothing"], 0.4) is None
        gate.set()
        standings.wait()
    # ...and once read as holding no vector it adds nothing to the union.
    assert standings.profile("nothing") is None
    assert standings.value(["a", "nothing"], 0.4) == pytest.approx(
        standings.value(["a"], 0.4), abs=1e-6
    )
    assert standings.value(["nothing"], 0.4) is None  # no vector anywhere: no standing


def test_profiles_stop_with_the_store(config: Config) -> None:
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as mem:
        for note in NOTES:
            mem.add(note)
        standings = mem.standings
        assert standings is not None
        standings.value(["default"], 0.5)
    standings.wait()  # the worker stopped; nothing was left running
    assert standings.value(["default"], 0.5) is None or standings.computed <= 1


LINE = StandingLine(angle=30.0, floor=0.3)


def _evidence(sim: float) -> Evidence:
    return Evidence(sim=sim, overlap=0.0, terms=3, matched=False)


def test_the_line_alone_decides_silence_when_the_standing_is_known() -> None:
    cal = Calibration.from_mapping(
        {
            **{k: getattr(CALIBRATION, k) for k in ("embedder", "mean", "scale", "coef")},
            "intercept": CALIBRATION.intercept,
            "threshold": CALIBRATION.threshold,
            "low_threshold": CALIBRATION.low_threshold,
            "standing": {"angle": LINE.angle, "floor": LINE.floor},
        }
    )
    assert cal.standing == LINE
    low = _evidence(0.05)  # below the shipped silent floor (0.081)
    assert cal.verdict(low) is Verdict.UNRELATED  # no standing: the silent floor
    assert cal.verdict(low, standing=2.0) is Verdict.UNCERTAIN  # stands out in its store
    mid = _evidence(0.25)  # between the shipped floors
    assert cal.verdict(mid) is Verdict.UNCERTAIN
    assert cal.verdict(mid, standing=-1.0) is Verdict.UNRELATED  # below the line
    assert LINE.value(0.25, -1.0) == pytest.approx(
        math.cos(math.radians(30)) * 0.25 - math.sin(math.radians(30))
    )
    high = _evidence(0.6)
    assert cal.verdict(high, standing=1.0) is Verdict.RELATED


def _row(kind: str, i: int, sim: float, stand: float | None, held_out: bool = False) -> bench.Row:
    """A paraphrase question's evidence: only its cosine and standing matter here."""
    same = {"fused": sim, "top_score": sim, "overlap": 0.0, "terms": 3, "matched": False}
    return bench.Row(
        **same,
        set=kind,
        dataset="paraphrase",
        fold=i % 2,
        question_id=f"s{i % 3}:a{i}",
        namespace="agent",
        sim=sim,
        gold_rank=0 if kind == "answerable" else None,
        decision_us=1.0,
        held_out=held_out,
        split="held-out" if held_out else "calibration",
        standing=stand,
    )


def test_the_fit_puts_every_calibration_question_above_its_line() -> None:
    # Cross-domain questions with a fair cosine but a low standing, answerable ones
    # with a modest cosine that stands out in their store: only a tilted line parts them.
    rows = [_row("answerable", i, 0.2 + 0.01 * i, 1.0 + 0.05 * i) for i in range(20)]
    rows += [_row("cross", i, 0.25 + 0.01 * i, -1.0 - 0.05 * i) for i in range(20)]
    rows += [_row("answerable", 99, 0.01, -5.0, held_out=True)]  # never read
    line = abstain_line.fit_standing(rows)
    assert line is not None and line["angle"] != 0.0
    test = StandingLine.from_mapping(line)
    calibration = [r for r in rows if not r.held_out]
    assert not any(
        test.off_topic(r.sim or 0.0, r.standing or 0.0)
        for r in calibration
        if r.set == "answerable"
    )
    assert all(test.off_topic(r.sim or 0.0, r.standing or 0.0) for r in rows if r.set == "cross")
    # Rows measured without the standing fit no line (the silent floor decides).
    assert abstain_line.fit_standing([replace(r, standing=None) for r in rows]) is None


def _calibrated(config: Config, line: dict[str, float]) -> Memory:
    """A store whose embedder has a user calibration: silent below a best cosine of
    0.9, confident from 0.95, and the standing's off-topic ``line``."""
    embedder = HashEmbedder(4096)
    embedder.name = "hash-standing"
    fitted = {"features": ["sim", "overlap"], "mean": [0.0, 0.0], "scale": [1.0, 1.0]}
    fitted |= {"coef": [10.0, 0.0], "intercept": 0.0, "threshold": 9.5, "low_threshold": 9.0}
    calibrations.save(config.home_path, embedder.name, {**fitted, "standing": line}, "test")
    on = Config.load(env={}, home=str(config.home_path), recall={"standing": True})
    mem = Memory(":memory:", config=on, embedder=embedder)
    for note in NOTES:
        mem.add(note)
    return mem


QUESTION = "which database do we run?"


def test_recall_reads_the_standing_once_its_profile_is_ready(config: Config) -> None:
    # A line no query falls below: once the profile is known, the question that the
    # silent floor alone silences gets one marked line instead.
    with _calibrated(config, {"angle": 80.0, "floor": -100.0}) as mem:
        first = mem.recall(QUESTION)
        assert first.abstained and not first.hits  # decided without: not ready yet
        assert mem.standings is not None
        mem.standings.wait()
        later = mem.recall(QUESTION)
        assert not later.abstained and later.low_confidence and later.hits
        off = mem.recall(QUESTION, standing=False)
        assert off.abstained and not off.hits  # the setting turns it off


def test_a_query_below_the_line_is_silent_and_says_so(config: Config) -> None:
    with _calibrated(config, {"angle": 0.0, "floor": 0.95}) as mem:
        assert mem.standings is not None
        first = mem.recall("database")  # decided by the floor alone: no standing named
        assert first.abstained and "store standing" not in (first.abstain_reason or "")
        mem.standings.wait()
        found = mem.recall("database")
        assert found.abstained and "store standing" in (found.abstain_reason or "")


def test_label_vectors_are_kept_for_the_next_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = HashEmbedder()
    embedder.name = "hash-counting"
    monkeypatch.setattr(standing, "_LABELS", {})
    first = standing.label_vectors(embedder, tmp_path)
    assert embedder.calls == 1
    monkeypatch.setattr(standing, "_LABELS", {})  # a new process
    again = standing.label_vectors(embedder, tmp_path)
    assert embedder.calls == 1  # read, not embedded
    np.testing.assert_array_equal(first, again)
    # A file of another shape (another model under the same name) is not trusted.
    (saved,) = tmp_path.glob("labels-hash-counting-*.npy")
    np.save(saved, np.zeros((3, 3), dtype=np.float32))
    monkeypatch.setattr(standing, "_LABELS", {})
    standing.label_vectors(embedder, tmp_path)
    assert embedder.calls == 2


def test_recall_leaves_the_standing_unread_by_default(config: Config) -> None:
    # Off by default (docs/benchmarks.md, round 5: it silences answerable paraphrases
    # once a store holds a few hundred memories): no profile is computed, and the
    # silent floor alone decides, however long the store is open.
    embedder = HashEmbedder(4096)
    embedder.name = "hash-standing-default"
    fitted = {"features": ["sim", "overlap"], "mean": [0.0, 0.0], "scale": [1.0, 1.0]}
    fitted |= {"coef": [10.0, 0.0], "intercept": 0.0, "threshold": 9.5, "low_threshold": 9.0}
    line = {"angle": 80.0, "floor": -100.0}
    calibrations.save(config.home_path, embedder.name, {**fitted, "standing": line}, "test")
    with Memory(":memory:", config=config, embedder=embedder) as mem:
        for note in NOTES:
            mem.add(note)
        assert mem.recall(QUESTION).abstained
        assert mem.standings is not None
        mem.standings.wait()
        assert mem.standings.computed == 0
        assert mem.recall(QUESTION).abstained  # still the silent floor's decision
