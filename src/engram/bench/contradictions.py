"""``engram bench contradictions``: is a flagged contradiction real? (issue 28)

Two measures:

- **the labelled set** (``engram/data/contradictions.json``): pairs ``{old, new, label,
  source, kind, fold}``; a side taken from the dev data is shipped as a reference into
  it (``contradiction_refs``), resolved against the data folder (``--data``). Real
  pairs from the dev data (LoCoMo turns and BEAM sentences
  that seed 004's lexical test flags, facts the b0232ed pipeline queued after mining
  LoCoMo dev, facts about the same person, and BEAM's own ``contradiction_resolution``
  pairs, which are labelled true) and hand-written ones (real contradictions of one
  entity's attribute, and hard negatives: additions, other attributes, other subjects,
  filler, plans, questions). Fold A was used to tune the claim reader, fold B only to
  check it. Precision and recall per fold, for the detector (``syntactic``) and for
  seed 004's literal test (``lexical``) as the baseline;
- **false proposals in mining**: LoCoMo dev mined offline into one namespace, as
  ``engram mine FILE`` does, the pipeline's jobs run, and the proposals the review
  queue then holds counted per 500 mined turns. LoCoMo dev states no fact that a later
  turn contradicts about the same attribute (checked by reading what was queued), so
  every queued proposal counts as false; each is listed to check that.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from engram.bench import contradiction_refs as refs
from engram.bench import locomo
from engram.bench.dataset import session_messages
from engram.config import Config
from engram.errors import InvalidInputError
from engram.memory import Memory
from engram.pipeline import contradiction

FOLDS = ("A", "B")
#: The mining measure's unit (issue 28: "at most 1 false proposal per 500 mined turns").
PER_TURNS = 500
Detector = Callable[[str, str], bool]
DETECTORS: dict[str, Detector] = {
    "syntactic": lambda new, old: contradiction.syntactic(new, old).contradicts,
    "lexical": lambda new, old: contradiction.lexical(new, old).contradicts,
}


def load_set(
    path: str | Path | None = None, data: str | Path | None = None
) -> tuple[list[dict[str, Any]], int]:
    """The labelled pairs (the shipped set unless ``path`` names another) whose texts are
    known, and how many rows were left out. A side taken from LoCoMo or BEAM is a
    reference (``contradiction_refs``) resolved against the data folder ``data``; without
    the data those rows are left out, and only the hand-written ones are scored."""
    try:
        if path is None:
            text = resources.files("engram.data").joinpath("contradictions.json").read_text("utf-8")
        else:
            text = Path(path).read_text(encoding="utf-8")
        pairs = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInputError(f"cannot read the contradiction set {path}: {exc}") from exc
    required = {"old", "new", "label", "source", "fold"}
    if not isinstance(pairs, list) or not all(
        isinstance(p, dict) and required <= p.keys() for p in pairs
    ):
        raise InvalidInputError(
            f"the contradiction set must be a JSON list of objects with {sorted(required)}"
        )
    turns = refs.load_turns(data) if data is not None else {}
    where = f"{data} (the set {path or 'engram ships'})"
    resolved: list[dict[str, Any]] = []
    for pair in pairs:
        sides = [pair["old"], pair["new"]]
        if any(refs.is_ref(s) and not refs.available(s, turns) for s in sides):
            continue
        old, new = (
            refs.resolve(s, turns, row=str(pair.get("id")), where=where) if refs.is_ref(s) else s
            for s in sides
        )
        resolved.append(pair | {"old": old, "new": new})
    return resolved, len(pairs) - len(resolved)


def score(pairs: Iterable[Mapping[str, Any]], detector: Detector) -> dict[str, Any]:
    """Precision, recall and the confusion counts of ``detector`` on ``pairs``."""
    tp = fp = fn = tn = 0
    for pair in pairs:
        said = detector(str(pair["new"]), str(pair["old"]))
        if pair["label"]:
            tp, fn = tp + said, fn + (not said)
        else:
            fp, tn = fp + said, tn + (not said)
    return {
        "pairs": tp + fp + fn + tn,
        "positives": tp + fn,
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
        "precision": round(tp / (tp + fp), 3) if tp + fp else None,
        "recall": round(tp / (tp + fn), 3) if tp + fn else None,
    }


def labelled(pairs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Each detector's scores per fold, and per source on both folds together."""
    out: dict[str, Any] = {}
    for name, detector in DETECTORS.items():
        folds = {f: score([p for p in pairs if p["fold"] == f], detector) for f in FOLDS}
        sources = sorted({_source(p) for p in pairs})
        by_source = {s: score([p for p in pairs if _source(p) == s], detector) for s in sources}
        out[name] = {"folds": folds, "sources": by_source}
    return out


