"""How many duplicate entities does the graph hold after LoCoMo, before and after
``mem.graph.dedupe``? (issue 12, FEATURES G1)

Every dev conversation is ingested into a namespace of its own through the offline
pipeline (``add`` of each turn, then ``mem.jobs.process_pending()``: the write-time
linker and the rule-based extraction fill the graph). The duplicate-entity rate is the
share of a namespace's entities that are redundant: grouped by the judgement below,
a group of n entities holds n - 1 duplicates.

**The judgement** (a fixed rule, written independently of ``dedupe``'s rules; what it
calls one thing was checked by reading the listed samples):

1. *same name*: equal after lowercasing, dropping possessives and punctuation, a
   leading article or possessive pronoun ("the", "a", "my" ...) and a plural ``s``
   on each word of four letters or more ("Pride parades" = "the pride parade");
2. *speaker variant*: a one-word name of three letters or more that begins a
   speaker's name ("Mel", "Caro") or a name whose first word is the speaker's name
   ("Caroline Smith") is that speaker (LoCoMo names both speakers of each
   conversation; they are the people every conversation is about).

Extraction noise that merely contains a name ("woohoo Melanie") is not a duplicate
by this judgement: it is a wrong entity, not a second spelling of a right one.
"""

from __future__ import annotations

import re
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engram.bench.dataset import read_json, write_result
from engram.bench.locomo import SESSION_KEY, parse_date, turn_text
from engram.config import Config
from engram.embed import Embedder, create_embedder
from engram.errors import InvalidInputError
from engram.memory import Memory
from engram.store.protocols.graph import normal_name

#: ``dedupe``'s cosine threshold in the benchmark: the library's default.
DEFAULT_THRESHOLD = 0.9
#: Groups listed per phase in the report.
SAMPLE = 12
_LEADING = frozenset({"the", "a", "an", "my", "our", "his", "her", "their", "your"})
_DATE_KEY = re.compile(r"^session_(\d+)_date_time$")


@dataclass(frozen=True, slots=True)
class Talk:
    """One LoCoMo conversation: its speakers and its turns with their times."""

    name: str
    speakers: tuple[str, ...]
    turns: tuple[tuple[str, Any], ...]


def load(path: str, *, conversations: int | None = None) -> list[Talk]:
    """The conversations of a LoCoMo file (only the first ``conversations``)."""
    data = read_json(path, "LoCoMo")
    if not isinstance(data, list):
        raise InvalidInputError(f"LoCoMo file {path} must hold a JSON list of samples")
    talks: list[Talk] = []
    for index, sample in enumerate(data[:conversations]):
        try:
            conv = sample["conversation"]
            speakers = (str(conv["speaker_a"]), str(conv["speaker_b"]))
        except (KeyError, TypeError) as exc:
            raise InvalidInputError(f"LoCoMo sample {index} lacks its speakers") from exc
        turns: list[tuple[str, Any]] = []
        sessions = sorted((int(m.group(1)), k) for k in conv if (m := SESSION_KEY.match(k)))
        for number, key in sessions:
            when = conv.get(f"session_{number}_date_time")
            stamp = parse_date(when) if isinstance(when, str) else None
            turns += [(turn_text(turn), stamp) for turn in conv[key]]
        talks.append(Talk(str(sample.get("sample_id", index)), speakers, tuple(turns)))
    return talks


def configured_embedder(config: Config) -> Embedder | None:
    """The embedder ``config`` names (MiniLM by default); None for ``none``, and then
    ``dedupe`` runs its name rules only."""
    return create_embedder(config.embedder, config.home_path)


def _key(name: str) -> str:
    words = normal_name(name).split()
    while len(words) > 1 and words[0] in _LEADING:
        words = words[1:]
    return " ".join(
        w[:-1] if len(w) >= 4 and w.endswith("s") and not w.endswith("ss") else w for w in words
    )


def judged_groups(names: Iterable[str], speakers: Sequence[str]) -> list[list[str]]:
    """Groups of names the judgement calls one thing (groups of one left out)."""
    people = [normal_name(s) for s in speakers]
    groups: dict[str, list[str]] = defaultdict(list)
    for name in names:
        key = _key(name)
        words = key.split()
        for person in people:
            single = len(words) == 1 and len(key) >= 3 and person.startswith(key)
            if single or (len(words) > 1 and words[0] == person):
                key = person
                break
        groups[key].append(name)
    return sorted((sorted(g) for g in groups.values() if len(g) > 1), key=lambda g: (-len(g), g))


