"""Knowing when nothing matches (FEATURES E7, issues 13 and 24): recall abstains and
says why, answers with one "possibly related" line when unsure, drops padding, and
the caller's min_relevance or recall.abstain = false turns it off."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from mcp import Client

from conftest import HashEmbedder, run_cli
from engram import Memory
from engram.api.app import create_app
from engram.bench import abstain as bench
from engram.bench import abstain_package
from engram.config import Config, RecallConfig
from engram.embed.minilm import PACKAGED_NAME, MiniLMEmbedder
from engram.mcp.server import create_mcp_server
from engram.recall import abstain, packing
from engram.recall.abstain import CALIBRATION, Evidence, Verdict
from engram.recall.format import POSSIBLY_RELATED
from engram.spotlight import DATA_MARKER

NOTES = [
    "The deploy script tags the release and pushes the image to the registry.",
    "Alice prefers green tea over coffee in the morning.",
    "We decided to run the test suite with warnings as errors.",
    "The on-call rotation changes every Monday at 9am.",
]
UNRELATED = "zeppelin mustard voltage"


class CalibratedHash(HashEmbedder):
    """The hash embedder under the calibrated model's name, so the shipped calibration
    reads its cosines (bag-of-words overlap; wide enough that unrelated words rarely
    collide, so an unrelated query's cosine is about 0)."""

    name = CALIBRATION.embedder

    def __init__(self, dimension: int = 4096) -> None:
        super().__init__(dimension)


def fill(mem: Memory) -> None:
    for note in NOTES:
        mem.add(note)


@pytest.fixture
def calibrated(config: Config, store_location: str) -> Iterator[Memory]:
    """A store on each backend whose embedder the shipped calibration applies to."""
    with Memory(store_location, config=config, embedder=CalibratedHash()) as m:
        yield m


def test_stem_meets_inflections() -> None:
    assert abstain.stem("painting") == abstain.stem("painted") == "paint"
    assert abstain.stem("studies") == "study"
    assert abstain.stem("bus") == "bus"  # never below three characters


def test_calibrated_model_separates_related_from_unrelated() -> None:
    name = CALIBRATION.embedder
    unrelated = Evidence(sim=0.05, overlap=0.0, terms=3, matched=False)
    related = Evidence(sim=0.75, overlap=1.0, terms=3, matched=True)
    why = abstain.reason(unrelated, name)
    assert why is not None and "0.05" in why and "0 of 3 query keywords" in why
    assert abstain.reason(related, name) is None
    assert abstain.decide(related, name).verdict is Verdict.RELATED


def test_between_the_floors_is_uncertain() -> None:
    # issue 24: below the silent floor nothing is returned; between it and the
    # confident floor the hits come back marked low confidence (reason() is None).
    assert CALIBRATION.low_threshold is not None
    assert CALIBRATION.low_threshold < CALIBRATION.threshold
    middle = next(
        Evidence(sim=s / 100, overlap=0.0, terms=3, matched=False)
        for s in range(100)
        if CALIBRATION.verdict(Evidence(s / 100, 0.0, 3, False)) is Verdict.UNCERTAIN
    )
    decision = abstain.decide(middle, CALIBRATION.embedder)
    assert decision.verdict is Verdict.UNCERTAIN
    assert decision.reason is not None and "clearly related" in decision.reason
    assert abstain.reason(middle, CALIBRATION.embedder) is None
    # The issue's own example: "which web framework does the API use?" against the
    # Litestar note had a best cosine of 0.38 and was silenced; now it is answered.
    example = Evidence(sim=0.38, overlap=0.25, terms=4, matched=True)
    assert abstain.decide(example, CALIBRATION.embedder).verdict is Verdict.RELATED


def test_a_calibration_without_a_band_has_two_outcomes() -> None:
    one = abstain.Calibration.from_mapping({**bench.ISSUE_13})
    assert one.low_threshold is None
    assert one.verdict(Evidence(0.30, 0.0, 3, False)) is Verdict.UNRELATED
    assert one.verdict(Evidence(0.80, 1.0, 3, True)) is Verdict.RELATED


def test_other_embedders_fall_back_to_words() -> None:
    # A cosine means nothing for an embedder the floors were not calibrated on: a
    # candidate sharing a keyword is related; none sharing one, with a dense leg that
    # may have found a paraphrase, is uncertain (one line, never silence: issue 24).
    shares = Evidence(sim=0.05, overlap=0.5, terms=2, matched=True)
    disjoint = Evidence(sim=0.9, overlap=0.0, terms=2, matched=False)
    assert abstain.decide(shares, "some-other-model").verdict is Verdict.RELATED
    unsure = abstain.decide(disjoint, "some-other-model")
    assert unsure.verdict is Verdict.UNCERTAIN and "bench abstain --fit" in (unsure.reason or "")
    assert abstain.reason(disjoint, "some-other-model") is None
    # Without a dense leg only words found the candidates: none shared means unrelated.
    words_only = Evidence(sim=None, overlap=0.0, terms=2, matched=False)
    why = abstain.reason(words_only, None)
    assert why is not None and "none of the query's 2 keywords" in why
    # No keywords at all (only stopwords): words cannot tell, so recall answers.
    assert abstain.reason(Evidence(None, 0.0, 0, False), None) is None


def test_unrelated_query_abstains(calibrated: Memory) -> None:
    fill(calibrated)
    recall = calibrated.recall(UNRELATED)
    assert recall.abstained and not recall.low_confidence
    assert recall.hits == () and recall.context == ""
    assert recall.abstain_reason is not None and "zeppelin" not in recall.abstain_reason
    assert "min_relevance=0" in recall.abstain_reason
    assert calibrated.search(UNRELATED) == []
    assert recall.to_dict()["low_confidence"] is False


def test_related_query_keeps_hits(calibrated: Memory) -> None:
    fill(calibrated)
    recall = calibrated.recall("what does Alice prefer in the morning, green tea or coffee?")
    assert not recall.abstained and recall.abstain_reason is None
    assert not recall.low_confidence
    assert "green tea" in recall.hits[0].memory.content
    assert "green tea" in recall.context and POSSIBLY_RELATED not in recall.context


def _uncertain_query(mem: Memory) -> str:
    """A query the shipped calibration is unsure about for ``NOTES``."""
    name = mem.embedder.name if mem.embedder is not None else None
    for query in (
        "green tea zeppelin mustard voltage",
        "tea zeppelin mustard",
        "green tea zeppelin",
        "deploy zeppelin mustard voltage",
    ):
        hits = mem.recall(query, abstain=False, limit=12).hits
        if abstain.check(query, hits, name).verdict is Verdict.UNCERTAIN:
            return query
    raise AssertionError("no query of the list falls between the floors")


def test_unsure_recall_gives_one_marked_line(calibrated: Memory) -> None:
    fill(calibrated)
    query = _uncertain_query(calibrated)
    recall = calibrated.recall(query)
    assert recall.low_confidence and not recall.abstained and recall.abstain_reason is None
    assert recall.hits, "the hits come back, marked"
    assert recall.context.startswith(f"<memory_context>\n{DATA_MARKER}\n{POSSIBLY_RELATED}\n- [")
    # At most one memory line in the context: the best hit.
    assert recall.context.count("(id: ") == 1 and recall.hits[0].memory.id in recall.context
    assert recall.to_dict()["low_confidence"] is True
    prior = calibrated.recall(query, context_style="prior_work")
    assert (
        prior.context.startswith(f"{POSSIBLY_RELATED}\n\n{DATA_MARKER}\n\n[")
        and prior.context.count("[") == 1
    )
    # recall.low_confidence = false: unsure is silent, and says so.
    silent = calibrated.recall(query, low_confidence=False)
    assert silent.abstained and silent.hits == () and silent.context == ""
    assert "clearly related" in (silent.abstain_reason or "")


def test_other_embedders_answer_unsure_instead_of_silence(mem: Memory) -> None:
    # The hash embedder is not the calibrated one: a query sharing no keyword with any
    # note gets the nearest one as a marked line, not silence.
    fill(mem)
    recall = mem.recall(UNRELATED)
    assert recall.low_confidence and not recall.abstained
    assert recall.context.count("(id: ") == 1 and POSSIBLY_RELATED in recall.context
    assert not mem.recall("green tea coffee").low_confidence


def test_relative_floor_drops_padding(calibrated: Memory) -> None:
    fill(calibrated)
    query = "does Alice prefer green tea or coffee in the morning?"
    recall = calibrated.recall(query)
    assert not recall.abstained and not recall.low_confidence
    assert [h.memory.content for h in recall.hits] == [NOTES[1]]
    # relative_floor = 0: the context fills up to limit again.
    padded = calibrated.recall(query, relative_floor=0)
    assert len(padded.hits) == 4 and padded.hits[0].memory.content == NOTES[1]
    # The decision off shows the nearest memories, padding included (the benchmarks'
    # ranking mode).
    assert len(calibrated.recall(query, abstain=False).hits) == 4


def test_relative_floor_keeps_a_hit_strong_on_either_leg() -> None:
    sims: list[float | None] = [0.8, 0.2, 0.5, None, 0.1]
    fused = [0.9, 0.7, 0.1, 0.3, 0.05]
    # At 0.7: cosine 0.2 but fused 0.7 >= 0.63, kept; cosine 0.5 < 0.56 and fused
    # 0.1, dropped; no cosine, fused 0.3 alone decides, dropped.
    assert packing.floor_kept(sims, fused, 0.7) == [0, 1]
    assert packing.floor_kept(sims, fused, 0.6) == [0, 1, 2]
    assert packing.floor_kept(sims, fused, 0.3) == [0, 1, 2, 3]
    assert packing.floor_kept(sims, fused, 0.0) == [0, 1, 2, 3, 4]
    assert packing.floor_kept([], [], 0.6) == []


def test_defaults_follow_the_fitted_calibration(mem: Memory) -> None:
    # Unset, the relative floor is the one fitted with the calibration, and applies to
    # the embedder it was fitted on only: the hash embedder keeps its padding.
    assert RecallConfig().relative_floor is None and abstain.RELATIVE_FLOOR == 0.6
    assert RecallConfig().low_confidence is True
    fill(mem)
    query = "does Alice prefer green tea or coffee in the morning?"
    assert len(mem.recall(query).hits) == 4
    assert len(mem.recall(query, relative_floor=0.6).hits) < 4


def test_min_relevance_overrides_the_decision(calibrated: Memory) -> None:
    fill(calibrated)
    shown = calibrated.recall(UNRELATED, min_relevance=0)
    assert not shown.abstained and len(shown.hits) == 4 and shown.context
    assert not shown.low_confidence
    # A caller's positive floor applies as a floor, never as the abstain decision.
    floored = calibrated.recall(UNRELATED, min_relevance=9.0)
    assert floored.hits == () and not floored.abstained


def test_setting_off(config: Config, reopenable: str) -> None:
    with Memory(reopenable, config=config, embedder=CalibratedHash()) as mem:
        fill(mem)
        assert mem.recall(UNRELATED).abstained
        assert len(mem.recall(UNRELATED, abstain=False).hits) == 4
    off = config.with_overrides(recall={"abstain": False})
    with Memory(reopenable, config=off, embedder=CalibratedHash()) as again:
        recall = again.recall(UNRELATED)
        assert len(recall.hits) == 4 and not recall.abstained and not recall.low_confidence


@pytest.fixture
def calibrated_file(config: Config, tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "c.db", config=config, embedder=CalibratedHash()) as m:
        yield m


def test_http_and_mcp_say_why(calibrated_file: Memory) -> None:
    fill(calibrated_file)
    client = TestClient(create_app(calibrated_file, auth=False, mcp=False))
    for route in ("/v1/search", "/v1/recall"):
        body = client.post(route, json={"query": UNRELATED}).json()
        assert body["abstained"] is True and body["hits"] == []
        assert body["low_confidence"] is False
        assert "nothing stored looks related" in body["abstain_reason"]
        kept = client.post(route, json={"query": "Alice green tea coffee morning"}).json()
        assert kept["abstained"] is False and kept["abstain_reason"] is None and kept["hits"]
    assert client.post("/v1/recall", json={"query": "zeppelin"}).json()["context"] == ""
    # Per call, as in the library: min_relevance 0 or abstain false shows the nearest.
    for override in ({"min_relevance": 0}, {"abstain": False}):
        body = client.post("/v1/search", json={"query": "zeppelin", **override}).json()
        assert body["abstained"] is False and len(body["hits"]) == 4
    unsure = client.post("/v1/recall", json={"query": _uncertain_query(calibrated_file)}).json()
    assert unsure["low_confidence"] is True and unsure["hits"]
    assert POSSIBLY_RELATED in unsure["context"]


@pytest.mark.anyio
async def test_mcp_search_says_why(calibrated_file: Memory) -> None:
    fill(calibrated_file)
    async with Client(create_mcp_server(calibrated_file, namespace="default")) as client:
        found = await client.call_tool("search_memory", {"query": UNRELATED})
        data = found.structured_content
        assert data is not None and data["abstained"] is True and data["hits"] == []
        assert "nothing stored looks related" in data["abstain_reason"]
        kept = await client.call_tool("search_memory", {"query": "Alice green tea coffee"})
        assert kept.structured_content is not None and kept.structured_content["hits"]
        assert kept.structured_content["abstained"] is False
        assert kept.structured_content["low_confidence"] is False
        block = await client.call_tool("get_context", {"task": UNRELATED})
        assert block.structured_content == {"result": ""}


# -- the real model: the calibration applies to it ------------------------------------


@pytest.fixture(scope="module")
def minilm(tmp_path_factory: pytest.TempPathFactory) -> MiniLMEmbedder:
    return MiniLMEmbedder(None, tmp_path_factory.mktemp("abstain-home"))


@pytest.fixture
def real(config: Config, store_location: str, minilm: MiniLMEmbedder) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=minilm) as m:
        yield m


