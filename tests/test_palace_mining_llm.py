"""Mining with an LLM (seed 003: one small call per conversation of up to 50 turns for
its windows' topics and entities, one call per window of 8-10 turns above that; FEATURES
G8): good, fenced and ``<think>`` answers are used; garbage, bad entities and a failing
server fall back to the rules with warnings; the calls are counted at the server. On
both backends, against the scripted model server (tests/llmserver.py), never the
network."""

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
#: The one answer for both windows of CONVERSATION (12 turns: one call).
BOTH_ANSWER = {
    "topics": ["Efoil battery wiring", "tomato garden"],
    "entities": [*EFOIL_ANSWER["entities"], *GARDEN_ANSWER["entities"]],
}


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


def test_one_call_per_conversation_whose_topics_and_entities_file_the_drawers(
    mem: Memory, llm: ScriptedLlm
) -> None:
    written: list[int] = []

    def answer(value: dict[str, Any]) -> Any:
        def reply(request: Request) -> str:
            # The model is asked before anything is written (no open transaction).
            written.append(mem.get_all(limit=1).total)
            return fenced(value)

        return reply

    llm.script(answer(BOTH_ANSWER))
    result = mine(mem)
    assert (result.llm_windows, result.warnings) == ((0, 1), ())
    assert written == [0]
    [sent] = generate_requests(llm)  # 12 turns: one call for both windows
    assert llm.pending == 0
    assert sent.body["format"] == SCHEMA
    prompt = sent.prompt or ""
    assert "Derek: I bought a 12V20Ah battery" in prompt and "tomato" in prompt
    assert prompt.index("Part 1:") < prompt.index("Part 2:") < prompt.index("tomato")
    assert closets(mem) == {"efoil battery wiring": 6, "tomato garden": 6}
    pointers = [d.pointer for d in result.added]
    assert pointers[4].endswith("@p derek @p marta @l lisbon @i crimping-tool")
    assert pointers[8].endswith("@p derek @i basil")
    assert result.to_dict()["llm_windows"] == [0, 1]
    # Idempotent: mining again files nothing and asks nothing.
    again = mine(mem)
    assert again.kept == 12 and again.added == () and len(generate_requests(llm)) == 1


def _chat(turns: int) -> list[dict[str, str]]:
    return [
        {"role": "Derek" if i % 2 == 0 else "assistant", "content": f"{text} ({i})"}
        for i, text in enumerate((EFOIL + GARDEN) * (turns // 12 + 1))
    ][:turns]


@pytest.mark.parametrize(("turns", "calls"), [(7, 1), (50, 1), (51, 6), (120, 12)])
def test_calls_per_conversation_are_counted_at_the_server(
    mem: Memory, llm: ScriptedLlm, turns: int, calls: int
) -> None:
    # seed 003: one call up to 50 turns; above, one per window of 8-10 turns.
    llm.fallback = lambda _request: fenced({"topic": "efoil", "entities": []})
    result = mem.palace.mine_conversation(_chat(turns), wing=WING, session=f"s{turns}")
    sent = generate_requests(llm)
    assert len(sent) == calls
    assert len(result.added) == turns and result.warnings == ()
    windows = mining.windows(turns)
    assert result.llm_windows == tuple(range(len(windows)))
    if calls > 1:
        assert all(8 <= len(w) <= 10 for w in windows)
        assert all("Part 2:" not in (r.prompt or "") for r in sent)
    else:
        assert (sent[0].prompt or "").count("Part ") == len(windows)


def test_think_blocks_and_fences_are_read(mem: Memory, llm: ScriptedLlm) -> None:
    llm.script(thinking(BOTH_ANSWER))
    result = mine(mem)
    assert result.llm_windows == (0, 1) and result.warnings == ()
    assert set(closets(mem)) == {"efoil battery wiring", "tomato garden"}


def test_one_topic_names_every_part(mem: Memory, llm: ScriptedLlm) -> None:
    llm.script(fenced(EFOIL_ANSWER, lang=""))
    result = mine(mem)
    assert result.llm_windows == (0, 1) and result.warnings == ()
    assert closets(mem) == {"efoil battery wiring": 12}


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ("I cannot help with that.", "the rules read it"),
        (fenced({"topics": ["", "  "], "entities": []}), "topic '' is not a name"),
        (fenced({"topic": "efoil"}), "no list of entities"),
    ],
)
def test_garbage_falls_back_to_the_rules_with_a_warning(
    mem: Memory, llm: ScriptedLlm, answer: str, said: str
) -> None:
    llm.script(answer)
    result = mine(mem)
    assert result.llm_windows == ()
    assert result.warnings and result.warnings[0].startswith("windows 0-1:")
    assert said in "\n".join(result.warnings)
    assert set(closets(mem)) == {t for t in rules_topics() if t}


