"""How much of what happened does the graph hold? LoCoMo's gold ``event_summary``
against the graph's timelines (FEATURES G3, with the pipeline's extraction).

The LoCoMo dev conversations are ingested (one memory per turn, the inline linker on),
then scored; then the offline pipeline runs on every turn
(``mem.jobs.process_pending()``: extraction, decisions, graph writes) and they are
scored again. The gold events are read here only, after ingestion, never by the
linker or the pipeline.

LoCoMo gives, per session and speaker, the events of that speaker's life the session
reports ("Caroline attends an LGBTQ support group for the first time."), and the
session's date. An event counts as:

- **named** when an entity one relation away from the speaker's entity (either
  direction, any validity) names a phrase of the event: its canonical name, at least
  two characters and not a stopword, occurs in the lower-cased event as whole words.
  That entity is the event's *main entity* here; the rules cannot tell the key noun
  phrase from the rest, so any linked phrase counts (an upper bound on "the" entity).
- **valid on the date** when it is named and a relation between the speaker and that
  entity holds on the session's date: ``valid_from`` on or before the end of that day
  and ``valid_to`` empty or after its start.
- **dated** when it is named and a memory written on the session's date mentions that
  entity (the timeline places it then): the strict measure, reported as "covered".
"""

from __future__ import annotations

import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from engram.bench import locomo, runner
from engram.bench.dataset import read_json
from engram.bench.metrics import percentile
from engram.bench.pg_scale import compose_corpus
from engram.bench.scale import base_vectors, locomo_turns_and_questions
from engram.config import Config
from engram.embed import Embedder
from engram.memory import Memory
from engram.pipeline.linker import TALKS_ABOUT
from engram.store.protocols import VectorRow
from engram.store.protocols.graph import canonical_name
from engram.text import STOPWORDS

Progress = Callable[[str, int, int], None]


@dataclass(frozen=True, slots=True)
class Event:
    """One gold event: who, which session, when, what."""

    sample: str
    session: int
    speaker: str
    day: date
    text: str


@dataclass
class _Link:
    """An entity one relation from a speaker: its windows and the days it was mentioned."""

    windows: list[tuple[datetime, datetime | None]] = field(default_factory=list)
    days: set[date] = field(default_factory=set)


def gold_events(path: str | Path) -> list[Event]:
    """Every ``event_summary`` event of the LoCoMo file, dated by its session."""
    events: list[Event] = []
    for index, sample in enumerate(read_json(str(path), "LoCoMo")):
        sample_id = str(sample.get("sample_id", f"conv-{index}"))
        conversation = sample["conversation"]
        for key, per_speaker in (sample.get("event_summary") or {}).items():
            number = int(key.rsplit("_", 1)[-1])
            stamp = conversation.get(f"session_{number}_date_time")
            if stamp is None:
                continue
            day = locomo.parse_date(stamp).date()
            for speaker, texts in per_speaker.items():
                if speaker == "date" or not isinstance(texts, list):
                    continue
                events.extend(Event(sample_id, number, speaker, day, str(t)) for t in texts)
    return events


def _links(
    mem: Memory, namespace: str, speaker: str, skip: frozenset[str] = frozenset()
) -> dict[str, _Link]:
    """Canonical name -> link, for every entity one relation (not of a type in
    ``skip``) from ``speaker``."""
    graph = mem.store.graph
    person = graph.entity(namespace, speaker)
    if person is None:
        return {}
    links: dict[str, _Link] = {}
    ids: dict[str, int] = {}
    for r in graph.timeline(namespace, person.id):
        other, other_id = (
            (r.target, r.target_entity_id)
            if r.source_entity_id == person.id
            else (r.source, r.source_entity_id)
        )
        if other_id == person.id or r.relation_type in skip:
            continue
        key = canonical_name(other)
        links.setdefault(key, _Link()).windows.append((r.valid_from, r.valid_to))
        ids[key] = other_id
    for key, entity_id in ids.items():
        memory_ids = [m.memory_id for m in graph.mentions(namespace, entity_id)]
        facts = mem.store.memories.facts(namespace, memory_ids)
        links[key].days = {f.created_at.date() for f in facts.values()}
    return links


def _names(text: str, name: str) -> bool:
    if len(name) < 2 or name in STOPWORDS:
        return False
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text) is not None


