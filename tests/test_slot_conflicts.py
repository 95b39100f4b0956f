"""Two statements of one slot that disagree (task conflict38).

New-user round twenty-eight: the planner records "the API rate limit burst is 20", the
coder "burst is 30", offline; no review item was made and recall returned both with
nothing saying they disagree. Now the extract job queues one item naming both memories
and recall warns. A change told as a change, a second value that coexists, and the same
value said again make none. Both backends (``mem``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory

#: The proposal key of a disagreement item (``slot_conflicts.KIND``), written out so
#: that the behaviour tests run (and fail) on a tree without the module.
KIND = "conflict"
T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
OLD = "The API rate limit burst is 20."
NEW = "The API rate limit burst is 30."
ASK = "What is the API rate limit burst?"


def _tell(mem: Memory, *said: tuple[str, str | None]) -> list[str]:
    ids = []
    for day, (text, agent) in enumerate(said):
        rec = mem.add(text, user_id="dana", agent_id=agent, created_at=T0 + timedelta(days=day))
        ids.append(rec.id)
    mem.jobs.process_pending()
    return ids


def _conflicts(mem: Memory) -> list:  # type: ignore[type-arg]
    return [i for i in mem.review.list(user_id="dana") if isinstance(i.proposal.get(KIND), dict)]


def test_two_agents_disagreeing_make_one_item_naming_both(mem: Memory) -> None:
    old_id, new_id = _tell(mem, (OLD, "planner"), (NEW, "coder"))
    [item] = _conflicts(mem)
    assert (item.target_id, item.memory_id) == (old_id, new_id)
    sides = item.sides
    assert sides["old"]["memory_id"] == old_id and sides["old"]["agent_id"] == "planner"
    assert sides["new"]["memory_id"] == new_id and sides["new"]["agent_id"] == "coder"
    assert item.proposal[KIND]["values"] == ["20", "30"]
    assert "'20'" in item.reason and "'30'" in item.reason
    # neither statement is closed: which value holds is the person's call
    assert mem.get(old_id, user_id="dana").superseded_by is None  # type: ignore[union-attr]


def test_a_third_statement_of_a_value_makes_no_second_item(mem: Memory) -> None:
    _tell(mem, (OLD, "planner"), (NEW, "coder"))
    mem.add("The API rate limit burst is 30.", user_id="dana", agent_id="reviewer")
    mem.add("The API rate limit burst is 20.", user_id="dana", agent_id="planner")
    mem.jobs.process_pending()
    assert len(_conflicts(mem)) == 1


def test_a_third_value_of_the_slot_joins_the_pending_item(mem: Memory) -> None:
    _tell(mem, (OLD, "planner"), (NEW, "coder"))
    mem.add("The API rate limit burst is 40.", user_id="dana", agent_id="reviewer")
    mem.jobs.process_pending()
    assert len(_conflicts(mem)) == 1


def test_recall_warns_of_the_disagreement_until_it_is_resolved(mem: Memory) -> None:
    old_id, new_id = _tell(mem, (OLD, "planner"), (NEW, "coder"))
    got = mem.recall(ASK, user_id="dana")
    [warning] = [w for w in got.warnings if "disagree" in w]
    assert old_id in warning and new_id in warning
    assert "agent planner" in warning and "agent coder" in warning
    [item] = _conflicts(mem)
    mem.review.reject(item.id, user_id="dana")
    assert not [w for w in mem.recall(ASK, user_id="dana").warnings if "disagree" in w]


def test_approving_lets_the_newer_statement_supersede_the_older(mem: Memory) -> None:
    old_id, _ = _tell(mem, (OLD, "planner"), (NEW, "coder"))
    [item] = _conflicts(mem)
    mem.review.approve(item.id, user_id="dana")
    assert mem.get(old_id, user_id="dana").superseded_by is not None  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "said",
    [
        ((OLD, "planner"), ("We raised the API rate limit burst to 30.", "coder")),
        (("We use Slack for team chat.", None), ("We use email for talking to clients.", None)),
        (("The staging database is Postgres 15.", None), ("Staging runs on PostgreSQL 15.", None)),
        ((OLD, "planner"), ("The release owner is Marco.", "coder")),
    ],
    ids=["change", "coexist", "restate", "unrelated"],
)
def test_no_item_when_the_statements_do_not_disagree(
    mem: Memory, said: tuple[tuple[str, str | None], ...]
) -> None:
    _tell(mem, *said)
    assert _conflicts(mem) == []
    assert not [w for w in mem.recall(said[0][0], user_id="dana").warnings if "disagree" in w]


def test_one_value_said_twice_is_no_disagreement() -> None:
    from engram.pipeline.slot_conflicts import same_value

    assert same_value("Postgres 15", "PostgreSQL 15")
    assert same_value("Jira", "Jira Cloud")
    assert not same_value("20", "30")
    assert not same_value("Priya", "Marco")
