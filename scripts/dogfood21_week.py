"""Round twenty-one of the new-user pass: a week with a personal assistant through the
chat proxy (docs/chat.md), run as an app would run it.

``engram serve``'s app (in this process, so one fake clock moves both) with a user key;
the official ``openai`` client pointed at ``/v1/proxy``; a scripted OpenAI-protocol
upstream on 127.0.0.1 (tests/llmserver.py) that answers each told turn with the
scripted reply and each question with the first memory of the ``<memory_context>``
block it received ("From my notes: ...", as a model answering from its block would).
One conversation a day, the whole day's messages sent each turn; the queued
``chat_mine`` jobs run after each turn (the server's worker between two turns).
SQLite, MiniLM (the default embedder), the defaults.

    PYTHONPATH=src .venv/bin/python scripts/dogfood21_week.py /tmp/dogfood21 [a|b|c|d|e|f]

Fold C (round twenty-two, scripts/week22_cases.py) is another week: other people, facts,
changes and questions. Fold D (round twenty-three, scripts/week23_cases.py) is a fourth, fold E
(round twenty-four, scripts/week24_cases.py) a fifth, fold F (round twenty-five,
scripts/week25_cases.py) a sixth.

Prints one JSON object: what the blocks held (small-talk lines, per kind of turn),
gold in the block / first, the old value of a change in the block and above the new,
the graph relations still current that a change should have closed. The store is
written under the directory given (deleted first).
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import openai

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "scripts")]

from dogfood21_cases import QUESTION_DAYS, QUESTIONS, SMALL_EVERY, week  # noqa: E402
from week22_cases import BETWEEN_C, DAYS_C, QUESTIONS_C  # noqa: E402
from week23_cases import BETWEEN_D, DAYS_D, QUESTIONS_D  # noqa: E402
from week24_cases import BETWEEN_E, DAYS_E, QUESTIONS_E  # noqa: E402
from week25_cases import BETWEEN_F, DAYS_F, QUESTIONS_F  # noqa: E402

import engram.recall.temporal  # noqa: E402
import engram.records  # noqa: E402
from engram import Memory  # noqa: E402
from engram.api.app import create_app  # noqa: E402
from engram.api.server import serve_in_thread  # noqa: E402
from engram.config import Config  # noqa: E402
from llmserver import Request, ScriptedLlm  # noqa: E402

USER = "sam"
SYSTEM = {"role": "system", "content": "You are Sam's personal assistant. Be brief."}
KEY_ENV = "DOGFOOD21_UPSTREAM_KEY"


class _Clock:
    """The week's time: ``datetime.now`` for engram's ``utcnow`` and recall's relative
    dates, moved a day (and a minute a turn) by the script."""

    now = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)


class _WeekDatetime(datetime):
    @classmethod
    def now(cls, tz: Any = None) -> datetime:  # type: ignore[override]
        # A plain datetime: the stores adapt that type, not a subclass.
        return datetime.fromtimestamp(_Clock.now.timestamp(), tz or UTC)


def _week_now() -> datetime:
    return _Clock.now


@contextmanager
def week_clock() -> Iterator[None]:
    """engram's clock on the week's time: every module's ``utcnow`` (imported by name
    from ``engram.records``) and recall's relative dates (``temporal``'s now)."""
    real = engram.records.utcnow
    users = [m for n, m in list(sys.modules.items()) if n.startswith("engram") and m is not None]
    patched = [m for m in users if getattr(m, "utcnow", None) is real]
    for m in patched:
        m.utcnow = _week_now  # type: ignore[attr-defined]
    engram.recall.temporal.datetime = _WeekDatetime  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for m in patched:
            m.utcnow = real  # type: ignore[attr-defined]
        engram.recall.temporal.datetime = datetime  # type: ignore[attr-defined]


def block_lines(prompt: str) -> list[str]:
    """The memory lines of a ``<memory_context>`` block, in rank order."""
    return [line for line in prompt.splitlines() if line.startswith("- [")]


def answer_from_block(request: Request) -> str:
    """What a model answering from its block says: the first memory, or that it has none."""
    first = request.body["messages"][0]
    prompt = str(first["content"]) if first["role"] == "system" else ""
    lines = block_lines(prompt)
    if not lines:
        return "I don't have that noted."
    text = lines[0].split("] ", 1)[1].rsplit(" (id: ", 1)[0]
    return f"From my notes: {text}"


class Week:
    """The proxy, its store and the upstream, and what each turn's block held."""

    def __init__(self, url: str, key: str, memory: Memory, upstream: ScriptedLlm) -> None:
        self.client = openai.OpenAI(base_url=f"{url}/v1/proxy", api_key=key, max_retries=0)
        self.memory = memory
        self.upstream = upstream
        self.reply: str | None = None
        self.turns: list[dict[str, Any]] = []

    def turn(self, conversation: list[dict[str, str]], text: str, reply: str | None) -> list[str]:
        """Send ``text`` as the day's next message; the ids injected, in rank order."""
        conversation.append({"role": "user", "content": text})
        self.reply = reply
        raw = self.client.chat.completions.with_raw_response.create(
            model="assistant", messages=[SYSTEM, *conversation]
        )
        said = raw.parse().choices[0].message.content or ""
        conversation.append({"role": "assistant", "content": said})
        ids = [i for i in raw.headers["x-engram-memories"].split(",") if i]
        self._mine()
        _Clock.now += timedelta(minutes=2)
        return ids

    def _mine(self) -> None:
        """Wait for the exchange's ``chat_mine`` job (queued after the reply), run the queue."""
        before = self.memory.jobs.counts(kind="chat_mine")["completed"]
        deadline = time.monotonic() + 30
        while self.memory.jobs.counts(kind="chat_mine")["pending"] == 0:
            if time.monotonic() > deadline:
                raise RuntimeError("no chat_mine job was queued")
            time.sleep(0.02)
        self.memory.jobs.process_pending()
        assert self.memory.jobs.counts(kind="chat_mine")["completed"] > before

    def answer(self, request: Request) -> str:
        return self.reply if self.reply is not None else answer_from_block(request)


