"""issue 24 (hop39): a judgement question's sessions ranked by the question without its
anchor names, over the whole namespace, lift their candidates."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.config import RecallConfig
from engram.recall import judgement
from engram.recall.request import RecallRequest
from engram.store.protocols.memories import ListQuery, MemoryFacts
from test_recall_anchors import TURNS

#: test_recall_anchors' chat (Melanie opens most turns), each turn its own session.
JUDGED = "What pottery would Melanie make?"
PLAIN = "What pottery did Melanie make?"


@pytest.fixture
def chat(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=HashEmbedder(1024)) as mem:
        items = [{"content": t, "session_id": f"s{n}"} for n, t in enumerate(TURNS)]
        mem.add_many(items, namespace="chat")
        yield mem


@pytest.mark.parametrize(
    ("question", "judged"),
    [
        ("Would Caroline likely pursue writing as a career?", True),
        ("What might John do after his basketball career?", True),
        ("What could John do after his basketball career?", True),
        ("Is Melanie likely to go camping again?", True),
        ("What did Melanie paint?", False),
        ("Would you remind me what I said about the deadline?", False),
        ("Could you list my standing instructions?", False),
        ("What might I have said about the budget?", False),
        ("How would we split the work?", False),
    ],
)
def test_a_judgement_is_what_someone_would_might_or_could_do(question: str, judged: bool) -> None:
    assert judgement.asks_judgement(question) is judged


def test_sessions_rank_by_their_first_memory() -> None:
    sessions = {"a": "s1", "b": "s2", "c": "s1", "d": None, "e": "s3"}
    assert judgement.session_ranks(["d", "c", "b", "a", "x", "e"], sessions) == {
        "s1": 1,
        "s2": 2,
        "s3": 3,
    }


def test_fuse_adds_the_session_rank_gain_and_stays_in_unit_range() -> None:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    facts = {i: MemoryFacts(at, s, 10) for i, s in [("a", "s1"), ("b", "s2"), ("c", None)]}
    cfg = RecallConfig(judgement_weight=1.0, judgement_k=1)
    fused = {"a": 0.2, "b": 0.9, "c": 1.0, "z": 0.5}
    out = judgement.fuse(fused, facts, {"s1": 1, "s2": 3}, cfg)
    # a's session ranks first (gain 1/2), b's third (1/4); c has no session and z no
    # facts: they gain nothing. All scaled by 1 + 1/2.
    assert out == pytest.approx({"a": 0.7 / 1.5, "b": 1.15 / 1.5, "c": 1.0 / 1.5, "z": 0.5 / 1.5})
    assert all(0.0 <= v <= 1.0 for v in out.values())
    assert judgement.fuse(fused, facts, {}, cfg) == fused
    off = RecallConfig(judgement_weight=0.0)
    assert judgement.fuse(fused, facts, {"s1": 1}, off) == fused


def test_recall_lifts_the_session_nearest_the_rest_of_a_judgement_question(
    chat: Memory,
) -> None:
    def ask(question: str, weight: float) -> list[tuple[str, float | None]]:
        recall = chat.recall(
            question,
            namespace="chat",
            limit=6,
            strategy="dense",
            judgement_weight=weight,
            judgement_k=1,
            abstain=False,
        )
        return [(h.memory.content, h.breakdown.sim) for h in recall.hits]

    assert RecallConfig().judgement_weight == 1.0 and RecallConfig().judgement_k == 3
    off, on = ask(JUDGED, 0.0), ask(JUDGED, 10.0)
    assert off[0][0] == "Melanie: Melanie, Melanie!"
    assert on[0][0] == "Caroline: my pottery is done"
    # Only the order moves: each memory keeps its cosine to the whole question.
    assert dict(off) == pytest.approx(dict(on))
    # A question of another form is ranked as before, whatever the weight.
    assert ask(PLAIN, 10.0) == ask(PLAIN, 0.0)


def test_recall_without_sessions_or_anchor_names_is_unchanged(
    config: Config, store_location: str
) -> None:
    with Memory(store_location, config=config, embedder=HashEmbedder(1024)) as mem:
        mem.add_many(TURNS, namespace="loose")  # no session ids

        def ask(question: str, weight: float) -> list[str]:
            got = mem.recall(
                question, namespace="loose", limit=6, judgement_weight=weight, abstain=False
            )
            return [h.memory.id for h in got.hits]

        assert ask(JUDGED, 10.0) == ask(JUDGED, 0.0)
        # No anchor (Zed is named by no memory): no second embedding and no search.
        got = mem.recall("What would Zed make?", namespace="loose", judgement_weight=10.0)
        assert "judgement" not in got.timings


def test_second_queries_are_put_together_only_when_they_can_act(
    chat: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """lat42: a question of another form, with R1's leg off, does not reach the second
    queries at all (their reads were put together for every recall, ~5-15 us); a
    judgement question, or any question with R1's leg on, still does."""
    calls: list[str] = []
    real = judgement.second_queries

    def counted(request: RecallRequest, *args: object) -> None:
        calls.append(request.query)
        real(request, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(judgement, "second_queries", counted)
    chat.recall(PLAIN, namespace="chat", limit=6)
    assert calls == []
    chat.recall(JUDGED, namespace="chat", limit=6)
    assert calls == [JUDGED]
    chat.recall(PLAIN, namespace="chat", limit=6, residual_weight=0.5)
    assert calls == [JUDGED, PLAIN]
    chat.recall(JUDGED, namespace="chat", limit=6, judgement_weight=0.0)
    assert calls == [JUDGED, PLAIN]
    assert judgement.wanted(JUDGED, RecallConfig()) and not judgement.wanted(PLAIN, RecallConfig())


def test_a_namespace_without_sessions_runs_no_judgement_leg(
    config: Config, reopenable: str
) -> None:
    """lat42: no session can be ranked there, so neither the second embedding nor the
    search of the whole namespace runs; a store opened once a memory holds a session
    runs the leg again (a running one sees it within ``SIZE_TTL_S``)."""

    def ask(mem: Memory) -> list[str]:
        return list(mem.recall(JUDGED, namespace="loose", limit=6, abstain=False).timings)

    with Memory(reopenable, config=config, embedder=HashEmbedder(1024)) as mem:
        mem.add_many(TURNS, namespace="loose")  # no session ids
        mem.add("Melanie: a bowl in a session", namespace="other", session_id="s1")
        assert "judgement" not in ask(mem) and "residual" not in ask(mem)
        mem.add("Melanie: a new bowl", namespace="loose", session_id="s1")
    with Memory(reopenable, config=config, embedder=HashEmbedder(1024)) as mem:
        assert "judgement" in ask(mem)


def test_the_session_filter_reads_memories_with_or_without_one(mem: Memory) -> None:
    memories = mem._core.store.memories
    mem.add("no session here", namespace="a")
    mem.add("held in a session", namespace="a", session_id="s")
    mem.add("elsewhere in a session", namespace="b", session_id="t")
    assert memories.count("a", query=ListQuery(has_session=True)) == 1
    assert memories.count("a", query=ListQuery(has_session=False)) == 1
    assert memories.count("a", query=ListQuery()) == 2
    assert [r.content for r in memories.select("a", ListQuery(has_session=True))] == [
        "held in a session"
    ]


def test_judgement_settings_are_recall_settings() -> None:
    config = Config.load(
        env={"ENGRAM_RECALL_JUDGEMENT_WEIGHT": "0.5", "ENGRAM_RECALL_JUDGEMENT_K": "7"}
    )
    assert (config.recall.judgement_weight, config.recall.judgement_k) == (0.5, 7)
    with pytest.raises(Exception, match="judgement_k"):
        Config.load(env={"ENGRAM_RECALL_JUDGEMENT_K": "0"})
