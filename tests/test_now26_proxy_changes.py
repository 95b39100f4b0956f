"""now26: a changed fact through the chat proxy's path (docs/benchmarks.md, "2026-11-30,
the new value in a proxy's context (session twenty-three, now26)").

Round sixteen's proxy sent every turn as a new conversation (the system prompt and one
user message), its fake upstream answered "Understood. <the first sentence>", and the
server's worker mined each exchange. Asked about a changed fact, the block led with the
old value: the assistant's echo of the old statement ("Understood. I live in Bergen.")
was not demoted with the statement the graph had closed, and the user's own earlier
question ("What car do I drive?") and its echo took the first lines. Each test runs on
both backends (``mem``); the sentences are written for these tests.
"""

from __future__ import annotations

import pytest

from engram import Memory
from engram.recall import echoes, packing
from engram.records import MemoryRecord

SYSTEM = "You are a helpful assistant."


def _turn(mem: Memory, text: str, conversation: str) -> str:
    """One proxied turn: recall, the fake upstream's reply, mining, the worker's jobs;
    the ``<memory_context>`` block the upstream got."""
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": text}]
    turn = mem.chat.before(
        messages, user_id="ines", agent_id="assistant", conversation_id=conversation
    )
    reply = "Understood. " + text.split(". ")[0].rstrip(".") + "."
    mem.chat.after(
        messages, reply, user_id="ines", agent_id="assistant", conversation_id=conversation
    )
    mem.jobs.process_pending()
    return turn.context


def _told(mem: Memory, *texts: str) -> None:
    for n, text in enumerate(texts):
        _turn(mem, text, f"t{n}")


def _lines(context: str) -> list[str]:
    return [line for line in context.splitlines() if line.lstrip().startswith("- ")]


def _first(lines: list[str], *words: str) -> str:
    return next(line for line in lines if any(w in line for w in words))


def test_the_echo_of_a_closed_fact_ranks_below_the_new_statement(mem: Memory) -> None:
    _told(
        mem,
        "I live in Leiden.",
        "My sister is called Marit.",
        "I moved from Leiden to Groningen last month.",
    )
    lines = _lines(_turn(mem, "Which city do I live in now?", "q"))
    assert "Groningen" in _first(lines, "Leiden", "Groningen"), lines
    echo = next(i for i, line in enumerate(lines) if "Understood. I live in Leiden." in line)
    new = next(i for i, line in enumerate(lines) if "to Groningen" in line)
    assert new < echo, lines


def test_the_users_own_question_takes_no_line_ahead_of_a_statement(mem: Memory) -> None:
    _told(
        mem,
        "I drive a red Mazda 3.",
        "My son plays football on Saturdays.",
        "What car do I drive?",
        # no change here: a closed Mazda fact would be demoted on its own (the test
        # above), and the hash embedder does not bring a new car's statement near
        "The Mazda is due for a service in May.",
    )
    lines = _lines(_turn(mem, "What car do I drive?", "q"))
    statements = [i for i, line in enumerate(lines) if "Mazda 3." in line or "service" in line]
    asked = [i for i, line in enumerate(lines) if "What car do I drive?" in line]
    assert statements, lines
    assert not asked or min(asked) > max(statements), lines


def test_a_question_is_found_when_asked_about_not_when_asked_again(mem: Memory) -> None:
    # mend29: asked again, the earlier question is no evidence of an answer (it left
    # the block to its echo when nothing answered); asked about, it is the answer.
    _told(mem, "Which trains go to Zwolle on Sundays?", "My sister is called Marit.")
    again = mem.recall("Which trains go to Zwolle?", user_id="ines", limit=3).hits
    assert not any("Zwolle" in h.memory.content for h in again), again
    asked = mem.recall("What did I ask about trains to Zwolle?", user_id="ines", limit=3).hits
    assert asked and "Zwolle" in asked[0].memory.content


def test_speakers_by_name_are_left_alone(mem: Memory) -> None:
    # A transcript whose turns are named by their speakers (LoCoMo's shape) carries no
    # chat role: a question turn keeps its score.
    messages = [
        {"role": "Caroline", "content": "Which trails did you hike in the Dolomites?"},
        {"role": "Melanie", "content": "We baked bread all weekend."},
    ]
    mem.palace.mine_conversation(messages, wing="talk", session="s1", user_id="ines")
    mem.jobs.process_pending()
    hits = mem.recall("Which trails did you hike in the Dolomites?", user_id="ines", limit=2).hits
    assert hits[0].memory.content.startswith("Which trails")
    assert hits[0].breakdown.dampening == 1.0


def _plain(memory_id: str, content: str, role: str | None) -> MemoryRecord:
    metadata = {} if role is None else {"role": role}
    return MemoryRecord(memory_id, "ns", content, "hash", metadata=metadata)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What car do I drive?", True),
        ("Which one? The red one?", True),
        ("I drive a Mazda. Which one is faster?", False),
        ("I drive a Mazda.", False),
        ("", False),
    ],
)
def test_only_questions(text: str, expected: bool) -> None:
    assert echoes.only_questions(text) is expected


def test_factors_follow_the_turn_a_reply_answers() -> None:
    records = {
        "u1": _plain("u1", "I live in Leiden.", "user"),
        "a1": _plain("a1", "Understood. I live in Leiden.", "assistant"),
        "u2": _plain("u2", "Where do I live?", "user"),
        "a2": _plain("a2", "Understood. Where do I live?", "assistant"),
        "n": _plain("n", "Where do I live?", None),
    }
    before = {"a1": "u1", "a2": "u2"}
    got = echoes.factors(
        "Where do I live now?", list(records), records, before.get, lambda ids: {}, {"u1"}, 0.1
    )
    # the reply to the closed statement is as old as it; a question and its reply are
    # demoted; a memory without a chat role is left alone (u1's own demotion is
    # current.demoted's)
    assert got == {"a1": 0.1, "u2": echoes.QUESTION_FACTOR, "a2": echoes.QUESTION_FACTOR}
    # not a question, nothing closed: nothing changes
    assert (
        echoes.factors(
            "my home town", list(records), records, before.get, lambda ids: {}, set(), 0.1
        )
        == {}
    )


def test_a_demoted_hit_does_not_set_the_relative_floor() -> None:
    sims, fused = [0.95, 0.5, 0.2], [0.9, 0.4, 0.1]
    assert packing.floor_kept(sims, fused, 0.6) == [0]
    assert packing.floor_kept(sims, fused, 0.6, [False, True, True]) == [0, 1]
    assert packing.floor_kept(sims, fused, 0.6, [False, False, False]) == [0]
