"""Reading a compression model's answer as Title / Narrative / Facts (FEATURES H1).

seed 000 asks the model for three labelled lines::

    Title: <one-line summary, max 80 chars>
    Narrative: <2-3 sentences>
    Facts: <JSON array of 3-5 specific factual strings>

and seed 001's prompt asks for JSON (``{"title": ..., "narrative": ..., "facts": [...]}``).
Models answer either way, and also wrap the answer in a Markdown fence, put it after a
``<think>`` block or a sentence of chatter, bold the labels (``**Title:**``), list facts
as bullets instead of a JSON array, or leave a field out. :func:`parse_observation`
reads all of these and never raises: what it could not find is None (or no facts), and
``problems`` says what was missing or repaired, so the caller can fill the gaps.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from engram.errors import LlmError
from engram.llm import parse_json, strip_think

#: seed 000: the title is "max 80 chars".
MAX_TITLE_CHARS = 80
#: seed 001 asks for "5-10 key facts"; more than this is chatter.
MAX_FACTS = 10
#: A fact longer than this is a paragraph, cut here.
MAX_FACT_CHARS = 500
#: A narrative longer than this (seed: "2-3 sentences") is cut here.
MAX_NARRATIVE_CHARS = 2000

_LABEL = re.compile(
    r"""^\s*(?:[-*+>#]+\s*|\d+[.)]\s*)?      # a bullet, quote, heading or number
    (?:\*\*|__|\*|_)?\s*                      # bold or italic markup
    (title|narrative|summary|key\s+facts|facts)
    \s*(?:\*\*|__|\*|_)?\s*[:：]\s*(?:\*\*|__)?   # the colon, markup either side
    (.*)$""",
    re.IGNORECASE | re.VERBOSE,
)
_BULLET = re.compile(r"^\s*(?:[-*+•·▪‣◦]|\d+[.)]|\[\s*[x ]?\s*\])\s+(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_KEYS = {
    "title": ("title", "Title", "heading", "name"),
    "narrative": ("narrative", "Narrative", "summary", "Summary", "description"),
    "facts": ("facts", "Facts", "key_facts", "keyFacts", "key facts", "Key facts"),
}


@dataclass(frozen=True, slots=True)
class ParsedObservation:
    """What could be read from a model's answer; None where a field was missing."""

    title: str | None
    narrative: str | None
    facts: tuple[str, ...]
    problems: tuple[str, ...] = ()
    """What was missing, cut or repaired, in words."""

    @property
    def complete(self) -> bool:
        """True when the answer had a title, a narrative and at least one fact."""
        return bool(self.title and self.narrative and self.facts)


def _unquote(text: str) -> str:
    """``text`` without wrapping markup or quotes and with spaces collapsed."""
    out = " ".join(text.split())
    for _ in range(3):
        before = out
        for mark in ("**", "__", "`", '"', "'", "“", "”"):
            if len(out) > 2 * len(mark) and out.startswith(mark) and out.endswith(mark):
                out = out[len(mark) : -len(mark)].strip()
        out = out.strip("*_").strip()
        if out == before:
            break
    return out.rstrip(",").strip()


def _cut(text: str, limit: int, what: str, problems: list[str]) -> str:
    if len(text) <= limit:
        return text
    problems.append(f"{what} cut to {limit} characters")
    head = text[:limit].rsplit(" ", 1)[0] if " " in text[:limit] else text[:limit]
    return head.rstrip(" ,;:-")


def _fact_list(value: Any) -> list[str]:
    """Facts from a JSON value: a list (of strings, or of objects with a text field) or
    a string of lines/bullets."""
    if isinstance(value, str):
        return _facts_from_lines(value.splitlines()) or [value]
    if not isinstance(value, list):
        return []
    out: list[str] = []
    for item in value:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            text = next((item[k] for k in ("fact", "text", "content") if k in item), None)
            if isinstance(text, str):
                out.append(text)
        elif isinstance(item, int | float) and not isinstance(item, bool):
            out.append(str(item))
    return out


def _facts_from_lines(lines: list[str]) -> list[str]:
    """Facts from the lines of a Facts section: a JSON array (on one line or several),
    or bullets; the first line that is neither ends the section (trailing chatter)."""
    text = "\n".join(lines).strip()
    if text.startswith("["):
        try:
            value, _ = json.JSONDecoder().raw_decode(text)
            return _fact_list(value)
        except json.JSONDecodeError:
            # A truncated or single-quoted array: read its quoted items.
            quoted = re.findall(r'"((?:[^"\\]|\\.)*)"|\'([^\']*)\'', text)
            return [a or b for a, b in quoted if (a or b).strip()]
    facts: list[str] = []
    for line in lines:
        if not line.strip():
            continue
        bullet = _BULLET.match(line)
        if bullet:
            facts.append(bullet.group(1))
        elif not facts and ";" in line:
            facts.extend(part for part in line.split(";") if part.strip())
        elif not facts:
            facts.append(line)
        else:
            break
    return facts


def _sections(lines: list[str]) -> dict[str, list[str]]:
    """Labelled sections: each label's inline value, then its following lines."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lines:
        if _FENCE.match(line):
            continue
        match = _LABEL.match(line)
        if match:
            label = match.group(1).lower()
            key = "facts" if "fact" in label else "narrative" if label == "summary" else label
            if key in found:  # the first label wins; a repeat is part of the text
                if current is not None:
                    current.append(line)
                continue
            current = found[key] = [match.group(2)]
        elif current is not None:
            current.append(line)
    return found


def _narrative(lines: list[str]) -> str:
    """The narrative's text: its inline value and the lines up to the first blank line
    after some text (a blank line then prose is chatter)."""
    kept: list[str] = []
    for line in lines:
        if not line.strip():
            if kept:
                break
            continue
        kept.append(line.strip())
    return " ".join(kept)


def _title(lines: list[str]) -> str:
    return next((line for line in lines if line.strip()), "")


def _from_json(value: Any) -> dict[str, Any] | None:
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
        value = value[0]
    if not isinstance(value, dict):
        return None
    out: dict[str, Any] = {}
    for field, keys in _KEYS.items():
        for key in keys:
            if key in value:
                out[field] = value[key]
                break
    return out or None


def _finish(title: Any, narrative: Any, facts: list[str], problems: list[str]) -> ParsedObservation:
    title_text = _unquote(title) if isinstance(title, str) else ""
    narrative_text = _unquote(narrative) if isinstance(narrative, str) else ""
    if not title_text:
        problems.append("no title")
    if not narrative_text:
        problems.append("no narrative")
    title_text = _cut(title_text, MAX_TITLE_CHARS, "title", problems)
    narrative_text = _cut(narrative_text, MAX_NARRATIVE_CHARS, "narrative", problems)
    cleaned: list[str] = []
    for fact in facts:
        text = _cut(_unquote(fact), MAX_FACT_CHARS, "a fact", problems)
        if text and text.lower() not in {f.lower() for f in cleaned}:
            cleaned.append(text)
    if not cleaned:
        problems.append("no facts")
    if len(cleaned) > MAX_FACTS:
        problems.append(f"{len(cleaned)} facts, kept the first {MAX_FACTS}")
        cleaned = cleaned[:MAX_FACTS]
    return ParsedObservation(
        title_text or None, narrative_text or None, tuple(cleaned), tuple(problems)
    )


def parse_observation(text: str) -> ParsedObservation:
    """Title, narrative and facts from a model's answer, in the labelled format or as
    JSON, fenced or not; see the module docstring. Never raises."""
    problems: list[str] = []
    if not isinstance(text, str):
        return _finish(None, None, [], ["the answer is not text"])
    answer = strip_think(text)
    sections = _sections(answer.splitlines())
    if "title" in sections or "narrative" in sections:
        facts = _facts_from_lines(sections["facts"]) if "facts" in sections else []
        return _finish(
            _title(sections.get("title", [])),
            _narrative(sections.get("narrative", [])),
            facts,
            problems,
        )
    try:
        fields = _from_json(parse_json(answer))
    except LlmError:
        fields = None
    if fields is not None:
        problems.append("answered in JSON")
        return _finish(
            fields.get("title"), fields.get("narrative"), _fact_list(fields.get("facts")), problems
        )
    if "facts" in sections:
        return _finish(None, None, _facts_from_lines(sections["facts"]), problems)
    # No labels and no JSON: the first line is the title, the next paragraph the story.
    problems.append("no Title/Narrative/Facts labels")
    lines = [line for line in answer.splitlines() if not _FENCE.match(line)]
    body = [line for line in lines if line.strip()]
    if not body:
        return _finish(None, None, [], ["the answer is empty"])
    bullets = [m.group(1) for line in body[1:] if (m := _BULLET.match(line))]
    prose = [line for line in body[1:] if not _BULLET.match(line)]
    return _finish(body[0].lstrip("# "), " ".join(prose), bullets, problems)
