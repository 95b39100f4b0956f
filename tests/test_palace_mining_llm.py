"""Mining with an LLM (seed 003: one small call per window of 8-10 turns for its topic
and entities; FEATURES G8): good, fenced and ``<think>`` answers are used; garbage, bad
entities and a failing server fall back to the rules with warnings. On both backends,
against the scripted model server (tests/llmserver.py), never the network."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.palace import mining
from engram.palace.mining_llm import MAX_ENTITIES, SCHEMA
from llmserver import Reply, Request, ScriptedLlm, fenced, thinking

EFOIL = [
    "I bought a 12V20Ah battery for the efoil last week.",
    "How is the efoil battery wiring going?",
    "I tried a 12-AWG silicone wire and it overheated.",
    "Thicker wire then: the efoil battery pulls a lot of current.",
    "Marta from the Lisbon surf club lent me her crimping tool.",
    "Crimp the battery lugs before the ride.",
]
GARDEN = [
    "The tomato beds in the garden need water every morning.",
    "Mulch keeps the garden beds from drying out.",
    "I planted basil next to the tomato beds.",
    "Basil and tomato grow well together in the garden.",
    "The garden shed holds the watering cans.",
    "Water the tomato beds before the heat.",
]
CONVERSATION = [
    {"role": "Derek" if i % 2 == 0 else "assistant", "content": text}
    for i, text in enumerate(EFOIL + GARDEN)
]
WING, ROOM = "Derek", "evening"
EFOIL_ANSWER = {
    "topic": "Efoil battery wiring",
    "entities": [
        {"name": "Marta", "type": "person"},
        {"name": "Lisbon", "type": "location"},
        {"name": "crimping tool", "type": "item"},
    ],
}
GARDEN_ANSWER = {"topic": "tomato garden", "entities": [{"name": "basil", "type": "item"}]}


@pytest.fixture
def llm() -> Iterator[ScriptedLlm]:
    with ScriptedLlm() as server:
        yield server


def _config(tmp_path: Path, llm: ScriptedLlm, **pipeline: Any) -> Config:
    return Config.load(
        env={},
        home=str(tmp_path / "home"),
        llm={"provider": "ollama", "base_url": llm.url, "timeout_s": 5},
        pipeline=pipeline,
    )


@pytest.fixture
def mem(tmp_path: Path, store_location: str, llm: ScriptedLlm) -> Iterator[Memory]:
    with Memory(store_location, config=_config(tmp_path, llm), embedder=HashEmbedder()) as m:
        yield m


def mine(mem: Memory) -> Any:
    return mem.palace.mine_conversation(CONVERSATION, wing=WING, session=ROOM)


def rules_topics() -> list[str | None]:
    turns = [mining.Turn(m["role"], m["content"]) for m in CONVERSATION]
    return [mining.read_window(turns, s).topic for s in mining.windows(len(turns))]


def closets(mem: Memory) -> dict[str, int]:
    [node] = mem.palace.tree(WING)
    return {c.name: c.drawers for r in node.rooms for c in r.closets}


def generate_requests(llm: ScriptedLlm) -> list[Request]:
    return llm.requests_to("/api/generate")


def test_one_call_per_window_whose_topic_and_entities_file_the_drawers(
    mem: Memory, llm: ScriptedLlm
) -> None:
    written: list[int] = []

    def answer(value: dict[str, Any]) -> Any:
        def reply(request: Request) -> str:
            # The model is asked before anything is written (no open transaction).
            written.append(mem.get_all(limit=1).total)
            return fenced(value)

        return reply

    llm.script(answer(EFOIL_ANSWER), answer(GARDEN_ANSWER))
    result = mine(mem)
    assert (result.llm_windows, result.warnings) == ((0, 1), ())
    assert written == [0, 0]
    sent = generate_requests(llm)
    assert len(sent) == 2 and llm.pending == 0
    assert sent[0].body["format"] == SCHEMA
    assert "Derek: I bought a 12V20Ah battery" in (sent[0].prompt or "")
    assert "tomato" not in (sent[0].prompt or "") and "tomato" in (sent[1].prompt or "")
    assert closets(mem) == {"efoil battery wiring": 6, "tomato garden": 6}
    pointers = [d.pointer for d in result.added]
    assert pointers[4].endswith("@p derek @p marta @l lisbon @i crimping-tool")
    assert pointers[8].endswith("@p derek @i basil")
    assert result.to_dict()["llm_windows"] == [0, 1]
    # Idempotent: mining again files nothing and asks nothing.
    again = mine(mem)
    assert again.kept == 12 and again.added == () and len(generate_requests(llm)) == 2


def test_think_blocks_and_fences_are_read(mem: Memory, llm: ScriptedLlm) -> None:
    llm.script(thinking(EFOIL_ANSWER), fenced(GARDEN_ANSWER, lang=""))
    result = mine(mem)
    assert result.llm_windows == (0, 1) and result.warnings == ()
    assert set(closets(mem)) == {"efoil battery wiring", "tomato garden"}


def test_garbage_falls_back_to_the_rules_with_a_warning(mem: Memory, llm: ScriptedLlm) -> None:
    llm.script("I cannot help with that.", fenced({"topic": "", "entities": []}))
    result = mine(mem)
    assert result.llm_windows == ()
    assert len(result.warnings) == 2
    assert result.warnings[0].startswith("window 0:") and "the rules read it" in result.warnings[0]
    assert "topic '' is not a name" in result.warnings[1]
    assert set(closets(mem)) == {t for t in rules_topics() if t}


def test_bad_entities_are_dropped_and_the_rest_kept(mem: Memory, llm: ScriptedLlm) -> None:
    crowd = [{"name": "basil", "type": "item"}] * (MAX_ENTITIES + 1)
    llm.script(
        fenced(
            {
                "topic": "efoil",
                "entities": [
                    {"name": "Marta", "type": "villain"},
                    {"name": "Atlantis", "type": "location"},
                    {"name": "7", "type": "item"},
                    "Lisbon",
                    {"name": "Lisbon", "type": "Location"},
                ],
            }
        ),
        fenced({"topic": "garden", "entities": crowd}),
    )
    result = mine(mem)
    assert result.llm_windows == (0, 1)
    said = "\n".join(result.warnings)
    assert "type 'villain' is not one of person, location, event, item" in said
    assert "'Atlantis' is not mentioned in the window" in said
    assert "entity name '7' is not a short name" in said
    assert "is not a {name, type} object" in said
    assert f"{MAX_ENTITIES + 1} entities, over {MAX_ENTITIES}" in said
    assert result.added[4].pointer.endswith("@p derek @l lisbon")
    assert "@p marta" not in result.added[4].tags  # dropped with her bad type


def test_a_failing_server_leaves_the_call_to_the_rules(mem: Memory, llm: ScriptedLlm) -> None:
    llm.script(Reply(status=500, body="model crashed"))
    result = mine(mem)
    assert result.llm_windows == ()
    [warning] = result.warnings
    assert warning.startswith("window 0:") and "500" in warning
    assert "the 1 window(s) after it" in warning
    assert len(generate_requests(llm)) == 1  # no retry, no call for the second window
    assert len(result.added) == 12
    assert set(closets(mem)) == {t for t in rules_topics() if t}


def test_only_windows_with_new_turns_are_sent(mem: Memory, llm: ScriptedLlm) -> None:
    llm.script(fenced(EFOIL_ANSWER))
    first = mem.palace.mine_conversation(CONVERSATION[:6], wing=WING, session=ROOM)
    assert first.llm_windows == (0,)
    llm.script(fenced(GARDEN_ANSWER))
    longer = mine(mem)
    # 12 turns are two windows of 6: the first holds only filed turns and is not sent.
    assert longer.llm_windows == (1,) and longer.kept == 6 and len(longer.added) == 6
    assert len(generate_requests(llm)) == 2


def test_an_offline_pipeline_never_asks(
    tmp_path: Path, store_location: str, llm: ScriptedLlm
) -> None:
    config = _config(tmp_path, llm, extractor="offline")
    with Memory(store_location, config=config, embedder=HashEmbedder()) as offline:
        result = offline.palace.mine_conversation(CONVERSATION, wing=WING, session=ROOM)
        assert result.llm_windows == () and result.warnings == ()
    assert generate_requests(llm) == []
