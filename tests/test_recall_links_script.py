"""issue 24 (round three, knowledge links): scripts/links_leg.py's WordNet reader, its
words and the re-sort that the measurements in docs/benchmarks.md ("Round three:
knowledge links") rest on. The database here is a few lines in WordNet's own format."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from conftest import import_script
from engram.bench.dataset import Question, Turn
from test_facts_leg_script import (  # a dumped hit, as `engram bench` ingests a turn
    _hit,
    one_conversation,
)


@pytest.fixture(scope="module")
def script() -> Any:
    """The script as a module."""
    return import_script("links_leg")


# swimming -> water_sport -> sport -> activity; shoe -> footwear; Tampa is an instance
# of city and part of Florida; swim (verb) derives swimming.
NOUNS = {
    10: "swimming 0 1 @ 00000020 n 0000",
    20: "water_sport 0 1 @ 00000030 n 0000",
    30: "sport 0 1 @ 00000040 n 0000",
    40: "activity 0 0",
    50: "shoe 0 1 @ 00000060 n 0000",
    60: "footwear 0 0",
    70: "tampa 0 2 @i 00000080 n 0000 #p 00000090 n 0000",
    80: "city 0 0",
    90: "florida 0 0",
    95: "goose 0 0",
}
INDEX = {"swimming": [10], "water_sport": [20], "sport": [30], "activity": [40],
         "shoe": [50], "footwear": [60], "tampa": [70], "city": [80], "florida": [90],
         "goose": [95]}  # fmt: skip


def _database(folder: Path) -> Path:
    """The six files the reader opens, with CRLF line ends as the PyPI sdist has them."""

    def data(rows: dict[int, str]) -> str:
        lines = ["  1 This software and database is being provided"]
        for off, rest in rows.items():
            words, _, ptrs = rest.partition(" ")
            lex_id, _, ptrs = ptrs.partition(" ")
            lines.append(f"{off:08d} 05 n 01 {words} {lex_id} {ptrs} | a gloss")
        return "\r\n".join(lines) + "\r\n"

    def index(rows: dict[str, list[int]], pos: str) -> str:
        lines = ["  1 This software and database is being provided"]
        for lemma, offs in rows.items():
            lines.append(
                f"{lemma} {pos} {len(offs)} 0 {len(offs)} 0 " + " ".join(f"{o:08d}" for o in offs)
            )
        return "\r\n".join(lines) + "\r\n"  # fmt: skip

    (folder / "data.noun").write_text(data(NOUNS), "latin-1")
    (folder / "index.noun").write_text(index(INDEX, "n"), "latin-1")
    (folder / "noun.exc").write_text("geese goose\r\n", "latin-1")
    verbs = {500: "swim 0 1 + 00000010 n 0101"}
    (folder / "data.verb").write_text(data(verbs), "latin-1")
    (folder / "index.verb").write_text(index({"swim": [500]}, "v"), "latin-1")
    (folder / "verb.exc").write_text("swam swim\r\n", "latin-1")
    return folder


def test_wordnet_climbs_hypernyms_and_a_places_holonym(script: Any, tmp_path: Path) -> None:
    wn = script.WordNet(str(_database(tmp_path)))
    assert wn.links("swimming", 1, 3, False) == {"water", "sport", "activity"}
    assert wn.links("swimming", 1, 2, False) == {"water", "sport"}  # the depth holds
    assert wn.links("tampa", 1, 2, False) == {"city", "florida"}
    assert wn.links("pottery", 1, 5, False) == set()  # not in this database


def test_wordnet_reads_base_forms_and_verbs_reach_their_nouns(script: Any, tmp_path: Path) -> None:
    wn = script.WordNet(str(_database(tmp_path)))
    assert wn.base("shoes", "n") == ["shoe"]  # morphy's suffix rule
    assert wn.base("geese", "n") == ["goose"]  # the exception list
    assert wn.lemma("swam") == "swim"
    assert wn.links("shoes", 1, 2, False) == {"footwear"}
    assert wn.links("swam", 1, 3, False) == set()  # a verb without its derived noun
    assert "activity" in wn.links("swam", 1, 3, True)


def test_content_words_drop_the_speaker_and_stopwords(script: Any) -> None:
    text = "Melanie: I'm off to go swimming with the kids!"
    assert script.content_words(text) == ["i'm", "swimming", "kids"]
    # Without a "Speaker:" prefix the first word is content.
    assert script.content_words("Melanie went swimming") == ["melanie", "went", "swimming"]


TURNS = [Turn(f"D{s}:1", f"D{s}", f"Melanie: turn of session {s}") for s in range(1, 8)]
QUESTION = Question(
    "q1", "What activities does Melanie partake in?", "multi-hop",
    frozenset({"D1:1", "D7:1"}), frozenset({"D1", "D7"}),
)  # fmt: skip
DATASET = one_conversation(TURNS, QUESTION)


def test_the_leg_lifts_a_memory_from_outside_the_cached_hits(script: Any) -> None:
    # The cached ranking holds sessions 1 to 6; the gold D7:1 is not among the hits.
    hits = [_hit(f"D{s}:1", f"D{s}", 1.0 - s / 10) for s in range(1, 7)]
    rows = [{"conv": "conv-26", "question": QUESTION, "hits": hits}]
    base = script.score(DATASET, rows, None, None)["A"]["multi-hop"][0]["session_r@5"]
    assert base == 0.5
    leg = script.Leg(w=2.0, k=1.0, depth=1, queries="lists")  # D7:1 gains 1.0
    lifted = script.score(DATASET, rows, [[("D7:1", 0.9)]], leg)["A"]["multi-hop"][0]
    assert lifted["session_r@5"] == 1.0
    # Not a list question: the leg stays out.
    other = replace(QUESTION, text="Where does Melanie live?")
    rows2 = [{"conv": "conv-26", "question": other, "hits": hits}]
    kept = script.score(DATASET, rows2, [[("D7:1", 0.9)]], leg)["A"]["multi-hop"][0]
    assert kept["session_r@5"] == 0.5


def test_the_fold_rule(script: Any) -> None:
    base = [0.6, 0.5, 0.97, 0.99, 1.0, 0.91]
    turns = [0.3, 0.2, 0.76, 0.8, 0.79, 0.68]
    up = [0.65, 0.5, 0.97, 0.99, 1.0, 0.92]
    assert script.passes(base, up, turns, turns)
    assert not script.passes(base, [0.65, 0.49, 0.97, 0.99, 1.0, 0.92], turns, turns)
    assert not script.passes(base, [0.65, 0.5, 0.95, 0.99, 1.0, 0.92], turns, turns)
    worse_turns = [0.3, 0.2, 0.74, 0.8, 0.79, 0.68]
    assert not script.passes(base, up, turns, worse_turns)
    assert not script.passes(base, [0.65, 0.5, 0.97, 0.99, 1.0, 0.90], turns, turns)
