"""issue 24 (K1, dropped): scripts/wn22_wordnet.py's reader and category terms, and
scripts/wn22_lexicon.py's leg, which the measurements in docs/benchmarks.md ("K1: a
lexical knowledge base") rest on. The database is round three's few lines in WordNet's
own format, with CRLF line ends (so a synset's offset is not its byte offset)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import import_script
from engram.bench.dataset import Question, Turn
from test_facts_leg_script import _hit, one_conversation
from test_recall_links_script import _database


@pytest.fixture(scope="module")
def wordnet() -> Any:
    return import_script("wn22_wordnet")


@pytest.fixture(scope="module")
def leg() -> Any:
    return import_script("wn22_lexicon")


def test_the_reader_finds_synsets_by_line_not_byte_offset(wordnet: Any, tmp_path: Path) -> None:
    wn = wordnet.WordNet(_database(tmp_path))
    [swimming] = wn.synsets("swimming", "n")
    assert swimming.lemmas == ("swimming",)
    assert list(swimming.related("@")) == [("n", 20)]
    # morphy: the exception list first, then the suffix rules; a word it lacks has none
    assert wn.bases("geese", "n") == ["goose"]
    assert wn.bases("shoes", "n") == ["shoe"]
    assert wn.bases("swam", "v") == ["swim"]
    assert wn.synsets("pottery", "n") == []


def test_a_folder_without_the_database_says_what_to_pass(wordnet: Any, tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="not a WordNet database directory.*--wordnet"):
        wordnet.WordNet(tmp_path)


def test_terms_climb_hypernyms_places_and_a_verbs_nouns(wordnet: Any, tmp_path: Path) -> None:
    wn = wordnet.WordNet(_database(tmp_path))
    deep = wordnet.Lexicon(wn, levels=3, senses=1)
    shallow = wordnet.Lexicon(wn, levels=2, senses=1)
    assert "activity" in deep.terms("Melanie: I'm off to go swimming with the kids")
    assert "activity" not in shallow.terms("Melanie: I'm off to go swimming")  # 3 steps up
    # an instance's class and the place it is part of
    assert {"tampa", "city", "florida"} <= deep.terms("We drove through Tampa")
    # "swam" -> swim (verb) -> swimming (the noun it derives) -> ... -> activity
    assert "activity" in deep.terms("Melanie: I swam a lot")
    nouns_only = wordnet.Lexicon(wn, levels=3, senses=1, verbs=False)
    assert "activity" not in nouns_only.terms("Melanie: I swam a lot")
    # the speaker's name is not looked up
    assert deep.terms("Shoe: hello") == frozenset()


def test_the_category_word_of_a_question(wordnet: Any, tmp_path: Path) -> None:
    lexicon = wordnet.Lexicon(wordnet.WordNet(_database(tmp_path)), levels=3, senses=1)
    assert lexicon.category("What activities does Melanie partake in?") == "activity"
    assert lexicon.category("What kind of sport does John like?") == "sport"
    assert lexicon.category("Which cities has Jon visited?") == "city"
    assert lexicon.category("What did Caroline research?") is None


TURNS = [Turn(f"D{s}:1", f"D{s}", f"Melanie: turn of session {s}") for s in range(1, 7)] + [
    Turn("D7:1", "D7", "Melanie: I'm off to go swimming with the kids.")
]
QUESTION = Question(
    "q1", "What activities does Melanie partake in?", "multi-hop",
    frozenset({"D1:1", "D7:1"}), frozenset({"D1", "D7"}),
)  # fmt: skip
DATASET = one_conversation(TURNS, QUESTION)


def _cached() -> dict[str, Any]:
    vectors = np.eye(8, dtype=np.float32)[:7]
    return {
        "turn_ids": [t.id for t in TURNS],
        "turn_conv": ["conv-26"] * len(TURNS),
        "turn_text": [t.text for t in TURNS],
        "turn_vectors": vectors,
        "questions": vectors[6:7],  # nearest the swimming turn
        "terms": {},
    }


def test_the_leg_lifts_a_match_from_outside_the_cached_hits(
    leg: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(leg, "WORDNET", [str(_database(tmp_path))])
    monkeypatch.setattr(leg, "_WORDNET", [])
    monkeypatch.setattr(leg, "_LEXICONS", {})
    # The cached ranking holds sessions 1 to 6; the gold D7:1 is not among the hits.
    hits = [_hit(f"D{s}:1", f"D{s}", 1.0 - s / 10) for s in range(1, 7)]
    rows = [{"conv": "conv-26", "question": QUESTION, "hits": hits}]
    cats = [leg.category(QUESTION.text)]
    assert cats == ["activity"]

    def r5(setting: Any) -> float:
        scored = leg.score(DATASET, rows, _cached(), setting, cats)
        return float(scored["A"]["multi-hop"][0]["session_r@5"])

    assert r5(None) == 0.5
    lift = leg.Leg(w=2.0, k=1, depth=1, levels=3, senses=1)  # D7:1 gains 1.0
    assert r5(lift) == 1.0
    assert r5(replace(lift, only="new")) == 1.0  # D7 is outside the first 5 sessions
    assert r5(replace(lift, only="hits")) == 0.5  # a reorder of the hits cannot reach it
    assert r5(replace(lift, levels=2)) == 0.5  # activity is 3 steps above swimming
    assert r5(replace(lift, w=0.01)) == 0.5  # too small a gain to pass the fifth session
