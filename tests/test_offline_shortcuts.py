"""The offline extractor's shortcuts (checks that skip a slow pattern when it cannot
match) give exactly what running every pattern gives."""

from __future__ import annotations

import pytest

from engram.pipeline import offline, offline_confidence, patterns, person

SAMPLES = [
    "Caroline went to the LGBTQ support group yesterday and loved it.",
    "I moved to Berlin three years ago, and we've been happy since.",
    "Ian said I'd finished the 5k in 30 minutes; Augustus thinks our team won.",
    "We're switching to Postgres, and we'll stick with it.",
    "Thanks for the pie, Mel!",
    "The kids look cute, Mel!",
    "I made these cookies this weekend with my mom.",
    "I baked this cake for my sister.",
    "Ourselves and myself, mine and US: WE'D never decided against it.",
    "I went to the café in Zürich last week.",
    "Joanna ſaw uſ at the ſtore, two ſisters, ſince June.",  # long s: IGNORECASE folds it
    "Mſ Kelvin: \u212aeep it. I'm \u212aate.",
    "After testing both, we went with Postgres over MySQL.",
    "No digits here and nothing dated.",
    "Ten dogs, a dozen cats.",
    "I can't stand spiders, Jon,\nyou know",
]


def _resolve_slowly(sentence: str, name: str) -> str:
    """``resolve_person`` with every substitution applied (no shortcut)."""
    text = person._SLANG.sub(lambda m: person._SLANG_FORMS[m.group(0).lower()], sentence)
    for pattern, replacement, _ in person._CONTRACTIONS:
        text = pattern.sub(replacement.format(n=name), text)
    text = person._I_VERB.sub(
        lambda m: f"{name} {m.group(1)}{person._third_person(m.group(2))}", text
    )
    text = person._I.sub(name, text)
    text = person._WE_US.sub(f"{name} and others", text)
    text = person._OUR.sub(f"{name}'s", text)
    text = person._MINE.sub(f"{name}'s", text)
    text = person._REFLEXIVE.sub("themself", text)
    return person._possessives(text, name)


@pytest.mark.parametrize("text", SAMPLES)
@pytest.mark.parametrize("name", ["Jon", "Ian", "Augustus", "Wes"])
def test_resolve_person_matches_every_substitution(text: str, name: str) -> None:
    assert person.resolve_person(text, name) == _resolve_slowly(text, name)


@pytest.mark.parametrize("text", SAMPLES)
def test_anchored_matches_both_patterns(text: str) -> None:
    expected = bool(patterns.DATE.search(text) or patterns.QUANTITY.search(text))
    assert offline_confidence.is_anchored(text) is expected


@pytest.mark.parametrize("text", SAMPLES)
def test_decisions_match_every_pattern(text: str) -> None:
    expected = []
    for clause in patterns._CLAUSE_END.split(text):
        if clause.rstrip().endswith("?"):
            continue
        for p in patterns.DECISION_PATTERNS:
            if p.name not in expected and any(
                not patterns._negated(clause, m.start()) for m in p.regex.finditer(clause)
            ):
                expected.append(p.name)
    assert sorted(patterns.decision_matches(text)) == sorted(expected)


@pytest.mark.parametrize("text", SAMPLES)
def test_trailing_vocative_and_shown_shortcuts(text: str) -> None:
    shortcut = (
        offline._TRAILING_VOCATIVE.sub(r"\1\2", text)
        if "," in text and offline._VOCATIVE_TAIL.match(text, text.rfind(","))
        else text
    )
    assert shortcut == offline._TRAILING_VOCATIVE.sub(r"\1\2", text)
    if text.isascii() and "this" not in text.lower() and "these" not in text.lower():
        assert offline._SHOWN.search(text) is None
        assert offline._indefinite(text) == text


DECISIONS = {
    "chose_over": "We chose Redis over Memcached.",
    "decided": "We decided to use Go.",
    "switched": "We switched to Rust.",
    "migrated": "We migrated the billing service to AWS.",
    "picked_over": "We picked Vue over React.",
    "went_with": "We went with Postgres.",
    "sticking_with": "We are sticking with Python.",
    "committed_to": "We committed to GraphQL.",
    "settled_on": "We settled on Kafka.",
    "will_use": "We'll use Terraform.",
    "prefers_over": "She prefers tea over coffee.",
    "adopted": "The team adopted Kubernetes.",
    "architecture": "It was an architecture decision.",
    "design": "A design decision was made.",
}


@pytest.mark.parametrize("name", [p.name for p in patterns.DECISION_PATTERNS])
@pytest.mark.parametrize("case", [str, str.upper])
def test_each_decision_pattern_still_fires(name: str, case: object) -> None:
    text = case(DECISIONS[name])  # type: ignore[operator]
    assert name in patterns.decision_matches(text)
    assert name in patterns.decision_matches(text.replace(".", " é."))  # non-ASCII path


def _names_of_whole_text(text: str) -> list[str]:
    """``patterns.proper_names`` read over the whole text at once (no sentence cuts, no
    cache): the per-piece reader applied to all of it."""
    return list(patterns._sentence_names.__wrapped__(text))


NAMED = [
    *SAMPLES,
    "Jon: I met Dr. Smith. Smith said Bank of America. BANK OF AMERICA! bank Of America?",
    "Caroline: Went to New York.  New York was great!\nParis next. Later, Melanie: Paris? Yes.",
    "  Leading space. Xenoblade Chronicles is fun.Valorant\tTournament! Mr. Jones? Jones.",
    "Ends with a name Gina.\n\nGina! gina... Gina's dog Max. max. MAX",
    "Dr. Who? The Doctor. “Quoted Name.” (Parens Here) end.",
]


@pytest.mark.parametrize("text", NAMED)
def test_proper_names_read_by_sentence_match_the_whole_text(text: str) -> None:
    assert patterns.proper_names(text) == _names_of_whole_text(text)


@pytest.mark.parametrize("text", NAMED)
def test_analyse_reads_a_repeat_from_its_cache_the_same(text: str) -> None:
    offline._read.cache_clear()
    offline._triples.cache_clear()
    first = offline.analyse(text)
    assert offline.analyse(text) == first
    assert offline.analyse(text, speaker="Nate") == offline.analyse(text, speaker="Nate")
