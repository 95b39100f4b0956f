"""``compress_and_store``'s steps (FEATURES H1): evaluator issues through the injection
scan into ``[wiggum]`` facts, the summary (model or offline), and the observation
written through the normal write path with its run's id."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from engram import write
from engram.core import Core, Scope
from engram.errors import InjectionBlocked, LlmError, shown
from engram.llm import LlmProvider
from engram.records import MemoryRecord, MemoryType, Outcome
from engram.runs import summarize
from engram.runs.views import BlockedIssue
from engram.safety import InjectionMode, scan

log = logging.getLogger("engram.runs")

#: seed 000: evaluator issues join the facts "with a [wiggum] prefix".
WIGGUM = "[wiggum]"


def wiggum_facts(core: Core, issues: Sequence[str]) -> tuple[list[str], list[BlockedIssue]]:
    """Each issue as a ``[wiggum] ...`` fact, unless the injection scan matches it (seed
    000: the scan runs before anything is written): those are dropped and returned, so
    one hostile issue costs only itself, not the observation."""
    facts: list[str] = []
    blocked: list[BlockedIssue] = []
    checking = InjectionMode(core.config.injection_mode) is not InjectionMode.OFF
    for issue in issues:
        reasons = scan(issue) if checking else ()
        if reasons:
            blocked.append(BlockedIssue(issue, tuple(reasons)))
        else:
            facts.append(issue if issue.startswith(WIGGUM) else f"{WIGGUM} {issue}")
    return facts, blocked


def model_of(core: Core) -> LlmProvider | None:
    """The model that compresses runs: the configured LLM, unless ``[pipeline]
    extractor = "offline"`` keeps every model call out."""
    return None if core.config.pipeline.extractor == "offline" else core.llm()


def summary_of(
    core: Core,
    task: str,
    output: str,
    *,
    task_type: str | None,
    queries: Sequence[str],
    score: float | None,
) -> tuple[summarize.Summary, list[str]]:
    """The run's summary and the warnings on the way: the model's when one is configured
    and answers (a field it left out comes from the offline summary), else offline."""
    offline = summarize.offline_summary(task, output)
    llm = model_of(core)
    if llm is None:
        return offline, []
    prompt = summarize.build_prompt(task, output, task_type=task_type, queries=queries, score=score)
    try:
        summary = summarize.ask_model(llm, prompt, offline)
    except LlmError as exc:
        log.warning("compressing the run with the model failed, summarised offline: %s", exc)
        return offline, [f"the model failed ({exc}); the offline summary was used"]
    if summary.refused is not None:
        # H1: a refusal never becomes an observation's title (or narrative).
        log.warning("the model refused to compress the run, summarised offline")
        return summary, [f"the model refused ({summary.refused!r}); the offline summary was used"]
    warnings = []
    if summary.problems:
        warnings.append(
            "the model's answer: "
            + "; ".join(summary.problems)
            + " (missing fields came from the offline summary)"
        )
    return summary, warnings


def store_observation(
    core: Core,
    scope: Scope,
    run_id: str,
    summary: summarize.Summary,
    facts: Sequence[str],
    *,
    task: str,
    task_type: str | None,
    score: float | None,
) -> tuple[MemoryRecord, bool]:
    """Write the observation through the normal write path (validation, the injection
    scan, embedding, the pipeline's jobs). ``InjectionBlocked`` if the scan refuses it."""
    metadata: dict[str, Any] = {"task": task, "summarizer": summary.summarizer}
    if task_type is not None:
        metadata["task_type"] = task_type
    item = {
        "content": summary.narrative,
        "type": MemoryType.OBSERVATION.value,
        "title": summary.title,
        "narrative": summary.narrative,
        "facts": list(facts),
        "score": score,
        "run_id": run_id,
        "user_id": scope.user_id,
        "agent_id": scope.agent_id,
        "metadata": metadata,
    }
    try:
        batch = write.add_batch(core, [item], namespace=scope.namespace, on_blocked="raise")
    except InjectionBlocked as exc:
        raise InjectionBlocked(
            f"{exc} The run {shown(run_id)} was recorded; its observation was not stored.",
            reasons=exc.reasons,
        ) from None
    outcome = batch.items[0]
    assert outcome.record is not None  # raise modes: a refused item raised above
    return outcome.record, outcome.outcome is Outcome.STORED
