"""Sentence shapes the offline extractor misread, found on LoCoMo fold B (issue 28,
sixth pass; docs/benchmarks.md, offline extraction, experiments 38-50)."""

from __future__ import annotations

import pytest

from engram.pipeline import offline_forms
from engram.pipeline.offline import analyse

_TITLE = 'Omar: I just finished "The Salt Road" and it was gripping!'
_RECIPE = "Omar: I baked a rye loaf with caraway this morning."
_FAVORITE = "Omar: Do you have any favorite board games as well?"

# (text, the turn before, the facts it gives as (content, rule)); [] where it gives none.
CASES = [
    # 38: a preference needs only two content words; other short sentences do not pass.
    ("Priya: I hate missing practice.", None, [("Priya hates missing practice.", "preference")]),
    ("Priya: I got promoted!", None, []),
    # 39 and 50: a gerund subject's verb past the seventh word, a modal, or "Being".
    (
        "Omar: Walking the old town and trying all the bakeries was lovely.",
        None,
        [("Omar says walking the old town and trying all the bakeries was lovely.", "opinion")],
    ),
    (
        "Omar: Setting a routine and sticking to it can really help people.",
        None,
        [("Omar thinks setting a routine and sticking to it can really help people.", "opinion")],
    ),
    (
        "Omar: Being near the sea creates a sense of calm.",
        None,
        [("Omar thinks being near the sea creates a sense of calm.", "opinion")],
    ),
    # 40: pointers inside the fact; after a person or an amount "it" still points out.
    (
        "Omar: I baked a lemon tart with mint on it last week.",
        None,
        [("Omar baked a lemon tart with mint on it last week.", "first_person")],
    ),
    ("Omar: I told my mom about it yesterday.", None, []),
    ("Omar: I put a lot of effort into it.", None, []),
    # 42: lead-ins, and a time where a pointer would be.
    (
        "Omar: For me I just sketch birds in the park.",
        None,
        [("Omar just sketches birds in the park.", "first_person")],
    ),
    (
        "Omar: It's true, gardens have a way of slowing people down.",
        None,
        [("Omar thinks gardens have a way of slowing people down.", "opinion")],
    ),
    (
        "Omar: This week has been packed with rehearsals for me.",
        None,
        [("This week has been packed with rehearsals for Omar.", "self_mention")],
    ),
    # 43: a plan or a liking without its "I"; praise of what is shown gives nothing.
    (
        "Omar: Can't wait to show my sister the new garden!",
        None,
        [("Omar can't wait to show their sister the new garden.", "elided_plan")],
    ),
    (
        "Omar: Love experimenting with sourdough.",
        None,
        [("Omar loves experimenting with sourdough.", "preference")],
    ),
    ("Omar: Love the necklace!", None, []),
    ("Omar: Can't wait to see it!", None, []),
    # 44: "it's" + an adjective + a verb in -ing; an adjective in -ing is a pointer.
    (
        "Omar: It's always fun experimenting with new glazes.",
        None,
        [("Omar thinks it's always fun experimenting with new glazes.", "opinion")],
    ),
    ("Omar: It's truly amazing and comforting.", None, []),
    ("Omar: It's a learning curve for sure.", None, []),
    # 45: "your X" in the speaker's own plan; the listener is who spoke before, else the
    # name addressed; a reaction, or "you" elsewhere, gives nothing.
    (
        "Lena: I'm keen to try your recipe.",
        _RECIPE,
        [("Lena is keen to try Omar's recipe.", "yours")],
    ),
    (
        "Lena: Hey Omar! I borrowed your old tent and camped by the lake.",
        None,
        [("Lena borrowed Omar's old tent and camped by the lake.", "yours")],
    ),
    ("Lena: I love your recipes.", _RECIPE, []),
    ("Lena: I'm keen to try your recipe if you send it.", _RECIPE, []),
    # 46: a name answering "which X did you V?" or "any favorite X?"; a yes names none.
    (
        "Lena: The Harbour Hawks!",
        "Omar: Congrats! Which club did you sign with?",
        [("Lena signed with The Harbour Hawks.", "answer")],
    ),
    (
        "Lena: Definitely Carcassonne!",
        _FAVORITE,
        [("Lena's favorite board game is Carcassonne.", "answer")],
    ),
    ("Lena: Yeah!", _FAVORITE, []),
    # 47: "This is my X" with a photo; without one "this" may be anything.
    (
        "Omar: This is my record collection so far. [image: a photo of a shelf]",
        None,
        [("Omar shared a pic of their record collection so far.", "shared")],
    ),
    ("Omar: This is my record collection so far.", None, []),
    # 48: "it" after add/read ... is the one title or name named; two titles refuse.
    (
        "Lena: Sounds great. I'll add it to my list.",
        _TITLE,
        [('Lena will add "The Salt Road" to Lena\'s list.', "coref")],
    ),
    (
        "Lena: Lisbon sounds lovely! Definitely adding it to my list.",
        None,
        [("Lena is adding Lisbon to their list.", "coref")],
    ),
    ("Lena: I'll add it to my list.", 'Omar: I loved "The Salt Road" and "Winter Bees".', []),
    # 58 (seventh pass): a first sentence with "I" dropped before a verb in -ing answers
    # the question before; without a question, or later in the message, it stays weak.
    (
        "Lena: Restoring an old fishing boat with my dad.",
        "Omar: Any plans for the spring?",
        [("Lena is restoring an old fishing boat with Lena's dad.", "answer")],
    ),
    (
        "Lena: Restoring an old fishing boat with my dad.",
        "Omar: I went sailing last week.",
        [("Lena is restoring an old fishing boat with Lena's dad.", "elided")],
    ),
    (
        "Lena: Thanks! Restoring an old fishing boat with my dad.",
        "Omar: Any plans for the spring?",
        [("Lena is restoring an old fishing boat with Lena's dad.", "elided")],
    ),
]


@pytest.mark.parametrize(("text", "before", "facts"), CASES)
def test_reads(text: str, before: str | None, facts: list[tuple[str, str]]) -> None:
    assert [(f.content, f.rule) for f in analyse(text, before=before).facts] == facts


def test_the_helpers_of_the_shapes() -> None:
    assert offline_forms.gerund_tense("Finding a flat near the river and the park is hard") == (
        "present"
    )
    assert offline_forms.gerund_tense("Morning walks are lovely") is None
    assert read_rule("Omar: I'm joining a new chess club after this next term.") != []
    assert read_rule("Omar: I'll always treasure those trips that we took as kids.") != []


def read_rule(text: str) -> list[str]:
    return [f.rule for f in analyse(text).facts]


def test_a_view_whose_first_word_names_no_one_is_loose() -> None:
    facts = analyse("Omar: Then I have no doubt the garden will thrive.").facts
    assert [(f.rule, f.confidence) for f in facts] == [("loose_opinion", 0.4)]
    assert offline_forms.opinion_rule("Invest in a good chair") == "loose_opinion"
    assert offline_forms.opinion_rule("Paris is lovely in spring") == "opinion"
    assert offline_forms.opinion_rule("Even small things matter") == "opinion"
    assert read_rule("Omar: After that, we hiked up to the old lighthouse.") == ["group_event"]
