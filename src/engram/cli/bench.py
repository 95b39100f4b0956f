"""``engram bench``: retrieval benchmarks (LoCoMo, BEAM, LongMemEval) and the scale run.

Each command loads its data, ingests it through the library into a store (a temporary
one unless ``--store`` names a file to keep and reuse), asks every question, prints a
markdown table and writes JSON with per-question results.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click

from engram.bench import abstain as abstain_bench
from engram.bench import abstain_package, abstain_report, beam, locomo, longmemeval, report, runner
from engram.bench import categories as categories_bench
from engram.bench import changes as changes_bench
from engram.bench import changes_user as user_bench
from engram.bench import entities as entities_bench
from engram.bench import extraction as extraction_bench
from engram.bench import graph as graph_bench
from engram.bench import injection as injection_bench
from engram.bench import paraphrase as paraphrase_bench
from engram.bench import pipeline as pipeline_bench
from engram.bench.dataset import Dataset
from engram.cli import render
from engram.cli.bench_chat import chat_cmd
from engram.cli.bench_contradictions import contradictions_cmd
from engram.cli.bench_graph_view import graph_view_cmd
from engram.cli.bench_lifecycle import lifecycle_cmd
from engram.cli.bench_options import (
    BEAM_DEV,
    SHARED_BENCH,
    data_option,
    json_command,
    out_option,
    show_results,
    stage_progress,
)
from engram.cli.bench_scale import scale_cmd
from engram.cli.common import Ctx, handle_errors
from engram.errors import InvalidInputError
from engram.memory import Memory
from engram.recall import calibrations

F = TypeVar("F", bound=Callable[..., Any])


def _settings(pairs: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise InvalidInputError(f"--set expects KEY=VALUE (a recall setting), got {pair!r}")
        out[key] = value
    return out


def bench_options(fn: F) -> F:
    """Options every retrieval benchmark takes."""
    for option in reversed(
        [
            click.option(
                "--mode",
                "modes",
                multiple=True,
                type=click.Choice([*runner.MODES, "all"]),
                help="Recall strategy to measure (repeatable; 'all' compares every one).",
            ),
            click.option("--limit", type=int, help="Only the first N questions."),
            click.option(
                "--conversation",
                "conversations",
                multiple=True,
                help="Only this conversation or chat id (repeatable), e.g. one fold.",
            ),
            click.option(
                "--store",
                type=click.Path(dir_okay=False),
                help="Keep the ingested store in this file and reuse it on the next run.",
            ),
            out_option("Directory for the JSON and markdown results."),
            click.option(
                "--set",
                "settings",
                multiple=True,
                help="A recall setting for every mode, KEY=VALUE (e.g. alpha=0.3).",
            ),
            click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON."),
            click.option(
                "--hints",
                is_flag=True,
                help="Give every ingested turn offline template hints (seed 004's "
                "prospective index) before asking; compare with --set hints=false.",
            ),
        ]
    ):
        fn = option(fn)
    return fn


@contextmanager
def _memory(obj: Ctx, store: str | None) -> Iterator[Memory]:
    # Benchmark conversations are third-party text: flag suspicious turns, never drop
    # them, so every turn the questions cite is stored.
    config = obj.config().with_overrides(injection_mode="flag")
    if store is not None:
        with Memory(store, config=config) as mem:
            yield mem
        return
    with (
        tempfile.TemporaryDirectory(prefix="engram-bench-") as tmp,
        Memory(Path(tmp) / "bench.db", config=config) as mem,
    ):
        yield mem


def _run(
    obj: Ctx,
    dataset: Dataset,
    modes: tuple[str, ...],
    limit: int | None,
    conversations: tuple[str, ...],
    store: str | None,
    out: str,
    settings: tuple[str, ...],
    as_json: bool,
    hints: bool = False,
) -> None:
    chosen = list(runner.MODES) if "all" in modes else list(dict.fromkeys(modes or ("best",)))
    dataset = dataset.only(conversations).limited(limit)
    extra = _settings(settings)
    with _memory(obj, store) as mem:
        with stage_progress(shown=not as_json) as advance:
            result = runner.run(mem, dataset, chosen, progress=advance, settings=extra, hints=hints)
        path = report.write(result, out, extra={"settings": extra, "hints": hints})
    if as_json:
        render.emit_json({m: result.summary(m) for m in chosen} | {"results": str(path)})
        return
    print(report.markdown(result))
    render.console.print(f"per-question results: {path}")


@click.group()
def bench() -> None:
    """Measure retrieval quality and speed on real benchmark data."""


@bench.command("locomo")
@data_option("The LoCoMo JSON file.")
@click.option(
    "--errata",
    "errata",
    is_flag=False,
    flag_value="auto",
    default=None,
    help="Also score with the corrected evidence (errata_dev.json beside --data, or a path).",
)
@bench_options
@click.pass_obj
@handle_errors
def locomo_cmd(obj: Ctx, /, data: str, errata: str | None, **options: Any) -> None:
    """LoCoMo: session and turn recall@k and NDCG@10, per category."""
    if errata == "auto":
        errata = str(Path(data).expanduser().parent / "errata_dev.json")
    _run(obj, locomo.load(data, errata=errata), **options)


@bench.command("beam")
@data_option(
    "A BEAM directory of chats (each with chat.json and probing_questions.json).", default=BEAM_DEV
)
@bench_options
@click.pass_obj
@handle_errors
def beam_cmd(obj: Ctx, /, data: str, **options: Any) -> None:
    """BEAM: message recall@5/10/20 per ability; abstention as the top hit's score."""
    _run(obj, beam.load(data), **options)


