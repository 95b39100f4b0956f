"""The write path's rules made cheaper without changing what they decide (issue 29,
rules26): the trie prefilters find what the plain alternations find, and the work the
rules repeat (a relation's canonical type, a slot type's words, a sentence's trimmed
opening, a type's name pattern) is done once."""

from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from engram.pipeline import (
    change_accounts,
    change_firsts,
    change_signals,
    change_slots,
    change_words,
    offline,
    offline_asks,
    patterns,
    relation_ends,
    vocabulary,
)
from engram.pipeline.prefilter import Gated, any_literal, gated, needed_literals
from engram.store.protocols.graph import Relation, canonical_relation


def _plain(words: list[str]) -> re.Pattern[str]:
    return re.compile("|".join(map(re.escape, words)))


def test_any_literal_finds_what_the_plain_alternation_finds() -> None:
    rng = random.Random(26)
    alphabet = "abc .'-*(|"
    for _ in range(300):
        words = ["".join(rng.choices(alphabet, k=rng.randint(1, 4))) for _ in range(6)]
        words += [words[0] + "x", words[1][:1]]  # a word a prefix of another
        fast, plain = any_literal(words), _plain(words)
        for _ in range(20):
            text = "".join(rng.choices(alphabet + "x", k=rng.randint(0, 20)))
            assert (fast.search(text) is None) == (plain.search(text) is None), (words, text)


def test_any_literal_refuses_what_would_match_everything() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        any_literal(["mov", ""])
    with pytest.raises(ValueError, match="at least one"):
        any_literal([])


def test_the_change_readers_gate_is_the_rules_own_words() -> None:
    # The gate of ``change_signals.read`` is built from the rules' word lists: it
    # passes a clause exactly when the plain alternation of those lists does.
    words = [
        w
        for ws in (
            change_signals._REPLACE_WORDS,
            change_signals.change_plain.SOLD_WORDS,
            change_signals._JOIN_WORDS,
            change_signals._MOVE_WORDS,
            change_signals._NEW_WORDS,
            change_signals.change_things.WORDS,
            change_signals.change_habits.WORDS,
            change_signals._ATTRIBUTE_WORDS,
            change_signals._WITH_WORDS,
            *(ws for _, _, ws in change_signals._STATIVE),
        )
        for w in ws
    ]
    plain = _plain(words)
    clauses = [
        " we moved billing to postgres ",
        " i had a lovely day at the beach ",
        " my sister's new car is red ",
        " nothing to see here ",
        " switched from classic to the veggie plan ",
        " she went with the blue one ",
    ]
    for clause in clauses:
        got = change_signals._ANY_WORD.search(clause) is None
        assert got == (plain.search(clause) is None), clause
    decision = _plain([w for ws in patterns._DECISION_WORDS.values() for w in ws])
    for clause in [*clauses, " we decided to go with rust ", " i'll use vim "]:
        got = patterns._ANY_DECISION_WORD.search(clause) is None
        assert got == (decision.search(clause) is None), clause


def test_a_relations_canonical_type_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    category = vocabulary.category

    def counted(target: str) -> str | None:
        calls.append(target)
        return category(target)

    monkeypatch.setattr(vocabulary, "category", counted)
    vocabulary.canonical.cache_clear()
    first = vocabulary.canonical("moved to", "Postgres 16")
    for _ in range(5):
        assert vocabulary.canonical("moved to", "Postgres 16") == first
    assert first.relation_type == "uses_database"
    assert len(calls) == 1
    vocabulary.canonical.cache_clear()


def test_a_slot_types_words_are_made_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    words = change_firsts._words

    def counted(text: str) -> Any:
        calls.append(text)
        return words(text)

    monkeypatch.setattr(change_firsts, "_words", counted)
    change_firsts._type_words.cache_clear()
    change_firsts._type_names.cache_clear()
    now = datetime(2026, 11, 30, tzinfo=UTC)
    held = [
        Relation(
            i,
            "ns",
            f"Service {i}",
            "gateway_timeout",
            "30s",
            0.9,
            1,
            1.0,
            now,
            None,
            f"m{i}",
            now,
            i,
            100 + i,
        )  # fmt: skip
        for i in range(40)
    ]
    change_firsts.notes_changes("Gateway timeout raised to 90s", held)
    # Its own words and the vocabulary's name of it, once: before rules26 they were
    # made again for each of the forty relations.
    assert calls.count("gateway timeout") == 2, calls
    change_firsts._type_words.cache_clear()
    change_firsts._type_names.cache_clear()


def test_a_sentences_opening_is_trimmed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # A sentence that gives no fact as written is trimmed by ``_read`` and again by the
    # pointer resolution (``_resolved``): the second is the first's.
    seen: list[str] = []
    remember = offline_asks.REMEMBER_THAT

    class Counted:
        def sub(self, repl: str, text: str) -> str:
            seen.append(text)
            return remember.sub(repl, text)

    monkeypatch.setattr(offline_asks, "REMEMBER_THAT", Counted())
    offline._read.cache_clear()
    offline._trim_opening.cache_clear()
    offline.analyse("Caroline: Wow, that is so cool. Anyway.")
    assert seen, "the sentences were read"
    assert len(seen) == len(set(seen)), seen
    offline._read.cache_clear()
    offline._trim_opening.cache_clear()