Days = list[tuple[str, list[tuple[str, str, str]]]]


def cases(fold: str) -> tuple[Days, list[tuple[str, str]], list[tuple[str, str, str | None]]]:
    """The days, the small talk between questions and the questions of ``fold``."""
    if fold == "c":
        return DAYS_C, BETWEEN_C, QUESTIONS_C
    if fold == "d":
        return DAYS_D, BETWEEN_D, QUESTIONS_D
    if fold == "e":
        return DAYS_E, BETWEEN_E, QUESTIONS_E
    if fold == "f":
        return DAYS_F, BETWEEN_F, QUESTIONS_F
    return (*week(fold), QUESTIONS)


def small_talk_texts(fold: str) -> set[str]:
    """Every small-talk line the week says, user's and assistant's (the labels)."""
    days, between, _ = cases(fold)
    texts = {t for _, turns in days for kind, u, r in turns if kind == "small" for t in (u, r)}
    return texts | {t for pair in between for t in pair}


def run(proxy: Week, fold: str) -> dict[str, Any]:
    days, between, questions = cases(fold)
    small = small_talk_texts(fold)
    contents: dict[str, str] = {}

    def content(memory_id: str) -> str:
        if memory_id not in contents:
            found = proxy.memory.get(memory_id, user_id=USER)
            contents[memory_id] = found.content if found is not None else ""
        return contents[memory_id]

    def record(kind: str, text: str, ids: list[str], **extra: Any) -> dict[str, Any]:
        lines = [content(i) for i in ids]
        row = {"kind": kind, "text": text, "block": lines, **extra}
        row["small_talk_lines"] = sum(line in small for line in lines)
        proxy.turns.append(row)
        return row

    for day, turns in days:
        _Clock.now = datetime.fromisoformat(day).replace(hour=9, tzinfo=UTC)
        conversation: list[dict[str, str]] = []
        for kind, text, reply in turns:
            record(kind, text, proxy.turn(conversation, text, reply), day=day)
    half = (len(questions) + 1) // 2
    n_small = 0
    for d, day in enumerate(QUESTION_DAYS):
        _Clock.now = datetime.fromisoformat(day).replace(hour=9, tzinfo=UTC)
        conversation = []
        for n, (question, gold, old) in enumerate(questions[d * half : (d + 1) * half]):
            ids = proxy.turn(conversation, question, None)
            lines = [content(i) for i in ids]
            gold_at = next((k for k, line in enumerate(lines) if gold in line), None)
            old_at = (
                next((k for k, line in enumerate(lines) if old in line and gold not in line), None)
                if old
                else None
            )
            said = conversation[-1]["content"]
            record(
                "question",
                question,
                ids,
                day=day,
                gold=gold,
                gold_at=gold_at,
                old_at=old_at,
                answered=gold in said,
                old_answered=bool(old) and old in said and gold not in said,
                reply=said,
            )
            if (n + 1) % SMALL_EVERY == 0:
                text, reply = between[n_small % len(between)]
                n_small += 1
                record("small", text, proxy.turn(conversation, text, reply), day=day)
    return summary(proxy, questions)


