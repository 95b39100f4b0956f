"""The paraphrase set and ``engram bench paraphrase`` (issue 24: no false silence)."""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import HashEmbedder
from engram import Memory
from engram.bench import abstain as abstain_bench
from engram.bench import paraphrase
from engram.cli.main import cli
from engram.config import Config
from engram.errors import InvalidInputError
from engram.recall.abstain import _starts_a_word, stem
from engram.text import keywords

STORES = paraphrase.load()


def shared_words(question: str, memory: str) -> list[str]:
    """The question's keywords the memory holds, as recall's abstain check counts them
    (a stem starting a word of the memory) or as the same keyword."""
    text = memory.lower()
    own = set(keywords(memory))
    return [t for t in keywords(question) if t in own or _starts_a_word(text, stem(t))]


def test_each_question_shares_at_most_one_content_word_with_its_gold() -> None:
    offenders = [
        (s.id, q.text, g, words)
        for s in STORES
        for q in s.questions
        for g in sorted(q.gold)
        if len(words := shared_words(q.text, s.memories[g])) > 1
    ]
    assert offenders == []


def test_the_check_counts_what_the_decision_counts() -> None:
    # "deploys" finds "deployed" through the stem, as the abstain overlap does.
    assert shared_words("When are deploys frozen?", "We deployed on Friday.") == ["deploys"]
    assert shared_words("which web framework does the API use?", "The API uses Flask") == [
        "api",
        "use",
    ]


def test_the_set_is_big_and_varied_enough() -> None:
    memories = sum(len(s.memories) for s in STORES)
    assert memories >= 150
    assert len({s.domain for s in STORES}) >= 6
    assert 54 <= len(STORES) <= 56
    assert all(10 <= len(s.memories) <= 12 for s in STORES)
    splits = Counter(s.split for s in STORES)
    # A fixed third of the first fifteen stores is held out, never used to fit or tune.
    assert splits[paraphrase.HELD_OUT] * 2 == splits[paraphrase.CALIBRATION] == 10
    assert sum(len(s.questions) for s in STORES) >= 150
    assert all(len(s.unrelated) >= 3 for s in STORES)
    # Every question is asked once as cross-domain, of a store of another domain.
    targets = Counter(s.cross_target for s in STORES)
    assert set(targets.values()) == {1}
    held = {s.domain for s in STORES if s.split == paraphrase.HELD_OUT}
    assert len(held) >= 5


@pytest.mark.parametrize(
    "split",
    [
        paraphrase.HELD_OUT_2,
        paraphrase.HELD_OUT_3,
        paraphrase.HELD_OUT_4,
        paraphrase.HELD_OUT_5,
        paraphrase.HELD_OUT_6,
        paraphrase.HELD_OUT_7,
        paraphrase.HELD_OUT_8,
        paraphrase.HELD_OUT_9,
    ],
)
def test_each_later_held_out_set_is_new_and_complete(split: str) -> None:
    # Five stores of domains no other split has, each set written before the round it
    # checks tuned anything: 11 memories, 11 answerable and 4 unrelated questions each.
    later = [s for s in STORES if s.split == split]
    assert len(later) >= 5
    assert all(s.held_out for s in later)
    assert all(len(s.memories) == len(s.questions) == 11 for s in later)
    assert all(len(s.unrelated) == 4 for s in later)
    older = {s.domain for s in STORES if s.split != split}
    domains = {s.domain for s in later}
    assert len(domains) == len(later) and not domains & older
    # Each is asked, as cross-domain, only by stores of the same split.
    assert {s.cross_target for s in later} == {s.id for s in later}


def test_questions_and_memories_are_distinct() -> None:
    texts = [q.text for s in STORES for q in s.questions] + [u for s in STORES for u in s.unrelated]
    assert len(texts) == len(set(texts))
    memories = [m for s in STORES for m in s.memories.values()]
    assert len(memories) == len(set(memories))


