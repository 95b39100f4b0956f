"""Knowing when nothing matches (FEATURES E7, issue 13): recall abstains, says why,
and the caller's min_relevance or recall.abstain = false turns it off."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from mcp import Client

from conftest import HashEmbedder
from engram import Memory
from engram.api.app import create_app
from engram.bench import abstain as bench
from engram.cli.main import cli
from engram.config import Config
from engram.embed.minilm import PACKAGED_NAME, MiniLMEmbedder
from engram.mcp.server import create_mcp_server
from engram.recall import abstain
from engram.recall.abstain import CALIBRATION, Evidence

NOTES = [
    "The deploy script tags the release and pushes the image to the registry.",
    "Alice prefers green tea over coffee in the morning.",
    "We decided to run the test suite with warnings as errors.",
    "The on-call rotation changes every Monday at 9am.",
]


def fill(mem: Memory) -> None:
    for note in NOTES:
        mem.add(note)


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


def test_other_embedders_fall_back_to_words() -> None:
    # A cosine of 0.05 means nothing for an embedder the floor was not calibrated on:
    # only a query that shares no keyword with any candidate abstains.
    shares = Evidence(sim=0.05, overlap=0.5, terms=2, matched=True)
    disjoint = Evidence(sim=0.9, overlap=0.0, terms=2, matched=False)
    assert abstain.reason(shares, "some-other-model") is None
    why = abstain.reason(disjoint, "some-other-model")
    assert why is not None and "none of the query's 2 keywords" in why
    # No keywords at all (only stopwords): words cannot tell, so recall answers.
    assert abstain.reason(Evidence(None, 0.0, 0, False), None) is None


def test_unrelated_query_abstains(mem: Memory) -> None:
    fill(mem)
    recall = mem.recall("zeppelin mustard voltage")
    assert recall.abstained
    assert recall.hits == () and recall.context == ""
    assert recall.abstain_reason is not None and "zeppelin" not in recall.abstain_reason
    assert "min_relevance=0" in recall.abstain_reason
    assert mem.search("zeppelin mustard voltage") == []


def test_related_query_keeps_hits(mem: Memory) -> None:
    fill(mem)
    recall = mem.recall("what does Alice drink, tea or coffee?")
    assert not recall.abstained and recall.abstain_reason is None
    assert "green tea" in recall.hits[0].memory.content
    assert "green tea" in recall.context


def test_min_relevance_overrides_the_decision(mem: Memory) -> None:
    fill(mem)
    shown = mem.recall("zeppelin mustard voltage", min_relevance=0)
    assert not shown.abstained and len(shown.hits) == 4 and shown.context
    # A caller's positive floor applies as a floor, never as the abstain decision.
    floored = mem.recall("zeppelin mustard voltage", min_relevance=9.0)
    assert floored.hits == () and not floored.abstained


def test_setting_off(config: Config, reopenable: str) -> None:
    with Memory(reopenable, config=config, embedder=HashEmbedder()) as mem:
        fill(mem)
        assert mem.recall("zeppelin mustard voltage").abstained
        assert len(mem.recall("zeppelin mustard voltage", abstain=False).hits) == 4
    off = config.with_overrides(recall={"abstain": False})
    with Memory(reopenable, config=off, embedder=HashEmbedder()) as again:
        recall = again.recall("zeppelin mustard voltage")
        assert len(recall.hits) == 4 and not recall.abstained


def test_http_and_mcp_say_why(file_mem: Memory) -> None:
    fill(file_mem)
    client = TestClient(create_app(file_mem, auth=False, mcp=False))
    for route in ("/v1/search", "/v1/recall"):
        body = client.post(route, json={"query": "zeppelin mustard voltage"}).json()
        assert body["abstained"] is True and body["hits"] == []
        assert "nothing stored looks related" in body["abstain_reason"]
        kept = client.post(route, json={"query": "green tea coffee"}).json()
        assert kept["abstained"] is False and kept["abstain_reason"] is None and kept["hits"]
    assert client.post("/v1/recall", json={"query": "zeppelin"}).json()["context"] == ""
    # Per call, as in the library: min_relevance 0 or abstain false shows the nearest.
    for override in ({"min_relevance": 0}, {"abstain": False}):
        body = client.post("/v1/search", json={"query": "zeppelin", **override}).json()
        assert body["abstained"] is False and len(body["hits"]) == 4


@pytest.mark.anyio
async def test_mcp_search_says_why(file_mem: Memory) -> None:
    fill(file_mem)
    async with Client(create_mcp_server(file_mem, namespace="default")) as client:
        found = await client.call_tool("search_memory", {"query": "zeppelin mustard voltage"})
        data = found.structured_content
        assert data is not None and data["abstained"] is True and data["hits"] == []
        assert "nothing stored looks related" in data["abstain_reason"]
        kept = await client.call_tool("search_memory", {"query": "green tea coffee"})
        assert kept.structured_content is not None and kept.structured_content["hits"]
        assert kept.structured_content["abstained"] is False
        block = await client.call_tool("get_context", {"task": "zeppelin mustard voltage"})
        assert block.structured_content == {"result": ""}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


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
    # Shares the word "morning" with a note, but is about nothing stored.
    recall = real.recall("Which volcano erupted in Iceland this morning?")
    assert recall.abstained and recall.hits == () and recall.context == ""
    assert "all-MiniLM-L6-v2" in (recall.abstain_reason or "")


@pytest.mark.slow
def test_minilm_keeps_a_paraphrase(real: Memory) -> None:
    fill(real)
    # No keyword in common with the note it needs: the cosine alone keeps it.
    recall = real.recall("What beverage does she enjoy before work?")
    assert not recall.abstained
    assert "green tea" in recall.hits[0].memory.content


def test_decision_reads_only_the_candidates(tmp_path: Path, config: Config) -> None:
    # The decision is made on the over-fetched candidates, before ``limit``: asking for
    # one hit or ten gives the same verdict.
    with Memory(tmp_path / "d.db", config=config, embedder=HashEmbedder()) as mem:
        fill(mem)
        for query in ("zeppelin mustard voltage", "green tea coffee"):
            verdicts = {mem.recall(query, limit=n).abstained for n in (1, 4, 10)}
            assert len(verdicts) == 1


# -- the benchmark's scoring and fitting (no store) ------------------------------------


def _rows(n: int = 40) -> list[bench.Row]:
    rows = []
    for i in range(n):
        # Answerable: related (cosine 0.45-0.85, words shared); negatives: unrelated.
        rows.append(
            bench.Row(
                "answerable",
                "locomo",
                i % 2,
                f"a{i}",
                "ns",
                0.45 + 0.01 * i,
                0.6,
                3,
                True,
                0.5,
                0.5,
                0,
                100.0,
            )
        )
        rows.append(
            bench.Row(
                "cross",
                "beam",
                i % 2,
                f"c{i}",
                "ns",
                0.05 + 0.01 * i,
                0.0,
                3,
                False,
                0.2,
                0.2,
                None,
                100.0,
            )
        )
    return rows


def test_fit_keeps_the_target_retention_and_empties_the_unrelated() -> None:
    rows = _rows()
    model = bench.fit_logistic(rows)
    assert model["coef"][0] > 0  # a higher cosine means "related"
    threshold = bench.pick_threshold(rows, model, "m", 0.9)
    scored = bench.rates(rows, bench.model_rule(bench.calibration(model, "m", threshold)))
    assert scored["retention_locomo@4"] >= 0.9
    assert scored["empty_cross_beam_on_other"] > 0.9
    assert bench.rates(rows, lambda r: False)["empty_all_negatives"] == 0.0


def test_weights_module_round_trips() -> None:
    model = bench.fit_logistic(_rows())
    text = bench.weights_module(model, "m", -0.5, "test rows")
    namespace: dict[str, object] = {}
    exec(compile(text, "abstain_weights.py", "exec"), namespace)  # noqa: S102 - our own text
    loaded = abstain.Calibration.from_mapping(namespace["MODEL"])  # type: ignore[arg-type]
    assert loaded == bench.calibration(model, "m", -0.5)


def test_bench_abstain_rescores_saved_rows(tmp_path: Path) -> None:
    saved = tmp_path / "rows.json"
    bench.save_rows(_rows(), saved)
    out = tmp_path / "out"
    run = CliRunner().invoke(
        cli,
        [
            "--home",
            str(tmp_path / "home"),
            "bench",
            "abstain",
            "--rows",
            str(saved),
            "--out",
            str(out),
        ],
        env={"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""},
    )
    assert run.exit_code == 0, run.output
    assert "logistic sim+overlap" in run.output and "held_out_fold" in run.output
    summary = json.loads((out / "abstain.json").read_text())
    assert summary["counts"]["cross"] == 40 and len(summary["two_fold"]) == 2