def _rate(mem: Memory, talks: Sequence[Talk]) -> dict[str, Any]:
    entities = duplicates = 0
    sample: list[list[str]] = []
    for talk in talks:
        names = [e.name for e in _all_entities(mem, _namespace(talk))]
        groups = judged_groups(names, talk.speakers)
        entities += len(names)
        duplicates += sum(len(g) - 1 for g in groups)
        sample += groups[: max(1, SAMPLE // len(talks))]
    return {
        "entities": entities,
        "duplicates": duplicates,
        "rate": round(duplicates / entities, 4) if entities else 0.0,
        "sample": sample[:SAMPLE],
    }


def _all_entities(mem: Memory, namespace: str) -> list[Any]:
    out: list[Any] = []
    while True:
        page = mem.graph.entities(limit=1000, offset=len(out), namespace=namespace)
        out += page
        if len(page) < 1000:
            return out


def _namespace(talk: Talk) -> str:
    return f"locomo-{talk.name}"


def run(
    path: str,
    *,
    embedder: Embedder | None,
    threshold: float = DEFAULT_THRESHOLD,
    conversations: int | None = None,
) -> dict[str, Any]:
    """Ingest, measure, dedupe, measure again; the figures as a dict."""
    talks = load(path, conversations=conversations)
    if not talks:
        raise InvalidInputError(f"no conversations in {path}")
    with tempfile.TemporaryDirectory(prefix="engram-bench-entities-") as home:
        config = Config.load(env={"ENGRAM_PIPELINE_EXTRACTOR": "offline"}, home=home)
        store = str(Path(home) / "engram.db")
        started = time.perf_counter()
        # Ingest without vectors: the graph does not need them, and it is faster.
        with Memory(store, config=config, embedder=None) as mem:
            for talk in talks:
                for text, when in talk.turns:
                    mem.add(text, namespace=_namespace(talk), created_at=when)
            mem.jobs.process_pending()
            before = _rate(mem, talks)
        ingest_s = time.perf_counter() - started
        started = time.perf_counter()
        reasons: dict[str, int] = defaultdict(int)
        pairs: list[dict[str, Any]] = []
        with Memory(store, config=config, embedder=embedder) as mem:
            for talk in talks:
                result = mem.graph.dedupe(threshold, False, namespace=_namespace(talk))
                for pair in result.pairs:
                    reasons[pair.reason] += 1
                pairs += [p.to_dict() for p in result.pairs]
            after = _rate(mem, talks)
        dedupe_s = time.perf_counter() - started
    return {
        "conversations": len(talks),
        "turns": sum(len(t.turns) for t in talks),
        "embedder": None if embedder is None else embedder.name,
        "threshold": threshold,
        "before": before,
        "after": after,
        "merged": len(pairs),
        "merged_by_reason": dict(sorted(reasons.items())),
        "merged_sample": pairs[: SAMPLE * 2],
        "ingest_s": round(ingest_s, 1),
        "dedupe_s": round(dedupe_s, 1),
    }


def markdown(result: dict[str, Any]) -> str:
    """The figures as a short markdown report."""
    b, a = result["before"], result["after"]
    reasons = ", ".join(f"{k} {v}" for k, v in result["merged_by_reason"].items()) or "none"
    lines = [
        f"### duplicate entities on {result['conversations']} LoCoMo conversations, "
        f"{result['turns']} turns (embedder {result['embedder']}, "
        f"threshold {result['threshold']:g})",
        "",
        "| | entities | duplicates | rate |",
        "|---|---|---|---|",
        f"| before dedupe | {b['entities']} | {b['duplicates']} | {b['rate']:.1%} |",
        f"| after dedupe | {a['entities']} | {a['duplicates']} | {a['rate']:.1%} |",
        "",
        f"- merged {result['merged']} entities ({reasons}); ingest {result['ingest_s']} s, "
        f"dedupe {result['dedupe_s']} s",
        "- judged duplicates before: " + "; ".join(" / ".join(g) for g in b["sample"]),
        "- judged duplicates left: " + ("; ".join(" / ".join(g) for g in a["sample"]) or "none"),
        "- merges: "
        + "; ".join(
            f"{p['other']} -> {p['keep']} ({p['reason']})" for p in result["merged_sample"]
        ),
    ]
    return "\n".join(lines) + "\n"


def write(result: dict[str, Any], out_dir: str | Path) -> Path:
    """Write ``entities.json`` and ``entities.md``; returns the JSON path."""
    return write_result(out_dir, "entities", result, markdown(result))