@pytest.mark.slow
def test_minilm_is_the_calibrated_embedder(minilm: MiniLMEmbedder) -> None:
    assert minilm.name == PACKAGED_NAME == CALIBRATION.embedder


@pytest.mark.slow
def test_minilm_abstains_on_an_unrelated_question(real: Memory) -> None:
    fill(real)
    # About nothing stored, far below every paraphrase (best cosine about 0.03).
    recall = real.recall("What is the atomic number of xenon?")
    assert recall.abstained and recall.hits == () and recall.context == ""
    assert "all-MiniLM-L6-v2" in (recall.abstain_reason or "")


@pytest.mark.slow
def test_minilm_gives_an_unsure_question_one_marked_line(real: Memory) -> None:
    fill(real)
    # Shares "morning" with a note and sits at a cosine of about 0.14: above the silent
    # floor since round 6 (0.081: a paraphrase as low was answerable), so one line under
    # the low-confidence heading, never the four a related question gets.
    recall = real.recall("Which volcano erupted in Iceland this morning?")
    assert not recall.abstained and recall.low_confidence
    assert len(recall.shown) == 1 and POSSIBLY_RELATED in recall.context


@pytest.mark.slow
def test_minilm_keeps_a_paraphrase(real: Memory) -> None:
    fill(real)
    # No keyword in common with the note it needs: the cosine alone keeps it.
    recall = real.recall("What beverage does she enjoy before work?")
    assert not recall.abstained
    assert "green tea" in recall.hits[0].memory.content