def test_a_part_without_a_topic_is_named_by_the_rules(mem: Memory, llm: ScriptedLlm) -> None:
    llm.script(fenced({"topics": ["efoil battery"], "entities": []}))
    result = mine(mem)
    assert result.llm_windows == (0,)
    assert "1 topics for 2 part(s)" in "\n".join(result.warnings)
    assert set(closets(mem)) == {"efoil battery", rules_topics()[1]}


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
    first = mem.palace.mine_conversation(CONVERSATION[:6], wing=WING, session=ROOM)
    result = mine(mem)
    assert first.llm_windows == (0,) and result.llm_windows == (1,)
    said = "\n".join(first.warnings)
    assert "type 'villain' is not one of person, location, event, item" in said
    assert "'Atlantis' is not mentioned in the turns" in said
    assert "entity name '7' is not a short name" in said
    assert "is not a {name, type} object" in said
    assert f"{MAX_ENTITIES + 1} entities, over {MAX_ENTITIES}" in "\n".join(result.warnings)
    assert first.added[4].pointer.endswith("@p derek @l lisbon")
    assert "@p marta" not in first.added[4].tags  # dropped with her bad type


def test_a_failing_server_leaves_the_call_to_the_rules(mem: Memory, llm: ScriptedLlm) -> None:
    llm.script(Reply(status=500, body="model crashed"))
    result = mem.palace.mine_conversation(_chat(60), wing=WING, session="long")
    assert result.llm_windows == ()
    [warning] = result.warnings
    assert warning.startswith("window 0:") and "500" in warning
    assert "the 5 window(s) after it" in warning
    assert len(generate_requests(llm)) == 1  # no retry, no call for the later windows
    assert len(result.added) == 60


def test_only_windows_with_new_turns_are_sent(mem: Memory, llm: ScriptedLlm) -> None:
    llm.script(fenced(EFOIL_ANSWER))
    first = mem.palace.mine_conversation(CONVERSATION[:6], wing=WING, session=ROOM)
    assert first.llm_windows == (0,)
    llm.script(fenced(GARDEN_ANSWER))
    longer = mine(mem)
    # 12 turns are two windows of 6: the first holds only filed turns and is not sent.
    assert longer.llm_windows == (1,) and longer.kept == 6 and len(longer.added) == 6
    sent = generate_requests(llm)
    assert len(sent) == 2 and "Part 2:" not in (sent[1].prompt or "")
    assert "tomato" in (sent[1].prompt or "") and "12V20Ah" not in (sent[1].prompt or "")


def test_an_offline_pipeline_never_asks(
    tmp_path: Path, store_location: str, llm: ScriptedLlm
) -> None:
    config = _config(tmp_path, llm, extractor="offline")
    with Memory(store_location, config=config, embedder=HashEmbedder()) as offline:
        result = offline.palace.mine_conversation(CONVERSATION, wing=WING, session=ROOM)
        assert result.llm_windows == () and result.warnings == ()
    assert generate_requests(llm) == []
