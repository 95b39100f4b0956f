"""The scale benchmark on a tiny LoCoMo-format file, with the real model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import psycopg
import pytest
from click.testing import CliRunner

from engram import Config, InvalidInputError
from engram.bench import scale, scale_pg
from engram.cli.main import cli

pytestmark = pytest.mark.slow


def _measure(tiny_locomo: Path, tmp_path: Path, **options: Any) -> dict[str, Any]:
    """100 memories, 10 timed recalls, 15 added with the model."""
    config = Config.load(env={}, home=str(tmp_path / "home"), injection_mode="flag")
    return scale.measure_size(
        100,
        config=config,
        locomo=str(tiny_locomo),
        queries=10,
        embed_sample=15,
        workdir=str(tmp_path),
        **options,
    )


def test_measure_one_size(tiny_locomo: Path, tmp_path: Path) -> None:
    result = _measure(tiny_locomo, tmp_path)
    assert result["memories"] == 100
    assert result["add_no_embedding_per_s"] > 0
    assert result["add_with_embedding_sample"] == 15 and result["add_with_embedding_per_s"] > 0
    assert result["embedder_alone_per_s"] > 0
    assert result["recall_queries"] == 10
    assert 0 < result["recall_p50_ms"] <= result["recall_p95_ms"]
    assert {"embed", "dense", "total"} <= set(result["recall_stage_median_ms"])
    assert result["store_bytes"] > 0 and result["peak_rss_mb"] > 0
    # Opened cold twice, each in a fresh process: its own loads and a server's RSS.
    assert len(result["cold"]) == 2
    for cold in result["cold"]:
        assert cold["open_ms"] > 0 and len(cold["recalls_ms"]) == 2
        assert cold["loads"] == {
            scale.NAMESPACE: {"from": "store", "ms": cold["loads"][scale.NAMESPACE]["ms"]}
        }
        assert 0 < cold["serving_rss_mb"] <= cold["peak_rss_mb"]
        # The process's own memory and its mapped files' pages, apart.
        split = cold["serving_rss_anon_mb"] + cold["serving_rss_file_mb"]
        assert cold["serving_rss_anon_mb"] > 0 and split <= cold["serving_rss_mb"] + 1
    assert result["serving_rss_mb"] == result["cold"][0]["serving_rss_mb"]
    phases = result["phases_s"]
    # The recall phase holds the 10 timed recalls (half of them at least the median)
    # and the warm-ups; engram's total holds every phase before the peer's.
    assert phases["recall"] + 0.001 >= 5 * result["recall_p50_ms"] / 1000
    assert phases["add_with_embedding_sample"] + 0.001 >= 15 / result["add_with_embedding_per_s"]
    parts = ("add", "add_with_embedding_sample", "vectors", "indexes", "recall")
    assert phases["engram_total"] + 0.005 >= sum(phases[p] for p in parts)
    # The base vectors are cached for the next run.
    assert list((tmp_path / "home" / "bench-cache").glob("base-*.npy"))


def test_vectors_only_exact_and_hnsw(tiny_locomo: Path, tmp_path: Path) -> None:
    config = Config.load(env={}, home=str(tmp_path / "home"))
    result = scale.vectors_only(500, config=config, locomo=str(tiny_locomo), queries=6)
    assert result["vectors"] == 500 and result["exact"]["recall_at_k"] == 1.0
    hnsw = result["hnsw"]
    assert [h["ef_search"] for h in hnsw] == [32, 64, 128, 256]
    assert all(0.5 <= h["recall_at_k"] <= 1.0 and h["p50_ms"] > 0 for h in hnsw)


def test_rejects_bad_sizes(tiny_locomo: Path, tmp_path: Path) -> None:
    config = Config.load(env={}, home=str(tmp_path / "home"))
    with pytest.raises(InvalidInputError, match="at least 10"):
        scale.run_scale([5], config=config, locomo=str(tiny_locomo))
    with pytest.raises(InvalidInputError, match="does not exist"):
        scale.run_scale([100], config=config, locomo=str(tmp_path / "nope.json"))


@pytest.mark.postgres
def test_compare_stores_with_postgresql(tiny_locomo: Path, tmp_path: Path, pg_url: str) -> None:
    config = Config.load(env={}, home=str(tmp_path / "home"))
    result = scale.compare_stores(
        pg_url, 120, config=config, locomo=str(tiny_locomo), requests=6, levels=(1, 2)
    )
    assert result["sqlite"]["memories"] == result["other"]["memories"] == 120
    assert result["other"]["backend"] == "Postgres"
    assert [t["clients"] for t in result["other"]["throughput"]] == [1, 2]
    assert all(t["errors"] == 0 and t["requests"] > 0 for t in result["other"]["throughput"])
    assert "| recall rps, 2 client(s) |" in result["table"]
    with pytest.raises(InvalidInputError, match="already holds benchmark memories"):
        scale.compare_stores(pg_url, 120, config=config, locomo=str(tiny_locomo), requests=6)


def test_measure_one_size_beside_chroma(tiny_locomo: Path, tmp_path: Path) -> None:
    pytest.importorskip("chromadb")
    result = _measure(tiny_locomo, tmp_path, peer="chroma", cold_runs=1)
    peer = result["peer"]
    # 20 warm-up questions for both, then the 10 timed ones, interleaved.
    assert peer["queries"] == 10 and peer["add_per_s"] > 0
    assert {"engram", "chroma", "chroma_keyword"} <= set(peer["latency"])
    assert len(result["cold"]) == 1
    # engram's part was written before the peer loaded, and the whole size after it.
    assert json.loads((tmp_path / "scale-100.engram.json").read_text())["memories"] == 100
    assert json.loads((tmp_path / "scale-100.json").read_text())["peer"] == peer


@pytest.mark.postgres
def test_measure_one_size_on_postgresql(tiny_locomo: Path, tmp_path: Path, pg_server: Any) -> None:
    # ``--server``: the same measurements, the stores two new databases on the server.
    with scale_pg.size_stores(pg_server.url, 100, keep=False) as stores:
        assert stores is not None
        result = _measure(tiny_locomo, tmp_path, stores=stores, cold_runs=1)
        assert not list(tmp_path.glob("scale-100*.db"))  # no SQLite file was made
        # The disk column is the database's (tables and their GIN and HNSW indexes).
        # Not to the byte: autovacuum may add free-space and visibility-map pages after
        # the measurement (CI once read 64 KB more under load).
        assert result["store_bytes"] == pytest.approx(scale_pg.database_bytes(stores[0]), rel=0.02)
    assert result["backend"] == "postgresql" and result["recall_queries"] == 10
    assert 0 < result["recall_p50_ms"] <= result["recall_p95_ms"]
    assert result["add_with_embedding_per_s"] > 0 and result["add_no_embedding_per_s"] > 0
    (cold,) = result["cold"]
    assert cold["cold_first_recall_ms"] > 0 and cold["serving_rss_mb"] > 0
    if pg_server.workdir is not None:  # the suite's own server runs on this machine
        assert cold["server_pss_mb"] > 0
    assert result["server_pss_mb"] == cold["server_pss_mb"]
    # Both databases were dropped after the size (no --keep).
    with psycopg.connect(pg_server.url) as conn:
        names = {r[0] for r in conn.execute("SELECT datname FROM pg_database")}
    assert not names & {"engram_scale_100", "engram_scale_100_embedded"}


@pytest.mark.postgres
def test_server_run_never_reuses_or_drops_an_existing_database(pg_server: Any) -> None:
    with scale_pg.size_stores(pg_server.url, 17, keep=True) as stores:
        assert stores == (
            scale_pg.database_url(pg_server.url, "engram_scale_17"),
            scale_pg.database_url(pg_server.url, "engram_scale_17_embedded"),
        )
    try:
        refused = pytest.raises(InvalidInputError, match="engram_scale_17 already exists")
        with refused, scale_pg.size_stores(pg_server.url, 17, keep=False):
            pass
        # Kept (--keep), and still there after the refused run.
        with psycopg.connect(pg_server.url) as conn:
            names = {r[0] for r in conn.execute("SELECT datname FROM pg_database")}
        assert {"engram_scale_17", "engram_scale_17_embedded"} <= names
    finally:
        for name in ("engram_scale_17", "engram_scale_17_embedded"):
            scale_pg.drop_database(pg_server.url, name)


def test_server_must_be_a_postgresql_url_and_only_for_the_scale_run(tmp_path: Path) -> None:
    refused = pytest.raises(InvalidInputError, match="postgresql:// URL")
    with refused, scale_pg.size_stores(str(tmp_path / "x.db"), 10, keep=False):
        pass
    assert scale_pg.database_url("postgresql://u@h:5/db?sslmode=off", "x") == (
        "postgresql://u@h:5/x?sslmode=off"
    )
    shown = CliRunner().invoke(
        cli, ["bench", "scale", "--server", "postgresql://h/db", "--reuse", str(tmp_path)]
    )
    assert shown.exit_code != 0 and "does not go with" in shown.output