@pytest.mark.slow
def test_minilm_answers_the_issues_example(real: Memory) -> None:
    # issue 24: this was silenced ("best similarity 0.38, 1 of 4 query keywords").
    real.add("We decided to switch the API layer from Flask to Litestar in March.")
    real.add("Alice's cat is called Miso and hates the vacuum cleaner.")
    recall = real.recall("which web framework does the API use?")
    assert not recall.abstained and not recall.low_confidence
    # The relative floor leaves the cat note out of the answer.
    assert [h.memory.content for h in recall.hits] == [
        "We decided to switch the API layer from Flask to Litestar in March."
    ]
    assert len(real.recall("which web framework does the API use?", relative_floor=0).hits) == 2
    gone = real.recall("What's the boiling point of mercury?")
    assert gone.abstained and gone.context == ""


def test_decision_reads_only_the_candidates(tmp_path: Path, config: Config) -> None:
    # The decision is made on the over-fetched candidates, before ``limit``: asking for
    # one hit or ten gives the same verdict.
    with Memory(tmp_path / "d.db", config=config, embedder=CalibratedHash()) as mem:
        fill(mem)
        for query in (UNRELATED, "green tea coffee", _uncertain_query(mem)):
            verdicts = {
                (r.abstained, r.low_confidence)
                for r in (mem.recall(query, limit=n) for n in (1, 4, 10))
            }
            assert len(verdicts) == 1


