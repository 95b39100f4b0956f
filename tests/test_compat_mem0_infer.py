"""The mem0 door's ``add(infer=True)``, mem0's default (mem0ai 2.2.1
``Memory._add_to_vector_store``): ``add`` lists the facts extracted, and the door's
reads show what mem0 would have stored, while engram still keeps the conversation the
facts came from (raw-first, seed 004), reachable through ``m.engram``.
docs/compat-mem0.md "Adding messages" and "What differs".
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import HashEmbedder
from engram import Config
from engram.compat.mem0 import Memory, MemoryNotFound
from llmserver import ScriptedLlm, fenced

DEREK = "Derek: I work at Acme as an engineer. I live in Lisbon."
FACTS = ["Derek lives in Lisbon.", "Derek works at Acme as an engineer."]


@pytest.fixture
def m(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=HashEmbedder()) as door:
        yield door


def door_with(config: Config, store_location: str, **env: str) -> Memory:
    changed = Config.load(env=env, home=str(config.home_path))
    return Memory(store_location, config=changed, embedder=HashEmbedder())


def texts(result: dict[str, Any]) -> list[str]:
    return sorted(r["memory"] for r in result["results"])


def test_add_lists_the_facts_and_engram_keeps_the_conversation(m: Memory) -> None:
    added = m.add(DEREK, user_id="d")
    assert "infer" not in added  # mem0's shape: {"results": [...]} only
    assert texts(added) == FACTS
    assert {tuple(sorted(r)) for r in added["results"]} == {("event", "id", "memory")}
    assert {r["event"] for r in added["results"]} == {"ADD"}
    # Nothing raw lost: the conversation is stored verbatim and each fact points to it.
    [raw] = [r for r in m.engram.get_all(user_id="d", namespace="user:d") if r.who is None]
    assert raw.content == DEREK
    for fact in added["results"]:
        assert m.engram.get(fact["id"], namespace="user:d").source_memory_id == raw.id
        assert [h["event"] for h in m.history(fact["id"])] == ["ADD"]
    # ... and the door treats it as mem0 treats what it never stored.
    assert texts(m.get_all(filters={"user_id": "d"})) == FACTS
    found = m.search("Derek Acme engineer Lisbon", filters={"user_id": "d"}, threshold=0.0)
    assert raw.id not in {r["id"] for r in found["results"]}
    assert m.get(raw.id) is None and m.history(raw.id) == []
    with pytest.raises(MemoryNotFound):
        m.update(raw.id, text="rewritten")
    with pytest.raises(MemoryNotFound):
        m.delete(raw.id)
    assert m.engram.get(raw.id, namespace="user:d").content == DEREK


def test_the_same_conversation_again_adds_nothing(m: Memory) -> None:
    m.add(DEREK, user_id="d")
    assert m.add(DEREK, user_id="d") == {"results": []}
    assert texts(m.get_all(filters={"user_id": "d"})) == FACTS


def test_deleting_the_user_erases_the_conversation_too(m: Memory) -> None:
    m.add(DEREK, user_id="d", metadata={"category": "profile"})
    m.delete_all(user_id="d")
    assert m.engram.get_all(user_id="d", namespace="user:d") == []


def test_a_closed_fact_is_mem0s_delete_in_full_mode(config: Config, store_location: str) -> None:
    # engram's pipeline supersedes the older fact and writes the new one (new id): mem0
    # 1.x reported such a change as an UPDATE keeping the old id, which would make mem0
    # code expect get(old id) to give the new text; the door reports what happened.
    with door_with(config, store_location, ENGRAM_PIPELINE_ALLOW_UPDATE_DELETE="true") as m:
        [berlin] = m.add("Derek: I live in Berlin.", user_id="d")["results"]
        moved = m.add("Derek: I moved to Lisbon.", user_id="d")["results"]
        assert [(r["event"], r["memory"]) for r in moved] == [
            ("ADD", "Derek moved to Lisbon."),
            ("DELETE", "Derek lives in Berlin."),
        ]
        assert moved[1]["id"] == berlin["id"]
        assert m.get(berlin["id"]) is None
        assert texts(m.get_all(filters={"user_id": "d"})) == ["Derek moved to Lisbon."]
        assert [h["event"] for h in m.history(berlin["id"])] == ["ADD", "DELETE"]
        with pytest.raises(MemoryNotFound):
            m.update(berlin["id"], text="Derek lives in Porto.")
        kept = m.engram.get(berlin["id"], namespace="user:d")  # engram keeps the chain
        assert kept.superseded_by == moved[0]["id"]


def test_a_change_held_for_review_keeps_the_conversation_listed(m: Memory) -> None:
    # controlled mode (the default): the pipeline holds the change for a person, so the
    # conversation stays in the door's view rather than nothing of it being listed.
    [berlin] = m.add("Derek: I live in Berlin.", user_id="d")["results"]
    with pytest.warns(UserWarning, match="held for review"):
        moved = m.add("Derek: I moved to Lisbon.", user_id="d")
    assert [(r["event"], r["memory"]) for r in moved["results"]] == [
        ("ADD", "Derek: I moved to Lisbon.")
    ]
    assert m.get(berlin["id"]) is not None
    assert texts(m.get_all(filters={"user_id": "d"})) == [
        "Derek lives in Berlin.",
        "Derek: I moved to Lisbon.",
    ]
    assert m.engram.review.list(namespace="user:d")


def test_inferred_facts_carry_the_callers_metadata(m: Memory) -> None:
    # mem0 stores add's metadata with every memory it infers; a mem0 script that filters
    # on it found only the raw conversation (found trying engram as a new user).
    added = m.add(
        [{"role": "user", "content": DEREK}],
        user_id="d",
        metadata={"category": "profile"},
        expiration_date="2999-01-01",
    )
    facts = {r["id"] for r in added["results"]}
    assert len(facts) == 2
    found = m.search("where does Derek live?", filters={"user_id": "d", "category": "profile"})
    assert {r["id"] for r in found["results"]} == facts
    for fact_id in facts:
        got = m.get(fact_id)
        assert got is not None and got["metadata"] == {"category": "profile"}
        assert got["expiration_date"] == "2999-01-01"
        assert [h["event"] for h in m.history(fact_id)] == ["ADD"]


def test_with_the_pipeline_off_the_conversation_is_listed(
    config: Config, store_location: str
) -> None:
    with door_with(config, store_location, ENGRAM_PIPELINE_ENABLED="false") as door:
        with pytest.warns(UserWarning, match="the extraction pipeline is off"):
            added = door.add("Derek: I live in Lisbon.", user_id="d")
        assert texts(added) == ["Derek: I live in Lisbon."]
        assert texts(door.get_all(filters={"user_id": "d"})) == ["Derek: I live in Lisbon."]


def test_a_statement_nothing_was_extracted_from_stays_listed(m: Memory) -> None:
    # mem0's LLM would extract "does not eat pork"; the offline extractor reads no fact
    # in it, and hiding the conversation would hide all the user said.
    with pytest.warns(UserWarning, match="no fact was extracted"):
        added = m.add("I don't eat pork.", user_id="p")
    assert texts(added) == ["I don't eat pork."]
    found = m.search("pork", filters={"user_id": "p"}, threshold=0.0)
    assert texts(found) == ["I don't eat pork."]


def test_a_plain_statement_lists_the_users_fact(m: Memory) -> None:
    # A plain string is the user's (docs/pipeline.md, "A plain statement's speaker"), as
    # mem0 reads it: the door lists the fact and keeps the statement out of its view.
    added = m.add("I prefer window seats.", agent_id="travel-bot")
    assert texts(added) == ["User prefers window seats."]
    assert texts(m.get_all(filters={"agent_id": "travel-bot"})) == ["User prefers window seats."]
    kept = m.engram.get_all(agent_id="travel-bot")
    assert "I prefer window seats." in {r.content for r in kept}


def test_a_statement_that_is_its_own_fact_is_listed_once_without_a_warning(
    config: Config, store_location: str
) -> None:
    # An LLM extracts the one-line statement's very text as its fact: it deduplicates
    # onto the conversation (``ITSELF``), so the door lists that one memory as the fact,
    # as mem0 would, keeps it in its view and says nothing.
    with ScriptedLlm() as llm:
        changed = Config.load(
            env={},
            home=str(config.home_path),
            llm={"provider": "ollama", "base_url": llm.url, "timeout_s": 5},
            pipeline={"hints": False, "classify": False},
        )
        llm.script(
            fenced(
                {
                    "facts": [
                        {"content": "Derek lives in Lisbon.", "type": "fact", "confidence": 0.9}
                    ],
                    "entities": [],
                }
            )
        )
        with Memory(store_location, config=changed, embedder=HashEmbedder()) as door:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                added = door.add("Derek lives in Lisbon.", user_id="d")
            assert llm.pending == 0  # the extraction really asked the model
            [listed] = added["results"]
            assert (listed["memory"], listed["event"]) == ("Derek lives in Lisbon.", "ADD")
            assert texts(door.get_all(filters={"user_id": "d"})) == ["Derek lives in Lisbon."]
            [kept] = door.engram.get_all(user_id="d")
            assert kept.id == listed["id"]
            assert "mem0_conversation" not in kept.metadata