def _source(pair: Mapping[str, Any]) -> str:
    """The source's family: ``hand``, ``locomo``, ``locomo-mined``, ``beam``."""
    return str(pair["source"]).split(":", 1)[0]


def mined(config: Config, data: str | Path, *, conversations: int | None) -> dict[str, Any]:
    """Mine LoCoMo ``data`` offline into one namespace, run the pipeline's jobs, and
    count the proposals the review queue holds (see the module docstring)."""
    cfg = replace(
        config,
        pipeline=replace(config.pipeline, enabled=True, extractor="offline", shadow_mode=False),
    )
    dataset = locomo.load(str(data))
    convs = dataset.conversations[:conversations] if conversations else dataset.conversations
    start = time.perf_counter()
    with (
        tempfile.TemporaryDirectory(prefix="engram-bench-contra-") as tmp,
        Memory(Path(tmp) / "contra.db", config=cfg) as mem,  # the configured embedder
    ):
        turns = 0
        for conv in convs:
            for session, messages in session_messages(conv).items():
                mem.palace.mine_conversation(messages, wing=conv.id, session=f"session {session}")
                turns += len(messages)
        jobs = mem.jobs.process_pending()
        items = mem.review.list(status=None, limit=10_000)
        queued = [
            {
                "action": i.action,
                "old": i.sides["old"].get("text"),
                "new": i.sides["new"].get("text"),
                "reason": i.reason,
            }
            for i in items
        ]
    updates = sum(1 for q in queued if q["action"] == "UPDATE")
    return {
        "conversations": len(convs),
        "turns": turns,
        "jobs": jobs,
        "seconds": round(time.perf_counter() - start, 1),
        "queued": len(queued),
        "queued_updates": updates,
        "false_per_500_turns": round(len(queued) * PER_TURNS / turns, 2) if turns else None,
        "proposals": queued,
    }


def run(
    config: Config,
    data: str | Path | None,
    *,
    set_path: str | Path | None = None,
    conversations: int | None = None,
    mine: bool = True,
) -> dict[str, Any]:
    """The labelled-set scores, and (``mine``) the mining measure, on the dev data folder
    ``data`` (``shared/bench``; ``None``: the hand-written pairs only, and no mining)."""
    pairs, left_out = load_set(set_path, data)
    result: dict[str, Any] = {
        "set": {
            "pairs": len(pairs),
            "positives": sum(1 for p in pairs if p["label"]),
            "per_fold": {f: sum(1 for p in pairs if p["fold"] == f) for f in FOLDS},
            "left_out": left_out,
            "data": None if data is None else str(data),
        },
        "labelled": labelled(pairs),
    }
    dev = None if data is None else Path(data).expanduser() / refs.LOCOMO_FILE
    if mine and dev is not None and dev.is_file():
        result["mining"] = mined(config, dev, conversations=conversations)
    elif mine:
        result["set"]["mining_skipped"] = f"no LoCoMo dev file at {dev}"
    return result


def markdown(result: Mapping[str, Any]) -> str:
    """The results as markdown tables."""
    lines = [
        f"Labelled set: {result['set']['pairs']} pairs, {result['set']['positives']} "
        "contradictions.",
    ]
    if result["set"]["left_out"]:
        lines[0] += (
            f" {result['set']['left_out']} pairs taken from LoCoMo / BEAM dev left out: their "
            f"data is not under {result['set']['data']} (pass the folder with --data)."
        )
    for group, first, keys in (
        ("folds", "fold", ("pairs", "tp", "fp", "fn", "precision", "recall")),
        ("sources", "source", ("pairs", "positives", "tp", "fp")),
    ):
        lines += ["", "| " + " | ".join(("detector", first, *keys)) + " |"]
        lines.append("|---" * (len(keys) + 2) + "|")
        for name, scores in result["labelled"].items():
            for key, s in scores[group].items():
                lines.append(
                    "| " + " | ".join(str(v) for v in (name, key, *map(s.get, keys))) + " |"
                )
    if result["set"].get("mining_skipped"):
        lines += ["", f"Mining not run: {result['set']['mining_skipped']}."]
    mining = result.get("mining")
    if mining:
        lines += [
            "",
            f"Mining {mining['conversations']} LoCoMo conversations offline "
            f"({mining['turns']} turns, {mining['jobs']} jobs, {mining['seconds']} s): "
            f"{mining['queued']} proposals queued ({mining['queued_updates']} UPDATE), "
            f"{mining['false_per_500_turns']} per {PER_TURNS} turns.",
        ]
        for q in mining["proposals"]:
            lines.append(f"- {q['action']}: {q['old']!r} -> {q['new']!r} ({q['reason']})")
    return "\n".join(lines)
