"""Checkpoint digests and the recovery digest (seed 004).

seed 004: "Digest formatters produce structured markdown for each trigger type:
formatPeriodicDigest — project, prompt count, duration, recent prompts, memory activity;
formatPreCompactionDigest — same plus optional session context; formatSessionEndDigest —
same with total prompt count." The recovery digest gives an agent that lost its context
the newest state first, within ``recoveryBudgetChars``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from engram.store.protocols.sessions import Checkpoint

#: Characters of one prompt, query or remember a digest shows.
ITEM_CHARS = 200
_TITLES = {
    "periodic": "Periodic checkpoint",
    "pre_compaction": "Before context compaction",
    "session_end": "Session end",
    "agent": "Agent checkpoint",
    "explicit": "Checkpoint",
}


def _short(text: str, limit: int = ITEM_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _duration(delta: timedelta) -> str:
    minutes = max(0, int(delta.total_seconds() // 60))
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"


def format_digest(
    trigger: str,
    *,
    session_key: str,
    project: str | None,
    prompt_count: int,
    total_prompts: int,
    started_at: datetime,
    now: datetime,
    recent_prompts: Sequence[str],
    queries: Sequence[str],
    remembers: Sequence[str],
    context: str | None = None,
) -> str:
    """The markdown digest of one checkpoint, by trigger."""
    lines = [f"## {_TITLES.get(trigger, 'Checkpoint')}: {session_key}"]
    if project:
        lines.append(f"- project: {project}")
    if trigger == "session_end":
        lines.append(f"- total prompts: {total_prompts}")
    else:
        lines.append(f"- prompts: {prompt_count} since the last checkpoint, {total_prompts} in all")
    lines.append(f"- duration: {_duration(now - started_at)}")
    if recent_prompts:
        lines.append("### Recent prompts")
        lines += [f"- {_short(p)}" for p in recent_prompts]
    if queries or remembers:
        lines.append("### Memory activity")
        lines += [f"- searched: {_short(q)}" for q in queries]
        lines += [f"- remembered: {_short(r)}" for r in remembers]
    if trigger == "pre_compaction" and context:
        lines.append("### Session context")
        lines.append(_short(context, 4 * ITEM_CHARS))
    return "\n".join(lines)


def recovery_digest(session_key: str, checkpoints: Sequence[Checkpoint], budget: int) -> str:
    """What to hand an agent resuming ``session_key``: the newest checkpoint's digest,
    then what older checkpoints add (their searches and remembers not yet shown),
    never longer than ``budget`` characters. Empty when there is no checkpoint."""
    if not checkpoints:
        return ""
    newest = checkpoints[0]
    head = (
        f"# Resuming session {session_key} (checkpoint of {newest.created_at:%Y-%m-%d %H:%M} UTC)"
    )
    parts = [head, newest.digest]
    shown = set(newest.memory_queries) | set(newest.recent_remembers)
    earlier: list[str] = []
    for older in checkpoints[1:]:
        for query in older.memory_queries:
            if query not in shown:
                shown.add(query)
                earlier.append(f"- searched: {_short(query)}")
        for item in older.recent_remembers:
            if item not in shown:
                shown.add(item)
                earlier.append(f"- remembered: {_short(item)}")
    if earlier:
        parts.append("### Earlier in the session")
        parts += earlier
    return _fit("\n".join(parts), budget)


def _fit(text: str, budget: int) -> str:
    """``text`` cut at a line boundary to fit ``budget`` characters, marked if cut."""
    if len(text) <= budget:
        return text
    marker = "\n…"
    cut = text[: max(0, budget - len(marker))]
    if "\n" in cut:
        cut = cut[: cut.rindex("\n")]
    return (cut + marker)[:budget]
