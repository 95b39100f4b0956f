"""A mem0 support bot moved to engram (new-user pass, round twenty-nine): what it met
where engram's mem0 door did not do what mem0 2.2.1 does (scripts/pass39_supportbot.py
runs the bot on both and compares)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conftest import HashEmbedder
from engram import Config
from engram.compat.mem0 import Memory

TOM = {"user_id": "tom"}


@pytest.fixture
def m(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=HashEmbedder()) as door:
        door.add(
            [
                {"role": "user", "content": "Please change my email to tom.b@example.org."},
                {"role": "assistant", "content": "Your email is now tom.b@example.org."},
                {"role": "user", "content": "And unsubscribe me from the newsletter."},
            ],
            user_id="tom",
            infer=False,
        )
        yield door


def texts(result: dict[str, list[dict[str, object]]]) -> list[str]:
    return sorted(str(r["memory"]) for r in result["results"])


def test_threshold_gates_similarity_not_engrams_final_score(m: Memory) -> None:
    # mem0 2.2.1 gates each candidate's semantic score (the cosine) on `threshold`
    # before it combines anything. The door compared engram's final score, which
    # quality and recency keep near 0.23 for a memory matching nothing, so the default
    # 0.1 kept every memory of the scope: a bot asking about diet got tom's email.
    assert m.search("diet", filters=TOM) == {"results": []}
    assert m.search("karaoke night", filters=TOM, threshold=0.3) == {"results": []}
    # What matches is still found, ranked by engram's score, and threshold=0 keeps all.
    assert texts(m.search("newsletter", filters=TOM)) == ["And unsubscribe me from the newsletter."]
    assert len(m.search("diet", filters=TOM, threshold=0.0)["results"]) == 3
    # The gate is the similarity explain=True reports as mem0's semantic_score.
    hits = m.search("my email", filters=TOM, threshold=0.0, explain=True)["results"]
    cut = sorted({h["score_details"]["semantic_score"] for h in hits})[-1]
    kept = m.search("my email", filters=TOM, threshold=cut, explain=True)["results"]
    assert kept and all(h["score_details"]["semantic_score"] >= cut for h in kept)
    assert len(kept) < len(hits)


def test_an_unknown_memory_type_is_refused_as_mem0_refuses_it(m: Memory) -> None:
    # mem0 2.2.1 takes memory_type="procedural_memory" only; the door stored the memory
    # with a warning, so a typo'd type was a memory on engram and an error on mem0.
    with pytest.raises(ValueError, match="Invalid 'memory_type'. Please pass procedural_memory"):
        m.add("x", user_id="tom", memory_type="episodic", infer=False)
    assert len(m.get_all(filters=TOM)["results"]) == 3


def test_delete_of_an_unknown_id_words_it_as_mem0(m: Memory) -> None:
    # mem0's delete says "Memory with id ... not found"; its update adds the advice.
    with pytest.raises(ValueError, match=r"^Memory with id nope not found$"):
        m.delete("nope")
    with pytest.raises(ValueError, match=r"not found\. Please provide a valid 'memory_id'$"):
        m.update("nope", text="x")


def test_a_fact_said_with_cannot_keeps_the_word() -> None:
    # The support bot's add(infer=True) of "I cannot log in since I changed my phone."
    # listed the fact "User cannots log in ...": "cannot" was agreed as a verb.
    from engram.pipeline.person import resolve_person

    assert resolve_person("I cannot log in since I changed my phone.", "User") == (
        "User cannot log in since User changed their phone."
    )
    assert resolve_person("I may call back.", "User") == "User may call back."