def score(mem: Memory, events: list[Event], skip: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The shares of ``events`` named, valid on their date, and dated (covered), through
    relations of any type but those in ``skip``."""
    cache: dict[tuple[str, str], dict[str, _Link]] = {}
    named = valid = dated = 0
    for event in events:
        key = (event.sample, event.speaker)
        if key not in cache:
            ns = runner.namespace_for("locomo", event.sample)
            cache[key] = _links(mem, ns, event.speaker, skip)
        text = event.text.lower()
        found = [link for name, link in cache[key].items() if _names(text, name)]
        if not found:
            continue
        named += 1
        start = datetime.combine(event.day, datetime.min.time()).replace(
            tzinfo=found[0].windows[0][0].tzinfo
        )
        end = start + timedelta(days=1)
        if any(f < end and (t is None or t > start) for link in found for f, t in link.windows):
            valid += 1
        if any(event.day in link.days for link in found):
            dated += 1
    total = len(events) or 1
    return {
        "events": len(events),
        "named": round(named / total, 4),
        "valid_on_date": round(valid / total, 4),
        "covered": round(dated / total, 4),
        "entities": sum(len(v) for v in cache.values()),
    }


def run(
    config: Config,
    data: str | Path,
    *,
    progress: Progress | None = None,
    embedder: Embedder | None | str = "default",
) -> dict[str, Any]:
    """Ingest the LoCoMo conversations with the linker, score; run the offline
    pipeline (its decisions search with ``embedder``), score again."""
    cfg = replace(
        config,
        pipeline=replace(
            config.pipeline, enabled=True, graph=True, linker=True, extractor="offline"
        ),
    )
    dataset = locomo.load(str(data))
    with (
        tempfile.TemporaryDirectory(prefix="engram-bench-graph-") as tmp,
        Memory(Path(tmp) / "graph.db", config=cfg, embedder=embedder) as mem,
    ):
        ingest = runner.ingest(mem, dataset, progress)
        events = gold_events(data)  # the gold, read after ingestion
        linker = score(mem, events)
        # Without the linker's speaker -> name links: what the rule triples alone hold.
        triples = score(mem, events, frozenset({TALKS_ABOUT}))
        start = time.perf_counter()
        jobs = mem.jobs.process_pending()
        seconds = time.perf_counter() - start
        pipeline = score(mem, events)
    return {
        "conversations": len(dataset.conversations),
        "turns": ingest["turns"],
        "ingest_turns_per_s": ingest["turns_per_second"],
        "linker": linker,
        "linker_triples_only": triples,
        "pipeline_jobs": jobs,
        "pipeline_seconds": round(seconds, 1),
        "linker_and_pipeline": pipeline,
    }


def markdown(result: dict[str, Any]) -> str:
    """The result as a markdown table."""
    rows = [
        "| graph | events | named | valid on the date | covered (dated) | linked entities |",
        "|---|---|---|---|---|---|",
    ]
    for label, key in (
        ("linker, rule triples only", "linker_triples_only"),
        ("linker", "linker"),
        ("linker + pipeline", "linker_and_pipeline"),
    ):
        r = result[key]
        rows.append(
            f"| {label} | {r['events']} | {r['named']:.3f} | {r['valid_on_date']:.3f} | "
            f"{r['covered']:.3f} | {r['entities']} |"
        )
    return "\n".join(rows)


def boost_latency(
    config: Config,
    data: str | Path,
    *,
    n: int,
    queries: int = 300,
    settings: dict[str, Any] | None = None,
    workdir: str | None = None,
) -> dict[str, Any]:
    """Recall latency with the graph boost off and on, on the scale benchmark's store
    of ``n`` composed LoCoMo texts (``engram bench scale``), linked by the inline linker
    as they are added. Each question is asked with the boost off, then on, in turn (the
    machine's load hits both alike); query embedding included. ``settings`` are extra
    recall settings for the "on" arm (``graph_boost_hub=...``)."""
    turns, questions = locomo_turns_and_questions(data)
    vectors = base_vectors(config, turns, config.home_path / "bench-cache")
    texts, text_vectors = compose_corpus(turns, vectors, n)
    cfg = replace(config, pipeline=replace(config.pipeline, enabled=False, linker=True))
    namespace = "bench-scale"
    with (
        tempfile.TemporaryDirectory(prefix="engram-bench-boost-", dir=workdir) as tmp,
        Memory(Path(tmp) / "boost.db", config=cfg, embedder=None) as plain,
    ):
        start = time.perf_counter()
        records = plain.add_many(texts, namespace=namespace)
        add_seconds = time.perf_counter() - start
        plain.close()
        with Memory(Path(tmp) / "boost.db", config=cfg) as mem:
            assert mem.embedder is not None
            model = mem.embedder.name
            for lo in range(0, n, 5000):
                mem.store.vectors.put(
                    VectorRow(r.id, model, text_vectors[lo + i], r.content_hash)
                    for i, r in enumerate(records[lo : lo + 5000])
                )
            asked = [questions[i % len(questions)] for i in range(queries + 20)]
            on = {"graph_boost": True, **(settings or {})}
            for q in asked[:20]:  # load the model, build the index
                mem.recall(q, namespace=namespace)
                mem.recall(q, namespace=namespace, **on)
            off_ms: list[float] = []
            on_ms: list[float] = []
            stage: list[float] = []
            timed_out = 0
            for q in asked[20:]:
                begin = time.perf_counter()
                mem.recall(q, namespace=namespace)
                off_ms.append((time.perf_counter() - begin) * 1000)
                begin = time.perf_counter()
                recall = mem.recall(q, namespace=namespace, **on)
                on_ms.append((time.perf_counter() - begin) * 1000)
                stage.append(recall.timings.get("graph", 0.0))
                timed_out += any("deadline" in w for w in recall.warnings)
            linked = bool(mem.store.graph.entities(namespace, limit=1, offset=0, query=None))
    return {
        "memories": n,
        "add_no_embedding_per_s": round(n / add_seconds, 1),
        "queries": len(on_ms),
        "settings": on,
        "recall_p50_ms_off": round(percentile(off_ms, 50), 2),
        "recall_p50_ms_on": round(percentile(on_ms, 50), 2),
        "recall_p95_ms_off": round(percentile(off_ms, 95), 2),
        "recall_p95_ms_on": round(percentile(on_ms, 95), 2),
        "graph_stage_p50_ms": round(percentile(stage, 50), 2),
        "graph_stage_p95_ms": round(percentile(stage, 95), 2),
        "timed_out": timed_out,
        "linked": linked,
    }
