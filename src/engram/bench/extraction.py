"""How good is the offline extractor? Recall against LoCoMo's gold observations,
precision on a hand-labelled sample, facts per turn and speed (FEATURES P2).

- **Recall.** LoCoMo gives, per session and speaker, ``observation`` facts written by
  people, each citing the turn(s) it comes from. A gold fact counts as recalled when a
  fact extracted *from one of the turns it cites* has cosine similarity at least
  ``threshold`` with it (engram's embedder). Gold facts are read here only, never by
  the extractor.
- **Echo baseline.** The same recall when each whole turn is one "fact": a reference
  for what the threshold lets through, not a usable extractor (turns are not
  standalone, and a turn says many things at once).
- **Precision.** A seeded sample of extracted facts was labelled by hand
  (``tests/data/extraction_labels.json``, with the criteria); precision is the share
  labelled correct among the sampled facts the extractor still produces.
- **Volume and speed.** Facts per turn, and turns per second through
  ``engram.pipeline.extraction.extract_offline`` (rules plus validation, no embedding),
  each turn read with the turn before it in its session.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engram.bench.dataset import read_json, write_result
from engram.bench.locomo import evidence_ids, turn_text
from engram.config import Config
from engram.embed import Embedder, create_embedder
from engram.errors import InvalidInputError
from engram.pipeline import offline
from engram.pipeline.extraction import extract_offline
from engram.settings import PipelineConfig

#: Cosine (all-MiniLM-L6-v2) at or above which an extracted fact "says" a gold fact.
#: Chosen by reading matched pairs on the dev split in bands of 0.05 (docs/pipeline.md):
#: below 0.6 pairs mostly share a topic but not the claim, from 0.6 to 0.65 a little
#: over half state the same claim in other words, above 0.7 nearly all do. At 0.6 a
#: pair near the threshold is as likely right as wrong, so misses just above it and
#: hits just below it roughly cancel.
DEFAULT_THRESHOLD = 0.6
#: Recall is also reported at these thresholds, so the choice can be judged.
SWEEP = (0.5, 0.55, 0.6, 0.65, 0.7, 0.8)
#: Confidences at which recall and precision are also reported (facts at or above each):
#: the write gate (seed 004's 0.7) and the points around it (issue 28).
CONFIDENCE_SWEEP = (0.0, 0.5, 0.6, 0.7, 0.8)
#: The labelled sample: how many facts, drawn with which seed.
SAMPLE_SIZE = 150
SAMPLE_SEED = 20_240_601
#: Where the hand labels live in a source checkout (``engram bench extraction`` reads
#: them from the working directory when ``--labels`` is not given).
LABELS = str(Path("tests") / "data" / "extraction_labels.json")
_SESSION_KEY = re.compile(r"^session_(\d+)$")
_OBSERVATION_KEY = re.compile(r"^session_(\d+)_observation$")
_EMBED_BATCH = 256


@dataclass(frozen=True, slots=True)
class SourceTurn:
    """A turn as engram stores it (``"Speaker: text"``), with where it is from."""

    conversation: str
    dia_id: str
    text: str


@dataclass(frozen=True, slots=True)
class GoldFact:
    """One LoCoMo observation and the turns it cites."""

    conversation: str
    speaker: str
    text: str
    dia_ids: frozenset[str]


@dataclass(frozen=True, slots=True)
class TurnFact:
    """A fact the extractor produced from one turn."""

    conversation: str
    dia_id: str
    content: str
    rule: str
    confidence: float = 0.0

    @property
    def key(self) -> str:
        """Stable id of this fact for the labels file: a hash, so the labels hold no
        benchmark text."""
        basis = f"{self.conversation}|{self.dia_id}|{self.content}"
        return hashlib.sha256(basis.encode("utf-8")).hexdigest()[:16]


def load_turns(
    path: str, *, conversations: int | None = None, samples: Collection[str] = ()
) -> list[SourceTurn]:
    """Every turn of every conversation (``conversations``: only the first N;
    ``samples``: only those sample ids, e.g. one fold to tune on and one to check)."""
    return _load(path, conversations, samples, gold=False)[0]


def load(
    path: str, *, conversations: int | None = None, samples: Collection[str] = ()
) -> tuple[list[SourceTurn], list[GoldFact]]:
    """Turns and gold facts of a LoCoMo file."""
    return _load(path, conversations, samples, gold=True)


def _load(
    path: str, limit: int | None, samples: Collection[str], *, gold: bool
) -> tuple[list[SourceTurn], list[GoldFact]]:
    data = read_json(path, "LoCoMo")
    if not isinstance(data, list):
        raise InvalidInputError(f"LoCoMo file {path} must hold a JSON list of samples")
    turns: list[SourceTurn] = []
    facts: list[GoldFact] = []
    for index, sample in enumerate(data[:limit] if limit is not None else data):
        try:
            conv = sample["conversation"]
            name = str(sample.get("sample_id", f"conv-{index}"))
        except (KeyError, TypeError) as exc:
            raise InvalidInputError(f"LoCoMo sample {index} lacks 'conversation'") from exc
        if samples and name not in samples:
            continue
        numbers = sorted(int(m.group(1)) for k in conv if (m := _SESSION_KEY.match(k)))
        for n in numbers:
            for turn in conv[f"session_{n}"]:
                turns.append(SourceTurn(name, str(turn["dia_id"]), turn_text(turn)))
        if gold:
            facts.extend(_gold(name, sample.get("observation")))
    return turns, facts


def _gold(conversation: str, observation: object) -> Iterable[GoldFact]:
    if not isinstance(observation, dict):
        raise InvalidInputError(
            f"LoCoMo sample {conversation} has no 'observation' facts to score against"
        )
    for key, speakers in observation.items():
        if not _OBSERVATION_KEY.match(key) or not isinstance(speakers, dict):
            continue
        for speaker, items in speakers.items():
            for item in items:
                text, cited = item[0], item[1]
                ids = evidence_ids(cited if isinstance(cited, list) else [cited])
                if ids:
                    yield GoldFact(conversation, str(speaker), str(text), ids)


def previous_turns(turns: Sequence[SourceTurn]) -> list[str | None]:
    """Per turn, the turn said just before it in the same session (``D3:7`` follows
    ``D3:6``), or None for a session's first: what a chat client holds when the turn
    arrives, which the extractor reads for what a pointer stands for."""
    out: list[str | None] = []
    for index, turn in enumerate(turns):
        last = turns[index - 1] if index else None
        same = last is not None and (last.conversation, _session(last)) == (
            turn.conversation,
            _session(turn),
        )
        out.append(last.text if same and last is not None else None)
    return out


def _session(turn: SourceTurn) -> str:
    return turn.dia_id.split(":", 1)[0]


def extract_turns(turns: Sequence[SourceTurn]) -> tuple[list[TurnFact], float]:
    """The offline extractor's facts for every turn (read with the turn before it),
    and the turns per second of the public extraction path (``extract_offline``: rules
    plus seed 004 validation)."""
    before = previous_turns(turns)
    start = time.perf_counter()
    for turn, prior in zip(turns, before, strict=True):
        extract_offline(turn.text, before=prior)
    elapsed = time.perf_counter() - start
    facts: list[TurnFact] = []
    for turn, prior in zip(turns, before, strict=True):
        # ``analyse`` is what ``extract_offline`` validates; it also names each fact's
        # rule, for the per-rule figures.
        for fact in offline.analyse(turn.text, before=prior).facts:
            facts.append(
                TurnFact(turn.conversation, turn.dia_id, fact.content, fact.rule, fact.confidence)
            )
    return facts, len(turns) / elapsed if elapsed > 0 else float("inf")


def configured_embedder(config: Config) -> Embedder:
    """The embedder ``config`` names (engram's MiniLM by default); recall is measured
    with the same model recall runs on."""
    embedder = create_embedder(config.embedder, config.home_path)
    if embedder is None:
        raise InvalidInputError(
            "the extraction benchmark needs an embedder; embedder.name is 'none'"
        )
    return embedder


def _embed(embedder: Embedder, texts: Sequence[str]) -> np.ndarray[Any, np.dtype[np.float32]]:
    if not texts:
        return np.zeros((0, embedder.dimension), dtype=np.float32)
    parts = [
        embedder.embed_batch(list(texts[i : i + _EMBED_BATCH]))
        for i in range(0, len(texts), _EMBED_BATCH)
    ]
    return np.vstack(parts).astype(np.float32)


def best_matches(
    gold: Sequence[GoldFact],
    candidates: Sequence[tuple[str, str, str]],
    embedder: Embedder,
) -> list[tuple[float, int | None]]:
    """Per gold fact: the best cosine with a candidate ``(conversation, dia_id, text)``
    from a turn it cites, and that candidate's index (None when the turns gave none)."""
    gold_vectors = _embed(embedder, [g.text for g in gold])
    cand_vectors = _embed(embedder, [c[2] for c in candidates])
    return _best(gold, gold_vectors, candidates, cand_vectors, range(len(candidates)))


def _best(
    gold: Sequence[GoldFact],
    gold_vectors: np.ndarray[Any, np.dtype[np.float32]],
    candidates: Sequence[tuple[str, str, str]],
    cand_vectors: np.ndarray[Any, np.dtype[np.float32]],
    allowed: Iterable[int],
) -> list[tuple[float, int | None]]:
    """``best_matches`` over the candidates whose index is in ``allowed``."""
    by_turn: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index in allowed:
        conversation, dia_id, _ = candidates[index]
        by_turn[(conversation, dia_id)].append(index)
    out: list[tuple[float, int | None]] = []
    for row, fact in enumerate(gold):
        pool = [i for d in sorted(fact.dia_ids) for i in by_turn.get((fact.conversation, d), [])]
        if not pool:
            out.append((0.0, None))
            continue
        sims = cand_vectors[pool] @ gold_vectors[row]
        best = int(np.argmax(sims))
        out.append((float(sims[best]), pool[best]))
    return out


def by_confidence(
    gold: Sequence[GoldFact],
    facts: Sequence[TurnFact],
    embedder: Embedder,
    labels: dict[str, bool] | None,
    threshold: float,
) -> dict[str, dict[str, Any]]:
    """Recall (and precision, with labels) of the facts at or above each confidence in
    :data:`CONFIDENCE_SWEEP`: the curve an operating point (``min_fact_confidence``) is
    chosen on. Facts are embedded once."""
    candidates = [(f.conversation, f.dia_id, f.content) for f in facts]
    gold_vectors = _embed(embedder, [g.text for g in gold])
    cand_vectors = _embed(embedder, [c[2] for c in candidates])
    out: dict[str, dict[str, Any]] = {}
    for gate in CONFIDENCE_SWEEP:
        allowed = [i for i, f in enumerate(facts) if f.confidence >= gate]
        matches = _best(gold, gold_vectors, candidates, cand_vectors, allowed)
        row: dict[str, Any] = {
            "facts": len(allowed),
            "recall": round(recall_at(matches, threshold), 3),
        }
        if labels is not None:
            judged = precision([facts[i] for i in allowed], labels)
            row["precision"], row["n"] = judged["precision"], judged["n"]
        out[f"{gate:g}"] = row
    return out


def recall_at(matches: Sequence[tuple[float, int | None]], threshold: float) -> float:
    """Share of gold facts whose best match reaches ``threshold``."""
    if not matches:
        return 0.0
    return sum(1 for score, idx in matches if idx is not None and score >= threshold) / len(matches)


# -- precision from hand labels -------------------------------------------------------


def draw_sample(
    facts: Sequence[TurnFact], size: int = SAMPLE_SIZE, seed: int = SAMPLE_SEED
) -> list[TurnFact]:
    """A seeded random sample of ``facts`` (the one the labels were made on).

    Each fact's place is a hash of the seed and its key, so a fact keeps its place when
    the extractor changes others: after a change, the sample keeps every fact still
    produced and only the new ones need labels."""

    def rank(fact: TurnFact) -> str:
        return hashlib.sha256(f"{seed}:{fact.key}".encode()).hexdigest()

    return sorted(facts, key=rank)[:size]


def read_labels(path: str | Path) -> dict[str, bool]:
    """``fact key -> correct?`` from a labels file (see ``tests/data``)."""
    data = read_json(str(path), "extraction labels")
    try:
        return {str(row["key"]): bool(row["correct"]) for row in data["labels"]}
    except (KeyError, TypeError) as exc:
        raise InvalidInputError(f"labels file {path} lacks 'labels' rows with key/correct") from exc


def precision(facts: Sequence[TurnFact], labels: dict[str, bool]) -> dict[str, Any]:
    """Precision over the labelled facts the extractor still produces, overall and per
    rule; ``unlabelled`` counts labels whose fact is no longer produced."""
    produced = {f.key: f for f in facts}
    judged = [(produced[k], ok) for k, ok in labels.items() if k in produced]
    per_rule: dict[str, list[bool]] = defaultdict(list)
    for fact, ok in judged:
        per_rule[fact.rule].append(ok)
    return {
        "precision": round(sum(ok for _, ok in judged) / len(judged), 3) if judged else None,
        "n": len(judged),
        "labels_no_longer_produced": len(labels) - len(judged),
        "per_rule": {
            rule: {"precision": round(sum(oks) / len(oks), 3), "n": len(oks)}
            for rule, oks in sorted(per_rule.items())
        },
    }


# -- the whole run --------------------------------------------------------------------


def run(
    path: str,
    *,
    embedder: Embedder,
    threshold: float = DEFAULT_THRESHOLD,
    labels: str | Path | None = None,
    conversations: int | None = None,
    samples: Collection[str] = (),
    examples: int = 0,
) -> dict[str, Any]:
    """Measure the offline extractor on a LoCoMo file; returns JSON-ready figures.

    ``examples`` adds that many (gold, best extracted, cosine) pairs around the
    threshold, to judge it by eye.
    """
    if not 0.0 < threshold <= 1.0:
        raise InvalidInputError(f"--threshold must be in (0, 1], got {threshold}")
    turns, gold = load(path, conversations=conversations, samples=samples)
    if samples and not turns:
        raise InvalidInputError(
            f"no conversation of {path} has the sample id(s) {', '.join(sorted(samples))}"
        )
    facts, turns_per_s = extract_turns(turns)
    extracted = best_matches(gold, [(f.conversation, f.dia_id, f.content) for f in facts], embedder)
    # What the pipeline writes: facts at or above seed 004's write gate.
    gate = PipelineConfig().min_fact_confidence
    kept = [f for f in facts if f.confidence >= gate]
    written = best_matches(gold, [(f.conversation, f.dia_id, f.content) for f in kept], embedder)
    echo = best_matches(gold, [(t.conversation, t.dia_id, t.text) for t in turns], embedder)
    result: dict[str, Any] = {
        "data": str(path),
        "conversations": len({t.conversation for t in turns}),
        "samples": sorted({t.conversation for t in turns}),
        "turns": len(turns),
        "gold_facts": len(gold),
        "embedder": getattr(embedder, "name", type(embedder).__name__),
        "threshold": threshold,
        "recall": round(recall_at(extracted, threshold), 3),
        "written": {
            "gate": gate,
            "facts": len(kept),
            "recall": round(recall_at(written, threshold), 3),
        },
        "echo_recall": round(recall_at(echo, threshold), 3),
        "recall_sweep": {
            f"{t:g}": {
                "offline": round(recall_at(extracted, t), 3),
                "echo": round(recall_at(echo, t), 3),
            }
            for t in SWEEP
        },
        "facts": len(facts),
        "facts_per_turn": round(len(facts) / len(turns), 3) if turns else 0.0,
        "facts_by_rule": dict(Counter(f.rule for f in facts).most_common()),
        "turns_per_second": round(turns_per_s),
    }
    judged = read_labels(labels) if labels is not None else None
    if judged is not None:
        result["precision"] = precision(facts, judged)
        result["written"]["precision"] = precision(kept, judged)
    result["by_confidence"] = by_confidence(gold, facts, embedder, judged, threshold)
    if examples:
        result["examples"] = _examples(gold, facts, extracted, threshold, examples)
    return result


def _examples(
    gold: Sequence[GoldFact],
    facts: Sequence[TurnFact],
    matches: Sequence[tuple[float, int | None]],
    threshold: float,
    count: int,
) -> list[dict[str, Any]]:
    scored = [(abs(s - threshold), s, g, i) for (s, i), g in zip(matches, gold, strict=True)]
    near = sorted((x for x in scored if x[3] is not None), key=lambda x: x[0])[:count]
    return [
        {"cosine": round(s, 3), "gold": g.text, "extracted": facts[i].content}
        for _, s, g, i in near
        if i is not None
    ]


def sample_sheet(
    path: str, *, conversations: int | None = None, samples: Collection[str] = ()
) -> list[dict[str, Any]]:
    """The sample to label, with each fact's turn: write it outside the repository
    (it holds benchmark text), label it, keep only keys and labels."""
    turns = load_turns(path, conversations=conversations, samples=samples)
    text_of = {(t.conversation, t.dia_id): t.text for t in turns}
    facts, _ = extract_turns(turns)
    return [
        {
            "key": f.key,
            "conversation": f.conversation,
            "dia_id": f.dia_id,
            "rule": f.rule,
            "turn": text_of[(f.conversation, f.dia_id)],
            "fact": f.content,
            "correct": None,
        }
        for f in draw_sample(facts)
    ]


def markdown(result: dict[str, Any]) -> str:
    """The figures as a short markdown report."""
    lines = [
        f"### extraction (offline) on {result['conversations']} conversations, "
        f"{result['turns']} turns, {result['gold_facts']} gold facts",
        "",
        f"- fact recall at cosine >= {result['threshold']:g}: **{result['recall']:.3f}** "
        f"(echo baseline, whole turns: {result['echo_recall']:.3f})",
        f"- facts per turn: {result['facts_per_turn']:.2f} ({result['facts']} facts)",
        f"- speed: {result['turns_per_second']} turns/s",
    ]
    if "precision" in result:
        p = result["precision"]
        shown = "-" if p["precision"] is None else f"{p['precision']:.3f}"
        lines.append(f"- precision (hand-labelled sample): {shown} (n = {p['n']})")
    if "written" in result:
        w = result["written"]
        line = (
            f"- written (confidence >= {w['gate']:g}, seed 004's gate): {w['facts']} facts, "
            f"recall {w['recall']:.3f}"
        )
        if "precision" in w and w["precision"]["precision"] is not None:
            line += f", precision {w['precision']['precision']:.3f} (n = {w['precision']['n']})"
        lines.append(line)
    lines += ["", "| confidence >= | facts | recall | precision (n) |", "|---|---|---|---|"]
    for gate, row in result.get("by_confidence", {}).items():
        shown = "-" if row.get("precision") is None else f"{row['precision']:.3f} ({row['n']})"
        lines.append(f"| {gate} | {row['facts']} | {row['recall']:.3f} | {shown} |")
    lines += ["", "| threshold | offline recall | echo recall |", "|---|---|---|"]
    lines += [
        f"| {t} | {row['offline']:.3f} | {row['echo']:.3f} |"
        for t, row in result["recall_sweep"].items()
    ]
    return "\n".join(lines) + "\n"


def write(result: dict[str, Any], out_dir: str | Path) -> Path:
    """Write ``extraction.json`` and ``extraction.md``; returns the JSON path."""
    return write_result(out_dir, "extraction", result, markdown(result))