def _named_type_reference(triple: tuple[str, str, str, float], text: str) -> Any:
    """``relation_ends._named_type`` as it was before rules26: a pattern built per call."""
    parts = canonical_relation(triple[1]).split("_")
    for cut in range(1, len(parts)):
        head, tail = parts[:cut], parts[cut:]
        pattern = (
            r"\b" + r"\s+".join(map(re.escape, head)) + r"\s+("
            + r"\s+".join(rf"(?-i:[A-Z]){re.escape(w[1:])}" for w in tail) + r")\b"
        )  # fmt: skip
        match = re.search(pattern, text, re.IGNORECASE)
        if match is not None and not match.group(1).isupper():
            return (triple[0], "_".join(head), match.group(1), triple[3])
    return None


@pytest.mark.parametrize(
    ("relation", "text"),
    [
        ("partner_sam", "My partner Sam starts on Monday"),
        ("partner_sam", "my PARTNER Sam starts on Monday"),
        ("partner_sam", "Sam is my partner"),
        ("best_friend_jo", "Her best friend Jo moved"),
        ("session_ttl", "the session TTL is 30m"),
        ("ſister_ann", "my ſister Ann"),  # not ASCII: every pattern is tried
        ("kid_max", "the \u212aid Max"),  # KELVIN SIGN folds to k under IGNORECASE
    ],
)
def test_a_types_name_pattern_reads_as_before(relation: str, text: str) -> None:
    triple = ("user", relation, "x", 0.7)
    assert relation_ends._named_type(triple, text) == _named_type_reference(triple, text)


def test_a_types_name_pattern_is_built_once() -> None:
    relation_ends._named_pattern.cache_clear()
    for _ in range(10):
        relation_ends._named_type(("user", "partner_sam", "x", 0.7), "My partner Sam")
    assert relation_ends._named_pattern.cache_info().misses == 1
    # A text without the type's words builds none.
    relation_ends._named_type(("user", "brother_ken", "x", 0.7), "nothing here at all")
    assert relation_ends._named_pattern.cache_info().misses == 1


def _statements() -> list[str]:
    """Every statement of the shipped change sets: the texts the gated rules are for."""
    data = Path(vocabulary.__file__).resolve().parent.parent / "data"
    found: list[str] = []
    for path in sorted(data.glob("changes*.json")):
        for story in json.loads(path.read_text()).get("stories", []):
            found += story.get("statements", [])
    return found


def _gates() -> list[tuple[str, Gated]]:
    found = []
    for module in (change_accounts, change_firsts, change_signals, change_slots, change_words):
        for name, value in vars(module).items():
            if isinstance(value, Gated):
                found.append((f"{module.__name__}.{name}", value))
    return found


def test_every_gated_rule_pattern_answers_as_its_pattern() -> None:
    gates = _gates()
    assert len(gates) >= 9
    texts = _statements()
    texts += [t.upper() for t in texts[:200]] + [t.replace("e", "é") for t in texts[:200]]
    texts += ["Plan → Premium now", "NOWADAYS we pay by card", "ſeats are new", "\u212aeys"]
    for name, gate in gates:
        assert gate.needs, f"{name} needs no literal: its gate skips nothing"
        for text in texts:
            want, got = gate.regex.search(text), gate.search(text)
            assert (want and want.span()) == (got and got.span()), (name, text)
            want, got = gate.regex.match(text), gate.match(text)
            assert (want and want.span()) == (got and got.span()), (name, text)


@pytest.mark.parametrize(
    ("pattern", "needs"),
    [
        (r"\b(?:also|too)\b", {"also", "too"}),
        (r"moved\s+to", {"moved"}),  # the longer of two runs
        (r"(?:ab)+c", {"ab"}),
        (r"(?:ab)?c", {"c"}),
        (r"(?:ab)?", None),  # may match nothing
        (r"a|b*", None),  # one branch needs nothing
        (r"(?<=x)yz", {"yz"}),  # a lookbehind reads but needs nothing of its own
        (r"→|->", {"→", "->"}),  # a symbol has no case: kept
        (r"ſeat", None),  # folds onto "s" under IGNORECASE: no gate
        (r"(?-i:Plus)", {"plus"}),
    ],
)
def test_needed_literals_are_read_from_the_patterns_tree(
    pattern: str, needs: set[str] | None
) -> None:
    got = needed_literals(re.compile(pattern, re.IGNORECASE))
    assert got == (None if needs is None else frozenset(needs))


def test_a_gate_skips_an_ascii_text_without_its_words_and_tries_any_other() -> None:
    gate = gated(re.compile(r"\bswitched\b", re.IGNORECASE))
    assert not gate.possible("we moved to Austin")
    assert gate.possible("We SWITCHED to Zed")
    assert gate.possible("café")  # not ASCII: the pattern decides
