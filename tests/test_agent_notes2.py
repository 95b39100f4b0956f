"""An agent's notes, round two (task x24), and the palace's own graph path.

- A program's output or a note's label before a colon is no speaker: "Jest: Cannot
  find module ..." named a person "Jest", "Decided: no ORM ..." linked
  ``(Decided, talks_about, ORM)``, "SSL: CERTIFICATE_VERIFY_FAILED ..." a person "SSL".
- ``mine_conversation(graph=True)`` recorded each window's triples raw: no closing
  plan (a mined change left the old fact open) and no relation gate (a negated value,
  "no longer Joost", became an entity). It now goes through the write path's own gate,
  ``write.linked``. Both backends.
"""

from __future__ import annotations

import json
from dataclasses import replace
from importlib import resources

import pytest

from conftest import HashEmbedder
from engram import Memory
from engram.config import Config
from engram.pipeline import linker, offline, turns
from engram.records import PIPELINE_WHO

SPEAKERS = [
    # (text, the speaker the rules read)
    ("Jest: Cannot find module '@/lib/api' from 'src/pages/index.tsx'.", None),
    ("Decided: no ORM for the reporting queries, plain SQL in .sql files.", None),
    ("SSL: CERTIFICATE_VERIFY_FAILED when calling the vendor API.", None),
    ("TypeError: Cannot read properties of undefined (reading 'map')", None),
    ("ModuleNotFoundError: No module named 'engram_ext'", None),
    ("Docker: no space left on device", None),
    # people still speak
    ("Caroline: I went to the support group yesterday.", "Caroline"),
    ("Mr Okafor: The garden needs water.", "Mr Okafor"),
    ("Jo: Docker is great.", "Jo"),
]


@pytest.mark.parametrize(("text", "speaker"), SPEAKERS)
def test_only_a_person_speaks_before_a_colon(text: str, speaker: str | None) -> None:
    assert turns.split_speaker(text)[0] == speaker
    assert offline.analyse(text).speaker == speaker


def test_a_label_before_a_colon_links_no_person() -> None:
    triples, types = linker.links("Decided: no ORM for the reporting queries, plain SQL.")
    assert [t for t in triples if t[0] == "Decided"] == []
    assert "Decided" not in types
    _, types = linker.links("Jest: Cannot find module '@/utils/date'")
    assert types.get("Jest") != "person"


REGISTER = [
    # a name only the trade spells makes a note: the team's, not the user's
    (
        "We will use UUIDv7 for new primary keys.",
        ["The team will use UUIDv7 for new primary keys."],
    ),
    ("We moved the k8s cluster to eu-west-1.", ["The team moved the k8s cluster to eu-west-1."]),
    (
        "We standardised on OAuth for the partner integrations.",
        ["The team standardised on OAuth for the partner integrations."],
    ),
    # everyday names with digits, and a chat's "we", are read as before
    ("We got a PS5 for the kids.", ["User and others got a PS5 for the kids."]),
    ("We drove the M25 to Heathrow.", ["User and others drove the M25 to Heathrow."]),
]


@pytest.mark.parametrize(("note", "expected"), REGISTER)
def test_a_name_only_the_trade_spells_makes_a_note(note: str, expected: list[str]) -> None:
    assert [f.content for f in offline.analyse(note, speaker=turns.OWNER).facts] == expected


def test_the_fresh_agent_notes_are_many_labelled_and_all_check() -> None:
    rows = json.loads(
        resources.files("engram").joinpath("data/agent_notes2.json").read_text("utf-8")
    )["notes"]
    assert len(rows) >= 120
    assert {r["fold"] for r in rows} == {"check"}  # never tuned on
    assert {r["register"] for r in rows} >= {"ops", "coding", "support", "data"}
    for row in rows:
        for words in row["expect"]:
            assert all(w in row["text"].lower() for w in words), row["id"]


JAN = "2025-01-06T09:00:00+00:00"
FEB = "2025-02-06T09:00:00+00:00"


def _relations(mem: Memory, user: str, current_only: bool = True) -> set[tuple[str, str, str]]:
    found = mem.graph.relations(user_id=user, current_only=current_only)
    return {(r.source, r.relation_type, r.target) for r in found}


@pytest.mark.parametrize("linker_on", [True, False])
def test_a_mined_chats_graph_closes_its_change_and_records_no_junk_end(
    config: Config, store_location: str, linker_on: bool
) -> None:
    # The windows read each turn with its speaker ("Derek lives_in Leeds"); recorded raw,
    # "Derek lives_in Leeds" stayed open beside "Derek lives_in York", and "no longer
    # Joost" became an entity. With the inline linker off, the palace's path alone.
    cfg = replace(config, pipeline=replace(config.pipeline, linker=linker_on))
    with Memory(store_location, config=cfg, embedder=HashEmbedder()) as mem:
        _mine_a_move(mem)


def _mine_a_move(mem: Memory) -> None:
    messages = [
        {"role": "Derek", "content": "I live in Leeds.", "created_at": JAN},
        {"role": "Derek", "content": "My manager is no longer Joost.", "created_at": JAN},
        {"role": "assistant", "content": "Noted: he likes sake in Osaka.", "created_at": JAN},
        {"role": "Derek", "content": "I moved to York, I live in York now.", "created_at": FEB},
    ]
    mem.palace.mine_conversation(messages, wing="chats", graph=True, user_id="derek")
    now = _relations(mem, "derek")
    assert ("Derek", "lives_in", "York") in now
    assert ("Derek", "lives_in", "Leeds") not in now  # closed by the move
    assert ("Derek", "lives_in", "Leeds") in _relations(mem, "derek", current_only=False)
    every = _relations(mem, "derek", current_only=False)
    assert not [r for r in every if "no longer" in r[2]], every
    assert not [r for r in every if r[0] in ("he", "Noted")], every
    names = {e.name for e in mem.graph.entities(user_id="derek")}
    assert "no longer Joost" not in names


def test_a_mined_note_and_an_added_note_give_one_graph(mem: Memory) -> None:
    # One gate: the same note mined with graph=True and added with mem.add leaves the
    # same relations.
    note = "Ken moved to Osaka; Ken lives in Osaka now. Decided: no ORM for the reports."
    mem.add(note, user_id="added")
    mem.palace.mine_conversation(
        [{"role": "user", "content": note}], wing="notes", graph=True, user_id="mined"
    )
    assert _relations(mem, "mined") == _relations(mem, "added")
    assert "Decided" not in {e.name for e in mem.graph.entities(user_id="mined")}


def test_an_agents_notes_through_mem_add_name_no_program_and_no_user(mem: Memory) -> None:
    notes = [
        "Jest: Cannot find module '@/utils/date' from 'src/components/Calendar.tsx'",
        "Decided: no ORM for the reporting queries, plain SQL in .sql files.",
        "We will use UUIDv7 for new primary keys.",
        "KeyError: 'tenant_id'",
    ]
    for note in notes:
        mem.add(note, user_id="agent")
    mem.jobs.process_pending()
    facts = [r.content for r in mem.get_all(user_id="agent") if r.who == PIPELINE_WHO]
    assert facts == ["The team will use UUIDv7 for new primary keys."]
    entities = {e.name: e.entity_type for e in mem.graph.entities(user_id="agent")}
    assert not {"Jest", "Decided", "KeyError"} & set(entities), entities
    assert [r for r in mem.graph.relations(user_id="agent") if r.source == "Decided"] == []