# -- the benchmark's scoring and fitting (no store) ------------------------------------


def _row(kind: str, dataset: str, i: int, sim: float, held_out: bool = False) -> bench.Row:
    """A query whose best candidate has cosine ``sim``; an answerable one's gold is the
    second hit (half the best cosine), and the two after it are padding below that."""
    sims: list[float | None] = [sim, sim * 0.5, sim * 0.3, sim * 0.2]
    fused = [0.8 * sim, 0.3 * sim, 0.15 * sim, 0.1 * sim]
    answerable = kind == "answerable"
    return bench.Row(
        kind,
        dataset,
        i % 2,
        f"{dataset}-{kind}-{i}",
        "ns",
        sim,
        0.6 if answerable else 0.0,
        3,
        answerable,
        fused[0],
        fused[0],
        1 if answerable else None,
        100.0,
        held_out=held_out,
        hit_sims=sims,
        hit_overlaps=[0.6 if answerable else 0.0, 0.0, 0.0, 0.0],
        hit_fused=fused,
        hit_scores=fused,
        gold_ranks=[1] if answerable else [],
    )


def _rows(n: int = 40) -> list[bench.Row]:
    rows = []
    for i in range(n):
        # Answerable: related (cosine 0.45-0.85); negatives: unrelated (0.05-0.45).
        rows.append(_row("answerable", "locomo", i, 0.45 + 0.01 * i))
        rows.append(_row("cross", "beam", i, 0.05 + 0.01 * i))
        rows.append(_row("answerable", "paraphrase", i, 0.30 + 0.01 * i, held_out=i % 3 == 0))
        rows.append(_row("cross", "paraphrase", i, 0.02 + 0.005 * i, held_out=i % 3 == 0))
        rows.append(_row("unrelated", "paraphrase", i, 0.10 + 0.005 * i, held_out=i % 3 == 0))
    return rows


