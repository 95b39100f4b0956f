"""``engram bench scale``: ingest throughput, recall latency, memory and disk per store
size, optionally beside a peer (``--peer chroma``); kept apart from ``cli/bench.py`` so
each stays a readable size."""

from __future__ import annotations

from typing import Any

import click

from engram.bench import report, scale, scale_reuse
from engram.cli import render
from engram.cli.bench_options import data_option, json_command, out_option
from engram.cli.common import Ctx, progress_bar
from engram.errors import InvalidInputError


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part.replace("_", "")) for part in text.split(",") if part.strip()]
    except ValueError:
        raise InvalidInputError(
            f"--n takes comma-separated counts like 10000,100000, got {text!r}"
        ) from None
    if not sizes:
        raise InvalidInputError("--n needs at least one count")
    return sizes


@click.command("scale")
@click.option(
    "--n",
    "sizes",
    default="10000,100000",
    show_default=True,
    help="Store sizes to build, comma-separated.",
)
@data_option("LoCoMo file the memory texts and queries come from.")
@click.option("--queries", default=300, show_default=True, help="Recalls timed per size.")
@click.option(
    "--embed-sample",
    default=2000,
    show_default=True,
    help="Memories added with the real embedder to time add-with-embedding.",
)
@click.option(
    "--vectors-only",
    is_flag=True,
    help="Measure index search alone (exact vs usearch HNSW) instead.",
)
@click.option(
    "--vectors", default=1_000_000, show_default=True, help="Vector count for --vectors-only."
)
@out_option("Directory for scale.json and scale.md.")
@click.option(
    "--store",
    "store",
    help="Compare this store (e.g. an empty postgresql://... database) with SQLite at the "
    "first --n, side by side: add rate, recall p50/p95, recall rps at 1, 4, 16 clients.",
)
@click.option(
    "--peer",
    type=click.Choice(["chroma"]),
    help="Also load the same corpus and vectors into this peer (pip install "
    "'engramdb[bench]') and time its queries interleaved with engram's recall.",
)
@click.option(
    "--server",
    help="Build the stores on this PostgreSQL server instead of SQLite files: a "
    "postgresql://... URL of any database there; each size gets new databases "
    "engram_scale_<n> and engram_scale_<n>_embedded (the user needs CREATEDB), dropped "
    "after unless --keep.",
)
@click.option(
    "--keep",
    help="Keep the stores and their indexes in this directory (with --server: keep the "
    "databases, and Chroma's collections here).",
)
@click.option(
    "--reuse",
    help="Time engram beside Chroma on the stores a --keep run left in this directory "
    "(no build; point it at copies: recall records access times).",
)
@json_command
def scale_cmd(
    obj: Ctx,
    /,
    sizes: str,
    data: str,
    queries: int,
    embed_sample: int,
    vectors_only: bool,
    vectors: int,
    out: str,
    store: str | None,
    peer: str | None,
    server: str | None,
    keep: str | None,
    reuse: str | None,
    as_json: bool,
) -> None:
    """Scale: add throughput, recall p50/p95, peak RSS and disk size per store size."""
    config = obj.config().with_overrides(injection_mode="flag")
    results: Any
    if server is not None and (store or reuse or vectors_only):
        raise InvalidInputError(
            "--server builds the scale run's stores on PostgreSQL; it does not go with "
            "--store, --reuse or --vectors-only (leave those out, or leave --server out)"
        )
    if store is not None:
        results = scale.compare_stores(
            store, _sizes(sizes)[0], config=config, locomo=data, requests=queries
        )
        text = results["table"]
        name = "scale-stores"
    elif reuse is not None:
        results = scale_reuse.run_reuse(
            _sizes(sizes), config=config, locomo=data, queries=queries, directory=reuse
        )
        text = scale_reuse.table(results)
        name = "scale-reuse"
    elif vectors_only:
        results = scale.vectors_only(vectors, config=config, locomo=data, queries=queries)
        rows = [["exact (numpy)", results["exact"]["p50_ms"], results["exact"]["p95_ms"], 1.0]]
        for hnsw in results["hnsw"] if isinstance(results["hnsw"], list) else []:
            rows.append(
                [
                    f"usearch HNSW re-scored (M={hnsw['m']}, ef_search={hnsw['ef_search']})",
                    hnsw["p50_ms"],
                    hnsw["p95_ms"],
                    hnsw["recall_at_k"],
                ]
            )
        text = report.table(["search", "p50 ms", "p95 ms", "recall@10"], rows)
        name = "scale-vectors"
    else:
        run: dict[str, Any] = {"config": config, "locomo": data, "queries": queries}
        run |= {"embed_sample": embed_sample, "peer": peer, "keep": keep, "server": server}
        if as_json:
            results = scale.run_scale(_sizes(sizes), **run)
        else:
            with progress_bar() as bar:
                task = bar.add_task("store sizes", total=None)
                results = scale.run_scale(
                    _sizes(sizes),
                    progress=lambda _s, done, total: bar.update(task, completed=done, total=total),
                    **run,
                )
        text = report.table(
            [
                "memories",
                "add/s (no embedding)",
                "add/s (embedding)",
                "embedder alone/s",
                "recall p50 ms",
                "recall p95 ms",
                "peak RSS MB",
                "store MB",
                "cold first recall ms",
                "serving RSS MB",
                *(["server PSS MB"] if server else []),
            ],
            [
                [
                    r["memories"],
                    r["add_no_embedding_per_s"],
                    r["add_with_embedding_per_s"],
                    r["embedder_alone_per_s"],
                    r["recall_p50_ms"],
                    r["recall_p95_ms"],
                    r["peak_rss_mb"],
                    round(r["store_bytes"] / 1e6, 1),
                    r["cold_first_recall_ms"],
                    r["serving_rss_mb"],
                    *([r["server_pss_mb"]] if server else []),
                ]
                for r in results
            ],
        )
        if peer is not None:
            text += "\n\n" + scale.peer_table(results)
        name = "scale"
    path = render.publish(out, name, results, text, as_json=as_json, indent=1)
    if not as_json:
        render.console.print(f"results: {path}")