def _write(tmp_path: Path, change: dict[str, object]) -> Path:
    raw = json.loads(paraphrase.default_path().read_text(encoding="utf-8"))
    raw["stores"][0].update(change)
    path = tmp_path / "set.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"split": "dev"}, "split must be one of"),
        ({"cross_target": "nowhere"}, "cross_target"),
        ({"cross_target": "ops-ci"}, "cross_target"),  # same domain
        ({"cross_target": "pa-family"}, "cross_target"),  # another split
        ({"questions": [{"q": "What?", "gold": ["m99"]}]}, "names unknown memories"),
    ],
)
def test_load_rejects_an_inconsistent_set(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidInputError, match=message):
        paraphrase.load(_write(tmp_path, change))


def _small(tmp_path: Path) -> Path:
    """Two calibration stores and two held-out ones, each other's cross targets."""
    raw = json.loads(paraphrase.default_path().read_text(encoding="utf-8"))
    keep = {"ops-infra": "travel-japan", "travel-japan": "ops-infra"}
    keep |= {"pa-family": "support-hardware", "support-hardware": "pa-family"}
    raw["stores"] = [{**s, "cross_target": keep[s["id"]]} for s in raw["stores"] if s["id"] in keep]
    path = tmp_path / "small.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


def test_collect_asks_every_question_of_a_fresh_store(tmp_path: Path, config: Config) -> None:
    stores = paraphrase.load(_small(tmp_path))
    opened: list[Memory] = []

    @contextlib.contextmanager
    def fresh() -> Iterator[Memory]:
        with Memory(":memory:", config=config, embedder=HashEmbedder()) as mem:
            opened.append(mem)
            yield mem

    rows = paraphrase.collect(stores, fresh, namespace_evidence=True)
    assert len(opened) == len(stores)
    kinds = Counter((r.set, r.held_out) for r in rows)
    for held in (False, True):
        part = [s for s in stores if s.held_out == held]
        assert kinds["answerable", held] == sum(len(s.questions) for s in part)
        assert kinds["cross", held] == kinds["answerable", held]
        assert kinds["unrelated", held] == sum(len(s.unrelated) for s in part)
    assert {r.split for r in rows} == {paraphrase.CALIBRATION, paraphrase.HELD_OUT}
    # What the whole namespace says is measured for every query: the mean cosine to the
    # store's memories never exceeds the best one, and it reaches the model's features.
    assert all(r.space is not None and len(r.space) == 4 for r in rows)
    assert all(r.space[0] <= (r.sim or 0.0) + 1e-6 for r in rows if r.space)
    assert "ns_centroid" in rows[0].evidence().values()
    answerable = [r for r in rows if r.set == "answerable"]
    # Gold ranks are read back from the memories' metadata; each hit list is complete.
    assert all(len(r.hit_sims) == len(r.hit_fused) == len(r.hit_overlaps) for r in rows)
    assert sum(1 for r in answerable if r.gold_ranks) > len(answerable) // 2
    assert all(not r.gold_ranks for r in rows if r.set != "answerable")
    summary = paraphrase.summarize(rows, "test-hash")
    assert set(summary["policies"]) >= {"no decision", "issue 13 (before)"}
    cells = summary["policies"]["no decision"][paraphrase.CALIBRATION]
    assert cells["answerable wrongly silent"] == 0.0 and cells["cross-domain lines"] == 4.0


