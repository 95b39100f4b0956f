"""seed 002's two archival modes: what text the summary memory of a consolidated group
holds.

- ``extractive`` (dense content): verbatim key facts plus start / mid / end anchors
  (seed 002's ExtractivePreserver), so identifiers and code survive word for word.
- ``abstractive`` (sparse content): an LLM-written summary (seed 002's
  AbstractiveSummarizer); offline, or when the model fails, the extractive text stands
  in (the issue's "extractive fallback offline").
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass

from engram.errors import LlmError
from engram.lifecycle.density import density_score
from engram.llm import LlmProvider, parse_json

log = logging.getLogger("engram.lifecycle")

ABSTRACTIVE = "abstractive"
EXTRACTIVE = "extractive"
MODES = (ABSTRACTIVE, EXTRACTIVE)

SCHEMA = {
    "type": "object",
    "properties": {"summary": {"type": "string"}},
    "required": ["summary"],
}
PROMPT = """Summarise these {n} memories of one agent into one short paragraph that keeps
every name, date, number, decision and preference they mention. Answer as JSON:
{{"summary": "..."}}

Memories:
{items}
"""
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


@dataclass(frozen=True, slots=True)
class Summary:
    """The summary text and how it was made (``llm`` or ``extractive``)."""

    text: str
    method: str


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: max(limit - 1, 0)].rstrip() + "…"


def extractive(texts: Sequence[str], *, max_facts: int, max_chars: int) -> str:
    """Start / mid / end anchors verbatim, then the ``max_facts`` densest sentences of
    the rest, in their original order, within ``max_chars``."""
    if not texts:
        return ""
    anchor_at = sorted({0, len(texts) // 2, len(texts) - 1})
    per = max(max_chars // (len(anchor_at) + max_facts), 40)
    anchors = [_clip(texts[i], per * 2) for i in anchor_at]
    candidates: list[tuple[float, int, str]] = []
    for i, text in enumerate(texts):
        if i in anchor_at:
            continue
        for sentence in _SENTENCE.split(text):
            if len(sentence.split()) >= 3:
                candidates.append((density_score(sentence), i, sentence.strip()))
    best = sorted(candidates, key=lambda c: (-c[0], c[1]))[:max_facts]
    facts = [_clip(s, per) for _, _, s in sorted(best, key=lambda c: c[1])]
    lines = [f"[{len(texts)} memories archived]", *anchors, *(f"- {f}" for f in facts)]
    out = "\n".join(lines)
    return out if len(out) <= max_chars else out[: max_chars - 1] + "…"


def abstractive(
    llm: LlmProvider | None, texts: Sequence[str], *, max_facts: int, max_chars: int
) -> Summary:
    """An LLM summary of ``texts``; the extractive text when there is no model or it
    fails (logged, never raised: consolidation must not stop on a model outage)."""
    if llm is not None and texts:
        items = "\n".join(f"{i + 1}. {_clip(t, 600)}" for i, t in enumerate(texts))
        try:
            answer = parse_json(
                llm.generate(PROMPT.format(n=len(texts), items=items), schema=SCHEMA)
            )
            summary = answer.get("summary") if isinstance(answer, dict) else None
            if isinstance(summary, str) and summary.strip():
                return Summary(_clip(summary, max_chars), "llm")
            log.warning("the summariser answered without a summary; using extractive text")
        except LlmError as exc:
            log.warning("abstractive summary failed, using extractive text: %s", exc)
    return Summary(extractive(texts, max_facts=max_facts, max_chars=max_chars), EXTRACTIVE)