def summary(proxy: Week, asked: list[tuple[str, str, str | None]]) -> dict[str, Any]:
    rows = proxy.turns
    questions = [r for r in rows if r["kind"] == "question"]
    changed = [r for r in questions if any(q == r["text"] and o for q, _, o in asked)]
    per_kind: dict[str, dict[str, int]] = {}
    for r in rows:
        k = per_kind.setdefault(r["kind"], {"turns": 0, "block_lines": 0, "small_talk_lines": 0})
        k["turns"] += 1
        k["block_lines"] += len(r["block"])
        k["small_talk_lines"] += r["small_talk_lines"]
    relations = proxy.memory.graph.relations(user_id=USER, current_only=False, limit=1000)
    return {
        "turns": len(rows),
        "memories": len(proxy.memory.get_all(user_id=USER, limit=1000)),
        "small_talk_lines_in_blocks": sum(r["small_talk_lines"] for r in rows),
        "blocks_with_small_talk": sum(1 for r in rows if r["small_talk_lines"]),
        "per_kind": per_kind,
        "questions": len(questions),
        "gold_in_block": sum(r["gold_at"] is not None for r in questions),
        "gold_first": sum(r["gold_at"] == 0 for r in questions),
        "answered_right": sum(r["answered"] for r in questions),
        "changes_asked": len(changed),
        "changes_new_in_block": sum(r["gold_at"] is not None for r in changed),
        "changes_old_in_block": sum(r["old_at"] is not None for r in changed),
        "changes_old_above_new": sum(
            r["old_at"] is not None and (r["gold_at"] is None or r["old_at"] < r["gold_at"])
            for r in changed
        ),
        "changes_answered_old": sum(r["old_answered"] for r in changed),
        "relations_closed": sum(not r.current for r in relations),
        "misses": [(r["text"], r["block"][:3]) for r in questions if r["gold_at"] is None],
        "not_first": [(r["text"], r["block"][:2]) for r in questions if r["gold_at"]],
        "relations": [
            (r.source, r.relation_type, r.target, "current" if r.current else "closed")
            for r in relations
        ],
    }


def main(out: Path, fold: str) -> dict[str, Any]:
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    import os

    os.environ[KEY_ENV] = "sk-dogfood21-upstream"
    with ScriptedLlm() as upstream:
        config = Config.load(env={}, home=str(out / "home")).with_overrides(
            chat={"upstream_url": upstream.openai_url}, llm={"api_key_env": KEY_ENV}
        )
        with Memory(out / "week.db", config=config) as memory:
            key = memory.keys.create(USER)[1]
            with serve_in_thread(create_app(memory, worker=False, mcp=False)) as url:
                proxy = Week(url, key, memory, upstream)
                upstream.fallback = proxy.answer
                with week_clock():  # entered last: the modules that use utcnow are loaded
                    result = run(proxy, fold)
                (out / "turns.json").write_text(json.dumps(proxy.turns, indent=1))
                proxy.client.close()
    return result


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "a"), indent=1))
