"""A busy subject's change still closes its old fact. The closing plan reads the
subject's current relations with a bound (``closing.READ_LIMIT``); in a store that has
lived a while the user (or a close relative) is mentioned hundreds of times
(``talks_about``), and a read of the oldest relations then held only mentions, so the
fact a new statement replaces was never seen. The plan reads the newest relations,
mentions left out (``GraphStore.relations(without=..., newest_first=True)``). Runs on
both backends (``mem``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engram import Memory
from engram.pipeline import closing
from engram.store.protocols.graph import Statement
from test_dogfood19_changes import _told

NAMESPACE = "user:dana"


def _where_aunt_lives(mem: Memory) -> dict[str, bool]:
    """The aunt's ``lives_in`` relations, place -> whether it holds."""
    return {
        r.target: r.valid_to is None
        for r in mem.graph.relations("aunt", current_only=False, limit=1000, user_id="dana")
        if r.relation_type == "lives_in"
    }


def _mention_aunt(mem: Memory, times: int) -> None:
    """``times`` older mentions of the aunt, recorded as the linker records them."""
    source = mem.add("My aunt talks about everything.", user_id="dana")
    then = datetime.now(UTC) - timedelta(days=30)
    mentions = [("aunt", "talks_about", f"topic {n}", 0.5) for n in range(times)]
    mem.store.graph.record(
        NAMESPACE,
        [Statement(memory_id=source.id, triples=mentions, valid_from=then, now=then)],
        single_valued=(),
    )


def test_a_change_closes_the_old_fact_of_a_subject_mentioned_hundreds_of_times(
    mem: Memory,
) -> None:
    _mention_aunt(mem, closing.READ_LIMIT + 10)
    _told(mem, "My aunt lives in Galway.", "My aunt is in Sligo now.")
    assert _where_aunt_lives(mem) == {"Galway": False, "Sligo": True}


def test_the_store_reads_the_newest_relations_without_the_types_left_out(mem: Memory) -> None:
    _mention_aunt(mem, 5)
    _told(mem, "My aunt lives in Galway.")
    [aunt] = [e for e in mem.graph.entities(user_id="dana") if e.name == "aunt"]
    newest = mem.store.graph.relations(
        NAMESPACE, entity_id=aunt.id, current_only=True, at=None, limit=3, offset=0,
        without=("talks_about",), newest_first=True,
    )  # fmt: skip
    assert [(r.relation_type, r.target) for r in newest] == [("lives_in", "Galway")]
    everything = mem.store.graph.relations(
        NAMESPACE, entity_id=aunt.id, current_only=True, at=None, limit=3, offset=0
    )
    assert [r.relation_type for r in everything] == ["talks_about"] * 3  # oldest first
