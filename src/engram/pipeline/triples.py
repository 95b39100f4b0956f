"""Entity triples a resolved fact states outright (step 5 of the offline extractor,
:mod:`engram.pipeline.offline`): "Alice works at Google" -> ``(Alice, works_at,
Google)``, "Jon's favorite style is contemporary" -> ``(Jon, favorite_style,
contemporary)``, each target cut to its noun phrase (:func:`noun_phrase`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engram.pipeline.patterns import ADDRESS, FILLERS, word_set
from engram.text import STOPWORDS


@dataclass(frozen=True, slots=True)
class Relation:
    """An entity triple a sentence states: ``source --relationship--> target``."""

    source: str
    relationship: str
    target: str
    confidence: float


_SUBJECT = r"(?P<s>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}?)"
_GAP = r"(?:\s+(?:\w+ly|also|just|still|recently|finally|now|even|already|and\s+others))*"
#: Words a target noun phrase never includes: it ends before them.
_NP_STOP = word_set(
    """
    and but so because which who whom that to for with in on at from when where while since
    after before as than or if yesterday today tonight tomorrow last next this ago recently
    soon lately now then too also again already though although until during into by
    about is was are were be been has have had will would can could it like this
    around btw tbh lol haha anyway honestly mostly
    """
)
# "around 1200 quid", "about $40": a hedge before an amount is no part of it; "called
# Gerald", "named Pip": the name is the phrase (task x22, mined chats).
_BEFORE_PHRASE = re.compile(
    r"^(?:(?i:around|about|roughly|approximately|nearly|almost|over|under|just|only|like)"
    r"\s+(?=[$€£]?\d)|(?i:called|named|known\s+as)\s+(?=[A-Z]))"
)
# An amount ("$1500", "15000", "22.04") and a title ("Dr.") are one word each, as the
# change reader reads them (``change_words.phrase``): "User's rent is $1500" has the
# target "$1500", not "$", and "User's dentist is Dr. Patel" "Dr Patel", not "Dr". A
# dotted acronym is one word too, named without its last dot as the change reader
# names it: "My favourite artist is R.E.M. now" has the target "R.E.M", not "R".
_NP_WORDS = re.compile(
    rf"{ADDRESS}|"
    r"[$€£]?\d[\d,.]*\d\w*|[$€£]?\d\w*|(?:Dr|Mr|Mrs|Ms|Prof)\.|[A-Za-z](?:\.[A-Za-z])+\b"
    r"|[A-Za-z][\w'-]*|\S"
)
_NP_START = re.compile(r"[\w$€£]")
_TITLE_DOT = re.compile(r"(?<=[a-z])\.$")
_AMOUNT = re.compile(r"[$€£]?\d")
_RATE_WORDS = frozenset({"a", "an", "per", "each", "every"})
_NOW_WORDS = frozenset({"new", "current", "latest", "present"})
_DETERMINERS = re.compile(
    r"^(?:(?:(?i:a|an|the)|some|all|every|any|many|several|most|both|his|her|their|its|this|"
    r"that|these|those|my|our|[A-Z][\w'-]*'s)\s+)+"
)
_NOT_TARGETS = word_set(
    "it them him her this that one something everything anything lot bit thing things "
    "way time me us you there here"
)
_COUNT_WORDS = word_set(
    "one two three four five six seven eight nine ten eleven twelve twenty thirty fifty "
    "hundred thousand few several couple"
)
# "had a great time", "took a shot": a phrase headed by these names no entity.
_VAGUE_HEADS = word_set(
    "time blast lot bit way chance idea feeling moment experience day thing things fun "
    "look go shot break question part kind sort ton bunch couple job"
)

# (relationship, verb pattern, confidence); the relationship "{attr}" takes the
# attribute named in the sentence ("Jon's favorite style is contemporary").
_RELATIONS: tuple[tuple[str, str, float], ...] = (
    ("works_at", r"(?:works|is\s+working|has\s+been\s+working)\s+(?:at|for)", 0.75),
    # The past says where someone was, not that they left where they are: below the
    # closing plan's MIN_CLOSING_CONFIDENCE (0.65), "I lived in Lyon for 3 years" is
    # recorded without closing the home said before (task extract20).
    ("works_at", r"worked\s+(?:at|for)", 0.6),
    ("lives_in", r"lived\s+in", 0.6),
    ("lives_in", r"(?:lives|is\s+living)\s+in", 0.75),
    ("moved_to", r"(?:moved|is\s+moving|relocated)\s+(?:back\s+)?to", 0.75),
    # "Grandma moved in with Aunt Rosa in York": where she lives is the place, not Rosa
    ("moved_to", r"moved\s+in\s+with\s+(?:[\w'’]+\s+){1,3}?in(?=\s+[A-Z])", 0.75),
    ("moved_from", r"moved\s+(?:here\s+|away\s+)?from", 0.7),
    ("married", r"(?:married|is\s+married\s+to|got\s+married\s+to)", 0.75),
    ("born_in", r"was\s+born\s+in", 0.75),
    ("from", r"(?:is|was|comes)\s+(?:originally\s+)?from", 0.65),
    ("attended", r"(?:went|goes|is\s+going)\s+to\s+(?=(?:a|an|the|some)\s)", 0.7),
    (
        "visited",
        r"(?:visited|went\s+to|has\s+been\s+to|traveled\s+to|travelled\s+to)"
        r"(?=\s+[A-Z])",
        0.7,
    ),
    ("attended", r"attended", 0.7),
    ("joined", r"joined", 0.7),
    ("owns", r"(?:owns|bought|adopted|got)\s+(?=(?:a|an|two|three|\d+)\s)", 0.7),
    ("has", r"(?:has|had)\s+(?=(?:a|an|two|three|four|\d+)\s)", 0.6),
    ("likes", r"(?:loves|likes|enjoys|adores)", 0.7),
    ("dislikes", r"(?:hates|dislikes|despises)", 0.7),
    ("prefers", r"prefers", 0.7),
    ("uses", r"(?:uses|is\s+using)", 0.65),
    (
        "chose",
        r"(?:chose|picked(?!\s+up\b)|switched\s+to|migrated\s+to|went\s+with|settled\s+on|"
        r"decided\s+on|is\s+sticking\s+with)",
        0.75,
    ),
    (
        "started",
        r"(?:started|founded|launched|is\s+starting|opened(?=\s+(?:a|an|the|their|his|her)\s))",
        0.65,
    ),
    ("plays", r"(?:plays|is\s+playing|played)", 0.65),
    # The past says what someone studied, not what they study now ("I studied physics
    # at Edinburgh" was ``user studies physics``, round sixteen's proxy turns); where,
    # when a name follows "at", is the school they attended.
    ("studies", r"(?:studies|is\s+studying)", 0.7),
    ("studied", r"(?:studied|majored\s+in)", 0.7),
    ("attended", r"(?:studied|majored\s+in)(?:\s+[a-z][\w-]*){0,3}\s+at(?=\s+[A-Z])", 0.7),
    ("fan_of", r"is\s+(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of", 0.7),
    # "Ana is allergic to peanuts": the allergen is the relation's end (task mine26).
    ("allergic_to", r"(?:is|are|was)\s+(?:\w+ly\s+)?allergic\s+to", 0.7),
    ("is_a", r"(?:is|was)\s+(?:a|an)(?=\s)", 0.6),
)
_COMPILED = tuple(
    (rel, re.compile(rf"^{_SUBJECT}{_GAP}\s+{verb}\s*(?P<o>.+)$"), conf)
    for rel, verb, conf in _RELATIONS
)
_SUBJECT_AT_START = re.compile(_SUBJECT)
_SHARED_SUBJECT = re.compile(r",?\s+and\s+(?=(?:also\s+)?[a-z]+(?:s|ed)\b)")
#: "Our landlord Kieran Brennan's email is ...": a description before the name (one or two
#: words after "our" or "my") is no part of the owner (round twenty-four; it recorded
#: nothing).
_ATTRIBUTE = re.compile(
    r"^(?:(?:[Oo]ur|[Mm]y)\s+(?:[a-z-]+\s+){1,2}(?=[A-Z]))?"
    r"(?P<s>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})'s\s+(?P<a>(?:[a-z-]+\s+){0,3}[a-z-]+)"
    r"\s+(?:is|are|was)\s+(?P<o>.+)$"
)
#: Adjectives that take a complement ("allergic to", "afraid of", "due on"): "X's Y is
#: allergic to Z" says what holds of Y, not that Y is "allergic"; the attribute reading
#: would cut the complement off (``user daughter allergic``, task mine26). English's
#: common ones; the rule needs the preposition after them, so "Jon's car is red" and
#: "my favourite is pizza with olives" (a noun before "with") are read as before.
_COMPLEMENT_ADJECTIVES = word_set(
    """
    allergic afraid scared terrified frightened intolerant addicted married engaged related
    due keen fond proud aware sure tired sick jealous ashamed capable interested involved
    responsible similar close next used attached devoted committed opposed sensitive
    prone susceptible immune
    """
)
#: A progressive that opens the value ("User's sister is getting married", "... is
#: studying medicine in Prague", task queue27): the verb
#: phrase says what the relative does, it names no value of the attribute (task mine26;
#: a hobby named by its -ing word, "my favourite hobby is hiking", is not one of these).
PROGRESSIVE = re.compile(
    r"^(?:getting|going|coming|moving|starting|leaving|becoming|having|being|doing|taking|"
    r"trying|planning|thinking|looking|working|living|staying|studying|training|visiting|"
    r"recovering|expecting|dating|applying|waiting|retiring)\s+\w"
)
#: "a big fan of Italian food": ``fan_of`` names the food; the fan is no kind of thing.
_FAN_OF = re.compile(r"^(?:(?i:a|an)\s+)?(?:\w+\s+){0,2}fans?\s+of\b")
_COMPLEMENT = re.compile(
    r"^(?:\w+ly\s+)?(?P<adj>[a-z]+)\s+(?:to|of|on|with|about|for|from|in|at|by)\b"
)
_ATTRIBUTE_REVERSED = re.compile(
    r"(?:^|,\s*|\b(?:but|and)\s+)(?!(?:but|and|so)\b)(?P<o>[\w'-]+(?:\s+[\w'-]+){0,2})\s+(?:is|are)\s+"
    r"(?P<s>[A-Z][\w'-]*)'s\s+(?P<a>(?:[a-z-]+\s+){0,2}[a-z-]+)\b"
)


def noun_phrase(text: str) -> str | None:
    """The noun phrase ``text`` starts with: determiners dropped, cut before a
    function word or punctuation, at most five words."""
    text = _DETERMINERS.sub("", _BEFORE_PHRASE.sub("", text.strip()))
    words: list[str] = []
    for match in _NP_WORDS.finditer(text):
        word = _TITLE_DOT.sub("", match.group(0))
        if not _NP_START.match(word) or word.lower() in _NP_STOP or len(words) == 5:
            break
        # "07700 900462": a number written in groups is one number (it was cut at its
        # space: new-user round twenty-one's ``user uses_phone 07700``).
        grouped = bool(words) and words[-1].isdigit() and word.isdigit()
        if words and (word[0].isdigit() or word.lower() in _COUNT_WORDS) and not grouped:
            break  # "Sweden four years ago": a count starts the next phrase
        if words and word.lower() in _RATE_WORDS and _AMOUNT.match(words[0]):
            break  # "$40 a month", "950 pounds a month": the amount, as the change reader names it
        words.append(word)
    while words and words[-1].lower() in {"of", "'s", "the", "a", "an"}:
        words.pop()
    phrase = " ".join(words).strip(" '’-")
    if not phrase or phrase.lower() in _NOT_TARGETS or phrase.lower() in FILLERS:
        return None
    if words[-1].lower() in _VAGUE_HEADS:
        return None
    return phrase


_NOT_LETTERS = re.compile(r"[^a-z]+")


def relation_triples(fact: str, confidence: float = 1.0) -> list[Relation]:
    """(source, relationship, target) triples a resolved fact states outright."""
    sentence = fact.rstrip(".!")
    found: list[Relation] = []

    def add(source: str, relationship: str, target: str | None, conf: float) -> None:
        if target is None or target.lower() == source.lower():
            return
        if source.lower() in _NOT_TARGETS or source.lower() in STOPWORDS:
            return  # "It is a bit ...": a pronoun names no entity
        found.append(Relation(source, relationship, target, round(min(conf, confidence), 2)))

    # "Alice works at Google and lives in Zurich": the second verb shares the subject.
    subject = _SUBJECT_AT_START.match(sentence)
    # Every relation pattern opens with the subject: without one, none can match.
    clauses = [] if subject is None else [sentence]
    if subject is not None:
        clauses += [
            f"{subject['s']} {sentence[m.end() :]}" for m in _SHARED_SUBJECT.finditer(sentence)
        ]
    for clause in clauses:
        for relationship, regex, conf in _COMPILED:
            match = regex.match(clause)
            if match is not None:
                if relationship == "is_a" and _FAN_OF.match(match.group("o")):
                    continue
                add(match.group("s"), relationship, noun_phrase(match.group("o")), conf)
    for regex in (_ATTRIBUTE, _ATTRIBUTE_REVERSED):
        for match in regex.finditer(sentence):
            named = match.group("a").lower().split()
            if len(named) > 1 and named[0] in _NOW_WORDS:
                named = named[1:]  # "my new manager is Tom": the manager, said now
            if any(w in _NP_STOP or w in FILLERS for w in named):
                continue
            attribute = _NOT_LETTERS.sub("_", " ".join(named)).strip("_")
            if PROGRESSIVE.match(match.group("o")):
                continue
            held = _COMPLEMENT.match(match.group("o"))
            if held is not None and held["adj"] in _COMPLEMENT_ADJECTIVES:
                # "User's daughter is allergic to penicillin": the daughter's allergy.
                if regex is _ATTRIBUTE and held["adj"] == "allergic":
                    owner = match.group("s")
                    holder = " ".join(named) if owner == "User" else f"{owner}'s {' '.join(named)}"
                    add(holder, "allergic_to", noun_phrase(match.group("o")[held.end() :]), 0.7)
                continue
            add(match.group("s"), attribute, noun_phrase(match.group("o")), 0.6)
    return found
