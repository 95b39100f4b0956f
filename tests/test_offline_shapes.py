"""Sentence shapes the offline extractor misread, found on LoCoMo fold B (issue 28,
sixth pass; docs/benchmarks.md, offline extraction, experiments 38-...)."""

from __future__ import annotations

from engram.pipeline import offline_forms
from engram.pipeline.offline import analyse


def read(text: str, before: str | None = None) -> list[tuple[str, str]]:
    return [(f.content, f.rule) for f in analyse(text, before=before).facts]


def test_a_preference_needs_only_two_content_words() -> None:
    assert read("Priya: I hate missing practice.") == [
        ("Priya hates missing practice.", "preference")
    ]
    # Other short first-person sentences stay under the bar (experiments 11 and 20).
    assert read("Priya: I got promoted!") == []


def test_a_gerund_subject_finds_its_verb_past_the_seventh_word() -> None:
    assert read("Omar: Walking the old town and trying all the bakeries was lovely.") == [
        ("Omar says walking the old town and trying all the bakeries was lovely.", "opinion")
    ]
    assert offline_forms.gerund_tense("Finding a flat near the river and the park is hard") == (
        "present"
    )
    assert offline_forms.gerund_tense("Morning walks are lovely") is None


def test_pointers_inside_the_fact_are_no_pointers() -> None:
    assert read("Omar: I baked a lemon tart with mint on it last week.") == [
        ("Omar baked a lemon tart with mint on it last week.", "first_person")
    ]
    assert read("Omar: I'm joining a new chess club after this next term.") != []
    assert read("Omar: I'll always treasure those trips that we took as kids.") != []
    # After a person or an amount, "it" still points at another turn.
    assert read("Omar: I told my mom about it yesterday.") == []
    assert read("Omar: I put a lot of effort into it.") == []


def test_a_view_whose_first_word_names_no_one_is_loose() -> None:
    facts = analyse("Omar: Then I have no doubt the garden will thrive.").facts
    assert [(f.rule, f.confidence) for f in facts] == [("loose_opinion", 0.4)]
    assert offline_forms.opinion_rule("Invest in a good chair") == "loose_opinion"
    assert offline_forms.opinion_rule("Paris is lovely in spring") == "opinion"
    assert offline_forms.opinion_rule("Even small things matter") == "opinion"


def test_lead_ins_and_a_time_opening_are_not_the_subject() -> None:
    assert read("Omar: For me I just sketch birds in the park.") == [
        ("Omar just sketches birds in the park.", "first_person")
    ]
    assert read("Omar: It's true, gardens have a way of slowing people down.") == [
        ("Omar thinks gardens have a way of slowing people down.", "opinion")
    ]
    assert [
        f.rule for f in analyse("Omar: After that, we hiked up to the old lighthouse.").facts
    ] == ["group_event"]
    assert read("Omar: This week has been packed with rehearsals for me.") == [
        ("This week has been packed with rehearsals for Omar.", "self_mention")
    ]


def test_a_plan_or_a_liking_without_its_i() -> None:
    assert read("Omar: Can't wait to show my sister the new garden!") == [
        ("Omar can't wait to show their sister the new garden.", "elided")
    ]
    assert read("Omar: Love experimenting with sourdough.") == [
        ("Omar loves experimenting with sourdough.", "preference")
    ]
    # Praise of what the other speaker shows, and a plan that leans on another turn.
    assert read("Omar: Love the necklace!") == []
    assert read("Omar: Can't wait to see it!") == []


def test_it_before_an_adjective_and_a_verb_in_ing_stands_for_that_clause() -> None:
    assert read("Omar: It's always fun experimenting with new glazes.") == [
        ("Omar thinks it's always fun experimenting with new glazes.", "opinion")
    ]
    # An adjective in -ing after "it's" rates a thing named elsewhere.
    assert read("Omar: It's truly amazing and comforting.") == []
    assert read("Omar: It's a learning curve for sure.") == []


def test_your_thing_in_the_speakers_own_plan_is_the_listeners() -> None:
    before = "Omar: I baked a rye loaf with caraway this morning."
    assert read("Lena: I'm keen to try your recipe.", before) == [
        ("Lena is keen to try Omar's recipe.", "yours")
    ]
    # With no turn before, the name the turn addresses is the listener.
    assert read("Lena: Hey Omar! I borrowed your old tent and camped by the lake.") == [
        ("Lena borrowed Omar's old tent and camped by the lake.", "yours")
    ]
    # A reaction to the listener's thing, and "you" elsewhere, give nothing.
    assert read("Lena: I love your recipes.", before) == []
    assert read("Lena: I'm keen to try your recipe if you send it.", before) == []


def test_a_name_answering_which_or_any_favorite() -> None:
    assert read("Lena: The Harbour Hawks!", "Omar: Congrats! Which club did you sign with?") == [
        ("Lena signed with The Harbour Hawks.", "answer")
    ]
    asked = "Omar: Do you have any favorite board games as well?"
    assert read("Lena: Definitely Carcassonne!", asked) == [
        ("Lena's favorite board game is Carcassonne.", "answer")
    ]
    # A bare yes names no favorite.
    assert read("Lena: Yeah!", asked) == []


def test_this_is_my_thing_with_a_photo_is_a_photo_shared() -> None:
    assert read("Omar: This is my record collection so far. [image: a photo of a shelf]") == [
        ("Omar shared a pic of their record collection so far.", "shared")
    ]
    # Without a photo "this" may be anything ("This is my first time").
    assert read("Omar: This is my record collection so far.") == []


def test_it_after_add_or_read_stands_for_the_one_title_named() -> None:
    before = 'Omar: I just finished "The Salt Road" and it was gripping!'
    assert read("Lena: Sounds great. I'll add it to my list.", before) == [
        ('Lena will add "The Salt Road" to Lena\'s list.', "coref")
    ]
    assert read("Lena: Lisbon sounds lovely! Definitely adding it to my list.") == [
        ("Lena is adding Lisbon to their list.", "coref")
    ]
    # Two titles: which one?
    two = 'Omar: I loved "The Salt Road" and "Winter Bees".'
    assert read("Lena: I'll add it to my list.", two) == []


def test_a_gerund_subject_with_a_modal_or_being() -> None:
    assert read("Omar: Setting a routine and sticking to it can really help people.") == [
        ("Omar thinks setting a routine and sticking to it can really help people.", "opinion")
    ]
    assert read("Omar: Being near the sea creates a sense of calm.") == [
        ("Omar thinks being near the sea creates a sense of calm.", "opinion")
    ]