def test_bench_paraphrase_cli_rescores_rows(tmp_path: Path) -> None:
    rows = [
        abstain_bench.Row(
            kind,
            "paraphrase",
            0,
            f"q{i}",
            "agent",
            0.5 if kind == "answerable" else 0.05,
            0.0,
            3,
            False,
            0.4,
            0.4,
            0 if kind == "answerable" else None,
            10.0,
            held_out=i % 3 == 0,
            hit_sims=[0.5 if kind == "answerable" else 0.05, 0.01],
            hit_overlaps=[0.0, 0.0],
            hit_fused=[0.4, 0.01],
            hit_scores=[0.4, 0.01],
            gold_ranks=[0] if kind == "answerable" else [],
        )
        for i in range(9)
        for kind in ("answerable", "unrelated", "cross")
    ]
    saved = tmp_path / "rows.json"
    abstain_bench.save_rows(rows, saved)
    out = tmp_path / "out"
    run = CliRunner().invoke(
        cli,
        ["--home", str(tmp_path / "home"), "bench", "paraphrase", "--rows", str(saved)]
        + ["--out", str(out), "--json"],
        env={"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""},
    )
    assert run.exit_code == 0, run.output
    summary = json.loads((out / "paraphrase.json").read_text())
    assert summary["counts"]["held-out"]["answerable"] == 3
    assert summary["counts"]["calibration"]["gold in top 4 (no decision)"] == 1.0
    assert (out / "paraphrase.md").read_text().startswith("embedder:")


# -- round 11 (silent36): the set written another way ------------------------------------

ROUND11 = paraphrase.load(paraphrase.round11_path())


def test_round11_questions_share_at_most_one_content_word_with_their_gold() -> None:
    offenders = [
        (s.id, q.text, words)
        for s in ROUND11
        for q in s.questions
        for g in sorted(q.gold)
        if len(words := shared_words(q.text, s.memories[g])) > 1
    ]
    assert offenders == []


@pytest.mark.parametrize(
    "split", [paraphrase.TUNE_36, paraphrase.HELD_OUT_10, paraphrase.HELD_OUT_11]
)
def test_round11_splits_are_new_and_complete(split: str) -> None:
    # Twelve stores of domains the first set has none of, 11 memories, 11 answerable and
    # 4 same-register unanswerable questions each, cross-domain within the split.
    part = [s for s in ROUND11 if s.split == split]
    assert len(part) >= 12
    assert all(len(s.memories) == len(s.questions) == 11 for s in part)
    assert all(len(s.unrelated) == 4 for s in part)
    domains = {s.domain for s in part}
    older = {s.domain for s in STORES} | {s.domain for s in ROUND11 if s.split != split}
    assert len(domains) == len(part) and not domains & older
    assert {s.cross_target for s in part} == {s.id for s in part}
    texts = [q.text for s in part for q in s.questions] + [u for s in part for u in s.unrelated]
    assert len(texts) == len(set(texts))


def test_round11_is_written_in_another_style() -> None:
    # What sets it apart from the first set: short questions, most without a question
    # mark, and notes that are terse (no full sentence: a colon or no verb-final stop).
    questions = [q.text for s in ROUND11 for q in s.questions]
    assert sum(len(q.split()) <= 4 for q in questions) >= len(questions) // 4
    assert sum(not q.endswith("?") for q in questions) >= len(questions) // 2
    old = [q.text for s in STORES for q in s.questions]
    assert sum(not q.endswith("?") for q in old) < len(old) // 10


def test_the_bench_scores_round11s_splits(tmp_path: Path, config: Config) -> None:
    raw = json.loads(paraphrase.round11_path().read_text(encoding="utf-8"))
    keep = {"dental-practice": "bike-workshop", "bike-workshop": "dental-practice"}
    keep |= {"pharmacy": "climbing-gym", "climbing-gym": "pharmacy"}
    raw["stores"] = [{**s, "cross_target": keep[s["id"]]} for s in raw["stores"] if s["id"] in keep]
    path = tmp_path / "round11.json"
    path.write_text(json.dumps(raw), encoding="utf-8")

    @contextlib.contextmanager
    def fresh() -> Iterator[Memory]:
        with Memory(":memory:", config=config, embedder=HashEmbedder()) as mem:
            yield mem

    summary = paraphrase.summarize(paraphrase.collect(paraphrase.load(path), fresh), "test-hash")
    assert list(summary["counts"]) == [paraphrase.TUNE_36, paraphrase.HELD_OUT_10]
    for split in (paraphrase.TUNE_36, paraphrase.HELD_OUT_10):
        cells = summary["policies"]["no decision"][split]
        assert cells["answerable wrongly silent"] == 0.0 and cells["gold in context"] is not None