def test_fit_keeps_answerable_out_of_silence_and_never_reads_held_out() -> None:
    rows = _rows()
    fitted = bench.fit(rows, "m")
    assert fitted["coef"][0] > 0 and min(fitted["coef"]) >= 0  # never "less related"
    assert fitted["low_threshold"] <= fitted["threshold"]
    scored = bench.score(rows, bench.fitted_policy(fitted, "m"))
    # SILENT_FIT: no answerable paraphrase of the fitting stores is silent.
    assert scored["paraphrase calibration / answerable"]["silent"] == 0.0
    assert scored["locomo dev / answerable"]["silent"] <= bench.SILENT_FIT["locomo"]
    # Most cross-domain queries are silent; every kind is scored per split.
    assert scored["beam dev / cross"]["silent"] > 0.5
    assert "paraphrase held-out / unrelated" in scored
    # Held-out rows are never fitted on: changing them changes nothing.
    moved = [
        _row("answerable", "paraphrase", i, 0.01, held_out=True) if r.held_out else r
        for i, r in enumerate(rows)
    ]
    assert bench.fit(moved, "m") == fitted


def test_relative_floor_is_the_highest_that_keeps_every_gold() -> None:
    rows = _rows()
    policy = bench.Policy("p", None, "m")
    floor = bench.pick_floor(rows, policy)
    # The gold sits at half the best cosine: a higher floor would drop it.
    assert floor == 0.5
    plain = bench.score(rows, bench.Policy("f", None, "m", floor=floor))
    assert plain["paraphrase calibration / answerable"]["lines"] == 2.0
    assert plain["paraphrase calibration / answerable"]["kept"] == 1.0


def test_uncertain_band_answers_with_one_line() -> None:
    rows = _rows()
    fitted = bench.fit(rows, "m")
    line = bench.fitted_policy(fitted, "m")
    silent = bench.Policy("s", line.calibration, "m", low_confidence=False, floor=line.floor)
    for row in rows:
        verdict = bench.verdict(row, line)
        shown = bench.shown(row, line)
        if verdict is Verdict.UNCERTAIN:
            assert shown == [0] and bench.shown(row, silent) == []
        elif verdict is Verdict.RELATED:
            assert shown == [0, 1] and bench.shown(row, silent) == shown
        elif verdict is Verdict.UNRELATED:
            assert shown == []


def test_weights_module_round_trips() -> None:
    fitted = bench.fit(_rows(), "m")
    text = abstain_package.weights_module(fitted, "m", "test rows")
    namespace: dict[str, object] = {}
    exec(compile(text, "abstain_weights.py", "exec"), namespace)  # noqa: S102 - our own text
    loaded = abstain.Calibration.from_mapping(namespace["MODEL"])  # type: ignore[arg-type]
    assert loaded == bench.calibration(fitted, "m", fitted["threshold"], fitted["low_threshold"])
    assert namespace["MODEL"]["relative_floor"] == fitted["relative_floor"]  # type: ignore[index]


def test_saved_rows_round_trip(tmp_path: Path) -> None:
    rows = _rows(4)
    bench.save_rows(rows, tmp_path / "rows.json")
    assert bench.load_rows(tmp_path / "rows.json") == rows


def test_bench_abstain_rescores_saved_rows(tmp_path: Path) -> None:
    saved = tmp_path / "rows.json"
    bench.save_rows(_rows(), saved)
    out = tmp_path / "out"
    run = run_cli(tmp_path / "home", "bench", "abstain", "--rows", str(saved), "--out", str(out))
    assert run.exit_code == 0, run.output
    assert "issue 13 (before)" in run.output and "other fold + held-out" in run.output
    summary = json.loads((out / "abstain.json").read_text())
    assert summary["counts"]["paraphrase held-out"] == 42 and len(summary["two_fold"]) == 2
    assert set(summary["fitted"]) >= {"threshold", "low_threshold", "relative_floor"}