def _paraphrase_rows(
    obj: Ctx,
    data: str | None,
    embedder: Any,
    progress: Callable[[str, int, int], None] | None,
    namespace_evidence: bool = False,
    categories: abstain_bench.Measure | None = None,
) -> list[abstain_bench.Row]:
    """The paraphrase set asked of fresh in-memory stores sharing one embedder."""
    config = obj.config()

    @contextmanager
    def fresh() -> Iterator[Memory]:
        with Memory(":memory:", config=config, embedder=embedder) as mem:
            yield mem

    return paraphrase_bench.collect(
        paraphrase_bench.load(data), fresh, progress, namespace_evidence, categories
    )


@bench.command("paraphrase")
@click.option(
    "--data",
    default=None,
    help="A paraphrase set JSON file (default: the one engram ships).",
)
@click.option(
    "--rows",
    type=click.Path(dir_okay=False, exists=True),
    help="Rescore the per-query evidence of an earlier run (paraphrase-rows.json).",
)
@out_option("Directory for paraphrase.json, paraphrase.md and paraphrase-rows.json.")
@click.option(
    "--categories",
    "with_categories",
    is_flag=True,
    help="Also measure the category bridge and compare it fitted (an experiment).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.pass_obj
@handle_errors
def paraphrase_cmd(
    obj: Ctx, /, data: str | None, rows: str | None, out: str, with_categories: bool, as_json: bool
) -> None:
    """No false silence: small agent stores asked paraphrased, unrelated and
    cross-domain questions; per split (calibration, held-out, held-out-2 to -9; tune-36 and
    held-out-10 with --data engram/data/paraphrase36.json) and policy."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    if rows is not None:
        found = abstain_bench.load_rows(rows)
        with Memory(":memory:", config=obj.config()) as probe:
            embedder = probe.embedder.name if probe.embedder is not None else None
    else:
        with Memory(":memory:", config=obj.config()) as probe:
            embedder = probe.embedder.name if probe.embedder is not None else None
            bridge = None
            if with_categories and probe.embedder is not None:
                bridge = categories_bench.Categories(probe.embedder).measure
            with stage_progress(shown=not as_json) as advance:
                found = _paraphrase_rows(obj, data, probe.embedder, advance, categories=bridge)
        abstain_bench.save_rows(found, folder / "paraphrase-rows.json")
    summary = paraphrase_bench.summarize(found, embedder)
    text = paraphrase_bench.markdown(summary)
    if with_categories and embedder is not None:
        summary["categories"] = categories_bench.compare(found, embedder)
        text += "\n\n" + categories_bench.markdown(summary["categories"])
    render.publish(
        str(folder),
        "paraphrase",
        summary,
        text,
        as_json=as_json,
        indent=1,
    )


@bench.command("abstain")
@data_option("The LoCoMo JSON file.", "--locomo", "locomo_data")
@data_option("A BEAM directory of chats.", "--beam", "beam_data", default=BEAM_DEV)
@click.option(
    "--paraphrase",
    "paraphrase_data",
    default=None,
    help="A paraphrase set JSON file (default: the one engram ships).",
)
@click.option(
    "--store",
    type=click.Path(dir_okay=False),
    help="Keep the ingested store (LoCoMo and BEAM) in this file and reuse it.",
)
@click.option(
    "--rows",
    type=click.Path(dir_okay=False, exists=True),
    help="Rescore the per-query evidence of an earlier run (abstain-rows.json) "
    "instead of recalling again.",
)
@click.option(
    "--fit",
    is_flag=True,
    help="Write the fitted floors for the configured embedder to "
    "<home>/calibration/abstain-<embedder>.json, which recall then uses for it.",
)
@click.option(
    "--namespace-evidence",
    is_flag=True,
    help="Also measure each query against its whole namespace (mean, spread, centroid; "
    "one more embedding per query), for fitting experiments.",
)
@click.option(
    "--package",
    is_flag=True,
    help="With --fit, also rewrite the shipped engram/recall/abstain_weights.py "
    "(maintainers, in a source checkout only).",
)
@out_option("Directory for abstain.json, abstain.md and abstain-rows.json.")
@json_command
def abstain_cmd(
    obj: Ctx,
    /,
    locomo_data: str,
    beam_data: str,
    paraphrase_data: str | None,
    store: str | None,
    rows: str | None,
    fit: bool,
    namespace_evidence: bool,
    package: bool,
    out: str,
    as_json: bool,
) -> None:
    """Abstention on the paraphrase set, LoCoMo and BEAM: silent, one line or an
    answer, per policy and group, 2-fold; --fit writes a calibration for the
    configured embedder."""
    if package and not fit:
        raise InvalidInputError("--package rewrites the shipped weights: pass it with --fit")
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    with _memory(obj, store) as mem:
        embedder = mem.embedder.name if mem.embedder is not None else "none"
        if rows is not None:
            found = abstain_bench.load_rows(rows)
        else:
            with stage_progress() as advance:
                found = _paraphrase_rows(
                    obj, paraphrase_data, mem.embedder, advance, namespace_evidence
                )
                found += abstain_bench.collect(
                    mem,
                    locomo.load(locomo_data),
                    beam.load(beam_data),
                    advance,
                    namespace_evidence,
                )
            abstain_bench.save_rows(found, folder / "abstain-rows.json")
    if fit and embedder == "none":
        raise InvalidInputError(
            "--fit calibrates the configured embedder, and none is configured: set "
            "[embedder] name (ENGRAM_EMBEDDER_NAME) to the one you recall with"
        )
    summary = abstain_bench.summarize(found, embedder)
    if fit:
        note = "paraphrase calibration stores + LoCoMo + BEAM dev"
        written = calibrations.save(obj.config().home_path, embedder, summary["fitted"], note)
        render.console.print(f"calibration written: {written}")
        if package:
            target = abstain_package.weights_path()
            target.write_text(
                abstain_package.weights_module(summary["fitted"], embedder, note), encoding="utf-8"
            )
            render.console.print(f"shipped weights rewritten: {target}")
    render.publish(
        str(folder), "abstain", summary, abstain_report.markdown(summary), as_json=as_json, indent=1
    )


@bench.command("longmemeval")
@click.option("--data", required=True, help="A LongMemEval JSON file (e.g. longmemeval_s).")
@bench_options
@click.pass_obj
@handle_errors
def longmemeval_cmd(obj: Ctx, /, data: str, **options: Any) -> None:
    """LongMemEval: recall_any/recall_all/ndcg_any@k at session and turn level."""
    _run(obj, longmemeval.load(data), **options)


@bench.command("extraction")
@data_option("The LoCoMo JSON file (its 'observation' facts are the gold).")
@click.option(
    "--threshold",
    default=extraction_bench.DEFAULT_THRESHOLD,
    show_default=True,
    type=float,
    help="Cosine at which an extracted fact matches a gold fact.",
)
@click.option(
    "--labels",
    type=click.Path(dir_okay=False),
    help="Hand labels for precision [default: tests/data/extraction_labels.json if present].",
)
@click.option("--conversations", type=int, help="Only the first N conversations.")
@click.option(
    "--sample",
    "samples",
    multiple=True,
    help="Only this conversation (LoCoMo sample_id, e.g. conv-26); repeat for a fold.",
)
@click.option(
    "--sheet",
    type=click.Path(dir_okay=False),
    help="Write the precision sample, with each fact's turn, to this JSONL file to label.",
)
@out_option("Directory for extraction.json and extraction.md.")
@json_command
def extraction_cmd(
    obj: Ctx,
    /,
    data: str,
    threshold: float,
    labels: str | None,
    conversations: int | None,
    samples: tuple[str, ...],
    sheet: str | None,
    out: str,
    as_json: bool,
) -> None:
    """Offline extractor: fact recall against LoCoMo's observations, precision, speed."""
    if sheet is not None:
        rows = extraction_bench.sample_sheet(data, conversations=conversations, samples=samples)
        Path(sheet).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
        render.console.print(f"{len(rows)} facts to label: {sheet}")
        return
    if labels is None and Path(extraction_bench.LABELS).is_file():
        labels = extraction_bench.LABELS
    embedder = extraction_bench.configured_embedder(obj.config())
    result = extraction_bench.run(
        data,
        embedder=embedder,
        threshold=threshold,
        labels=labels,
        conversations=conversations,
        samples=samples,
    )
    path = extraction_bench.write(result, out)
    show_results(result, path, extraction_bench.markdown, as_json=as_json)


@bench.command("entities")
@data_option("The LoCoMo JSON file whose conversations are ingested.")
@click.option(
    "--threshold",
    default=entities_bench.DEFAULT_THRESHOLD,
    show_default=True,
    type=float,
    help="dedupe's cosine threshold for entity names.",
)
@click.option("--conversations", type=int, help="Only the first N conversations.")
@out_option("Directory for entities.json and entities.md.")
@json_command
def entities_cmd(
    obj: Ctx, /, data: str, threshold: float, conversations: int | None, out: str, as_json: bool
) -> None:
    """Duplicate-entity rate of the graph after LoCoMo, before and after dedupe."""
    embedder = entities_bench.configured_embedder(obj.config())
    result = entities_bench.run(
        data, embedder=embedder, threshold=threshold, conversations=conversations
    )
    path = entities_bench.write(result, out)
    show_results(result, path, entities_bench.markdown, as_json=as_json)


@bench.command("pipeline")
@data_option("The LoCoMo JSON file whose turns are ingested.")
@click.option("--n", default=500, show_default=True, help="How many turns.")
@click.option("--rounds", default=3, show_default=True, help="Interleaved rounds per arm.")
@click.option("--no-embed", is_flag=True, help="Measure the write alone, without the embedder.")
@out_option("Directory for pipeline.json and pipeline.md.")
@json_command
def pipeline_cmd(
    obj: Ctx, /, data: str, n: int, rounds: int, no_embed: bool, out: str, as_json: bool
) -> None:
    """Write pipeline: add throughput with it off vs on, and the worker's throughput."""
    result = pipeline_bench.run(obj.config(), data, n=n, rounds=rounds, embed=not no_embed)
    rows = [[k, v] for k, v in result.items()]
    text = report.table(["measure", "value"], rows)
    render.publish(out, "pipeline", result, text, as_json=as_json)


@bench.command("graph")
@data_option("The LoCoMo JSON file (its event_summary is the gold).")
@out_option("Directory for graph.json and graph.md.")
@click.option(
    "--latency",
    type=int,
    default=None,
    help="Instead: recall latency with the graph boost off vs on at N memories "
    "(the scale benchmark's corpus, linked as it is added).",
)
@click.option("--queries", default=300, show_default=True, help="Questions for --latency.")
@click.option(
    "--set",
    "pairs",
    multiple=True,
    help="A recall setting for the boosted arm of --latency, KEY=VALUE.",
)
@json_command
def graph_cmd(
    obj: Ctx,
    /,
    data: str,
    out: str,
    latency: int | None,
    queries: int,
    pairs: tuple[str, ...],
    as_json: bool,
) -> None:
    """Knowledge graph: LoCoMo's gold events found in the speakers' timelines, after
    the inline linker and after the offline pipeline; or, with --latency N, what the
    graph boost costs a recall at N memories."""
    if latency is not None:
        timing = graph_bench.boost_latency(
            obj.config(), data, n=latency, queries=queries, settings=_settings(pairs)
        )
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        name = f"graph-latency-{latency}.json"
        (folder / name).write_text(json.dumps(timing, indent=2), encoding="utf-8")
        if as_json:
            render.emit_json(timing)
            return
        print(report.table(["measure", "value"], [[k, v] for k, v in timing.items()]))
        return
    with stage_progress() as advance:
        result = graph_bench.run(obj.config(), data, progress=advance)
    render.publish(out, "graph", result, graph_bench.markdown(result), as_json=as_json)


@bench.command("injection")
@click.option(
    "--data",
    default=str(SHARED_BENCH),
    show_default=True,
    help="The folder holding locomo/locomo10_dev.json and beam-100k/*/chat.json: every text "
    "in them is a benign text for the false-positive rate.",
)
@click.option(
    "--set",
    "set_path",
    default=None,
    help="An adversarial set JSON file (default: the one engram ships).",
)
@click.option(
    "--rules-only",
    is_flag=True,
    help="Measure the rules alone, without embedding the texts for the learned detector "
    "(seconds instead of minutes).",
)
@out_option("Directory for injection.json and injection.md.")
@json_command
def injection_cmd(
    obj: Ctx, /, data: str, set_path: str | None, rules_only: bool, out: str, as_json: bool
) -> None:
    """The injection scan as a classifier: recall per category on the tuning and held-out
    folds of the adversarial set, benign notes flagged, and false positives on real
    LoCoMo and BEAM texts; the rules with the learned detector, and the rules alone."""
    if rules_only:
        result = injection_bench.run(data, set_path)
    else:
        with Memory(":memory:", config=obj.config()) as probe:
            result = injection_bench.run(data, set_path, probe.embedder)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "injection.json"
    path.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (folder / "injection.md").write_text(injection_bench.markdown(result) + "\n", "utf-8")
    show_results(result, path, injection_bench.markdown, as_json=as_json)


@bench.command("changes")
@click.option(
    "--set",
    "set_path",
    default=None,
    help="A changes set JSON file (default: the one engram ships).",
)
@out_option("Directory for changes.json and changes.md.")
@json_command
def changes_cmd(obj: Ctx, /, set_path: str | None, out: str, as_json: bool) -> None:
    """Facts that change (issue 28, G2): the share of change stories whose old fact the
    graph closes, and of non-changes where it closes one wrongly, per fold; with the
    shipped set, whether recall answers a user's own question with the new fact
    (the configured embedder)."""
    result = changes_bench.run(obj.config(), set_path)
    text = changes_bench.markdown(result)
    if set_path is None:  # the user questions name the shipped stories
        result["user"] = user_bench.run(obj.config())
        text += "\n\n" + user_bench.markdown(result["user"])
    render.publish(out, "changes", result, text, as_json=as_json)


# The scale command lives in its own module (registered on the group here).
bench.add_command(scale_cmd)
bench.add_command(lifecycle_cmd)
bench.add_command(contradictions_cmd)
bench.add_command(chat_cmd)
bench.add_command(graph_view_cmd)
