"""Compressing a completed run into Title / Narrative / Facts (FEATURES H1).

Two summarizers give the same three fields:

- :func:`ask_model` sends the compression prompt (seed 001's ``COMPRESS_PROMPT`` with
  seed 000's inputs: task, up to 4 search queries, the final score and an output
  excerpt; seed 000's three-line answer format) to the configured LLM and reads the
  answer with :func:`engram.runs.parse.parse_observation`;
- :func:`offline_summary` needs no model and is deterministic: the title is the task,
  the narrative 2-3 sentences picked from the output, the facts the output's sentences
  that carry numbers or names.

Evaluator issues are not the summarizer's business: ``Runs.compress_and_store`` adds
them as ``[wiggum]`` facts after the injection scan.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from engram.llm import LlmProvider, strip_think
from engram.pipeline.offline import split_sentences
from engram.runs.parse import MAX_TITLE_CHARS, ParsedObservation, parse_observation
from engram.runs.refusal import is_refusal

#: seed 001: the prompt carries ``output[:2000]``.
EXCERPT_CHARS = 2000
#: seed 000: "Search queries (up to 4)".
MAX_QUERIES = 4
#: seed 000's Narrative: "2-3 sentences".
NARRATIVE_SENTENCES = 3
#: seed 000's Facts: "3-5 specific factual strings".
OFFLINE_FACTS = 5
#: A sentence shorter than this many words is a heading or a fragment, not a finding.
MIN_WORDS = 4
#: A sentence longer than this is cut when it becomes a fact or part of the narrative.
MAX_SENTENCE_CHARS = 300

PROMPT = """\
You have just completed the following task:
Task: {task}
Task type: {task_type}
Search queries: {queries}
Final score: {score}
Output:
{excerpt}

Produce a structured observation for storage in memory:
1. A one-line title describing the topic (at most 80 characters)
2. A 2-3 sentence narrative of what was covered and what was concluded
3. 5-10 key facts: specific, self-contained findings worth remembering

Answer in exactly this format, with nothing before or after:
Title: <one-line summary of what was researched and produced>
Narrative: <2-3 sentences>
Facts: <JSON array of specific factual strings>
"""


@dataclass(frozen=True, slots=True)
class Summary:
    """Title, narrative and facts of a run, and how they were made."""

    title: str
    narrative: str
    facts: tuple[str, ...]
    summarizer: str
    """``"llm:<provider>:<model>"`` or ``"offline"``."""
    problems: tuple[str, ...] = ()
    """What the model's answer lacked (filled from the offline summary)."""
    refused: str | None = None
    """The opening of the model's refusal, when it declined and the offline summary
    was used instead (:mod:`engram.runs.refusal`)."""


def build_prompt(
    task: str,
    output: str,
    *,
    task_type: str | None,
    queries: Sequence[str] | None,
    score: float | None,
) -> str:
    """The compression prompt for one run."""
    shown = [q for q in (queries or ()) if q.strip()][:MAX_QUERIES]
    return PROMPT.format(
        task=task,
        task_type=task_type or "unspecified",
        queries="; ".join(shown) if shown else "none",
        score="not scored" if score is None else f"{score:g}",
        excerpt=output[:EXCERPT_CHARS] if output.strip() else "(no output)",
    )


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    head = text[:limit].rsplit(" ", 1)[0] if " " in text[:limit] else text[:limit]
    return head.rstrip(" ,;:-") + "…"


_MARKUP = re.compile(r"^\s*(?:#{1,6}\s+|[-*+•]\s+|\d+[.)]\s+|>\s*)")
_NUMBER = re.compile(r"\d")
#: A capitalised word that does not start its sentence: a name, a product, a place.
_NAME = re.compile(r"(?<=[\w,;:)] )[A-Z][\w-]*[A-Za-z0-9]")


def _blocks(output: str) -> list[str]:
    """The output's prose as blocks: paragraphs (wrapped lines joined) and list items,
    without Markdown markup; headings, tables and code fences are left out."""
    blocks: list[list[str]] = []
    current: list[str] | None = None
    fenced = False
    for line in output.splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced, current = not fenced, None
            continue
        if fenced or not stripped or stripped.startswith(("#", "|")):
            current = None  # a blank line, a heading or a table ends a paragraph
            continue
        text = stripped.replace("**", "").replace("__", "").replace("`", "")
        if _MARKUP.match(text) or current is None:
            current = [_MARKUP.sub("", text)]
            blocks.append(current)
        else:
            current.append(text)
    return [" ".join(block) for block in blocks]


def _sentences(output: str) -> list[str]:
    """The output's sentences of at least ``MIN_WORDS`` words, in order."""
    kept: list[str] = []
    for block in _blocks(output):
        for sentence in split_sentences(block):
            if len(sentence.split()) >= MIN_WORDS:
                kept.append(_short(sentence, MAX_SENTENCE_CHARS))
    return kept


def offline_title(task: str) -> str:
    """The title the offline summarizer gives a run: its task, first line, 80 chars."""
    first = next((line for line in task.splitlines() if line.strip()), task)
    return _short(first, MAX_TITLE_CHARS - 1)


def offline_summary(task: str, output: str) -> Summary:
    """Title from the task, the first 2-3 prose sentences of the output as narrative,
    and up to 5 later sentences that carry a number or a name as facts. Deterministic."""
    sentences = _sentences(output)
    narrative = " ".join(sentences[:NARRATIVE_SENTENCES])
    if not narrative:
        narrative = (
            f"The run produced no output for: {offline_title(task)}"
            if not output.strip()
            else _short(output, MAX_SENTENCE_CHARS)
        )
    rest = sentences[NARRATIVE_SENTENCES:]
    specific = [s for s in rest if _NUMBER.search(s) or _NAME.search(s)]
    facts = specific[:OFFLINE_FACTS] or rest[:OFFLINE_FACTS]
    if not facts:  # a short output: its specific sentences are in the narrative
        facts = [s for s in sentences if _NUMBER.search(s) or _NAME.search(s)][:OFFLINE_FACTS]
    return Summary(offline_title(task), narrative, tuple(facts), "offline")


def from_answer(answer: str, fallback: Summary, summarizer: str) -> Summary:
    """The model's answer as a summary; a field it lacks comes from ``fallback``. A
    refusal ("I cannot help with that request.") is not a summary: ``fallback`` is
    returned whole, with the refusal in ``refused``."""
    parsed: ParsedObservation = parse_observation(answer)
    opening = next((line for line in strip_think(answer).splitlines() if line.strip()), "")
    said = next((t for t in (opening, parsed.title, parsed.narrative) if t and is_refusal(t)), None)
    if said is not None:
        return replace(fallback, refused=_short(said, MAX_TITLE_CHARS))
    return Summary(
        title=parsed.title or fallback.title,
        narrative=parsed.narrative or fallback.narrative,
        facts=parsed.facts or fallback.facts,
        summarizer=summarizer,
        problems=parsed.problems,
    )


def ask_model(llm: LlmProvider, prompt: str, fallback: Summary) -> Summary:
    """Ask ``llm`` to compress a run (raises ``LlmError`` when the call fails)."""
    answer = llm.generate(prompt)
    return from_answer(answer, fallback, f"llm:{llm.name}:{llm.model}")
