"""FEATURES S3 in recall: seed 002 fetches shared memories in parallel with personal
ones, merges them (no personal_boost for shared) and ranks them together. Recall,
``runs.get_context`` and ``inject.context`` all see the namespace's shared space, and
``personal_boost`` now changes the order. On both backends."""

from __future__ import annotations

from engram import Config, Memory
from engram import shared as shared_part
from engram.recall import shared
from engram.recall.shared import DEFAULT_SPACE, recall_space

PUBLISHED = "Deploy window: Friday noon, deploy window approved by ops for the Friday release"
PERSONAL = "My deploy notes mention the Friday window"
QUERY = "deploy window Friday noon release approved by ops"


def _order(mem: Memory, boost: float, namespace: str = "default") -> list[str]:
    result = mem.recall(QUERY, namespace=namespace, limit=5, personal_boost=boost, abstain=False)
    return [h.memory.content for h in result.hits]


def test_publications_join_recall_and_personal_boost_changes_the_order(mem: Memory) -> None:
    mem.shared.publish("bob", PUBLISHED)
    mem.add(PERSONAL)
    mem.add("Nothing to do with releases", namespace=DEFAULT_SPACE)  # never published
    plain = _order(mem, 0.0)
    assert set(plain) == {PUBLISHED, PERSONAL}  # the unpublished memory stays out
    assert plain[0] == PUBLISHED  # the closer match, with nothing boosting either
    boosted = _order(mem, 0.9)
    assert boosted[0] == PERSONAL  # only the personal memory is boosted (seed 002)
    fused = {}
    for boost in (0.0, 0.9):
        hits = mem.recall(QUERY, limit=5, personal_boost=boost, abstain=False).hits
        fused[boost] = {h.memory.content: h.breakdown.fused for h in hits}
        assert {h.memory.namespace for h in hits} == {"default", DEFAULT_SPACE}
    assert fused[0.9][PERSONAL] > fused[0.0][PERSONAL]  # boosted relevance
    assert fused[0.9][PUBLISHED] == fused[0.0][PUBLISHED]  # no boost for shared


def test_get_context_and_inject_context_carry_publications(mem: Memory) -> None:
    mem.shared.publish("bob", PUBLISHED)
    mem.add(PERSONAL)
    assert "Friday noon" in mem.runs.get_context(QUERY)
    messages = [{"role": "system", "content": "You deploy."}, {"role": "user", "content": QUERY}]
    injected = mem.inject.context(messages, budget_tokens=400)
    assert len(injected) == 3 and "Friday noon" in injected[1]["content"]


def test_a_user_namespace_sees_its_own_users_shared_space(mem: Memory) -> None:
    mem.shared.publish("a1", PUBLISHED, namespace="user:alice/shared")
    bobs = "Deploy window Friday noon for the other team"
    mem.shared.publish("b1", bobs, namespace="user:bob/shared")
    mem.add(PERSONAL, namespace="user:alice/agent")
    got = _order(mem, 0.0, namespace="user:alice/agent")
    assert set(got) == {PUBLISHED, PERSONAL}
    # an agent of the user: its namespace is user:alice, narrowed to its own memories
    mem.add(PERSONAL, user_id="alice", agent_id="a1")
    hits = mem.recall(QUERY, user_id="alice", agent_id="a1", abstain=False).hits
    assert {h.memory.namespace for h in hits} == {"user:alice", "user:alice/shared"}


def test_filtered_or_switched_off_recalls_stay_personal(config: Config, mem: Memory) -> None:
    mem.shared.publish("bob", PUBLISHED)
    mem.add(PERSONAL, tags=["mine"])
    tagged = mem.recall(QUERY, filters={"tags": ["mine"]}, abstain=False).hits
    assert [h.memory.content for h in tagged] == [PERSONAL]
    assert recall_space("default", enabled=False, filtered=False) is None
    assert recall_space("default", enabled=True, filtered=True) is None
    assert recall_space(DEFAULT_SPACE, enabled=True, filtered=False) is None
    assert recall_space("user:a/shared", enabled=True, filtered=False) is None
    assert recall_space("user:a/x", enabled=True, filtered=False) == "user:a/shared"
    # the shared search itself is not merged with anything
    assert [h.memory.content for h in mem.shared.search_shared(QUERY)] == [PUBLISHED]


def test_the_shared_part_and_recall_name_publications_alike() -> None:
    assert shared_part.PUBLISHED_BY == shared.PUBLISHED_BY
    assert shared_part.space_of is shared.space_of
