"""The word patterns engram reads meaning from without a model.

- seed 004's decision auto-protection battery (FEATURES P9): :func:`is_decision_content`;
- the offline extractor's lexicon: preferences, dates, quantities, how-to language,
  verb forms and chat filler (used by :mod:`engram.pipeline.offline`);
- entity triples a sentence states outright: :mod:`engram.pipeline.triples`.

Decision auto-protection
------------------------

Seed 004 ("Decision Auto-Protection") runs a 14-pattern regex battery over memory
content at write time; when decision language is found, what the memory says is
promoted from an attribute to a constraint, so recall always surfaces it. The seed
lists the phrases; this module holds one compiled pattern per bullet phrase:

=====================  ==========================================================
name                   matches
=====================  ==========================================================
``chose_over``         "chose/chosen to use X", "chose X over Y"
``decided``            "decided to / on / against"
``switched``           "switched from / to" (also "switching", "switched over to")
``migrated``           "migrated from / to / away" (up to three words between)
``picked_over``        "picked X over Y"
``went_with``          "went with X" (not "went with my sister")
``sticking_with``      "sticking with"
``committed_to``       "committed to" (not "committed to the repo")
``settled_on``         "settled on" (not "the dust settled on")
``will_use``           "will / 'll / going to use, go with, stick with"
``prefers_over``       "prefers X over / instead of / rather than Y"
``adopted``            "adopted" (not "adopted a puppy", "my adopted son")
``architecture``       "architecture / architectural decision"
``design``             "design decision"
=====================  ==========================================================

A regex battery is cheap and deterministic, which the seed requires of anything run
inside the write transaction. Three guards, each tested with look-alikes, keep it
from firing on ordinary chat: a match inside a question is not a decision ("Have you
decided on a name?"), nor is a negated one ("we haven't decided on"), and the
patterns the seed words loosely ("went with", "adopted", "settled on") exclude their
everyday senses.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from engram.pipeline.prefilter import any_literal
from engram.text import STOPWORDS

# Words that, just before a match, turn it into a non-decision ("never switched to").
_NEGATION = re.compile(
    r"\b(?:not|never|no|nor|cannot|can't|don't|doesn't|didn't|haven't|hasn't|hadn't|"
    r"won't|wouldn't|isn't|aren't|wasn't|weren't|yet|undecided)\s+(?:\w+\s+){0,2}$",
    re.IGNORECASE,
)
# How far before a match the negation guard looks, in characters.
_NEGATION_WINDOW = 40

# "went with my sister", "will go with you": company, not a choice.
_PEOPLE = (
    r"(?:my|his|her|their|our|your|them|him|us|me|you|friends?|family|"
    r"(?:a|some|the)\s+(?:friends?|group|kids|family|guys|girls))\b"
)
# "adopted a puppy", "adopted two kids": adoption, not adoption of a tool.
_ADOPTEES = (
    r"(?:dogs?|cats?|pupp(?:y|ies)|kittens?|pets?|child(?:ren)?|kids?|bab(?:y|ies)|"
    r"sons?|daughters?|boys?|girls?|siblings?|brothers?|sisters?|rescue)\b"
)


@dataclass(frozen=True, slots=True)
class DecisionPattern:
    """One entry of the battery: a name (for tests and explanations) and its regex."""

    name: str
    regex: re.Pattern[str]


def _p(name: str, pattern: str) -> DecisionPattern:
    return DecisionPattern(name, re.compile(pattern, re.IGNORECASE))


#: seed 004: the 14-pattern decision battery, in the seed's order.
DECISION_PATTERNS: tuple[DecisionPattern, ...] = (
    _p("chose_over", r"\bcho(?:se|sen)\s+(?:to\s+use\b|[^.!?;]{1,60}?\s+over\s+\S)"),
    _p("decided", r"\bdecided\s+(?:to|on|against)\b"),
    _p("switched", r"\bswitch(?:ed|ing)\s+(?:over\s+|back\s+)?(?:from|to)\b"),
    _p("migrated", r"\bmigrat(?:ed|ing)\s+(?:[\w.+#-]+\s+){0,3}?(?:from|to|away)\b"),
    _p("picked_over", r"\bpicked\s+[^.!?;]{1,60}?\s+over\s+\S"),
    _p("went_with", rf"\bwent\s+with\s+(?!{_PEOPLE})"),
    _p("sticking_with", r"\bsticking\s+with\b"),
    _p(
        "committed_to",
        r"\bcommitted\s+to\s+(?!(?:the\s+)?(?:repo|repository|branch|main|master|git|trunk)\b)",
    ),
    _p("settled_on", r"(?<!dust\s)(?<!snow\s)(?<!fog\s)\bsettled\s+on\b"),
    _p(
        "will_use",
        rf"(?:\bwill|'ll|\bgoing\s+to)\s+(?:use\b|go\s+with\s+(?!{_PEOPLE})|stick\s+with\b)",
    ),
    _p(
        "prefers_over",
        r"\bprefer(?:s|red)?\s+[^.!?;]{1,60}?\s+(?:over|instead\s+of|rather\s+than)\b",
    ),
    _p(
        "adopted",
        rf"(?<!\bmy\s)(?<!\bhis\s)(?<!\bher\s)(?<!\bour\s)(?<!\btheir\s)(?<!\ban\s)"
        rf"\badopted\b(?!\s+(?:(?:a|an|the|two|three|our|my|her|his|their|this|that|"
        rf"little|new|sweet|shelter)\s+){{0,2}}{_ADOPTEES})",
    ),
    _p("architecture", r"\barchitectur(?:e|al)\s+decision"),
    _p("design", r"\bdesign\s+decision"),
)

# The words each pattern cannot match without, lower-cased: a pattern is tried on an
# ASCII clause only when the clause holds one of them (the battery is slow; most chat
# has no decision word). On ASCII text IGNORECASE is plain ASCII case folding, so
# the check never skips a match; other text gets every pattern.
_DECISION_WORDS: dict[str, tuple[str, ...]] = {
    "chose_over": ("chos",),
    "decided": ("decided",),
    "switched": ("switch",),
    "migrated": ("migrat",),
    "picked_over": ("picked",),
    "went_with": ("went",),
    "sticking_with": ("sticking",),
    "committed_to": ("committed",),
    "settled_on": ("settled",),
    "will_use": ("will", "'ll", "going"),
    "prefers_over": ("prefer",),
    "adopted": ("adopted",),
    "architecture": ("architectur",),
    "design": ("design",),
}
_BATTERY = tuple((p, _DECISION_WORDS[p.name]) for p in DECISION_PATTERNS)
_ANY_DECISION_WORD = any_literal(w for ws in _DECISION_WORDS.values() for w in ws)

# Clauses a decision must sit in: questions end with "?", so "Did you decide to ...?"
# is left out. Splits on sentence ends and newlines only; a decision clause keeps its
# commas ("after testing both, we went with Postgres").
_CLAUSE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def _negated(clause: str, start: int) -> bool:
    return _NEGATION.search(clause[max(0, start - _NEGATION_WINDOW) : start]) is not None


def decision_matches(text: str) -> list[str]:
    """The names of the battery's patterns that find decision language in ``text``.

    A match counts only outside questions and when not negated just before it.
    """
    found: dict[str, None] = {}
    for clause in _CLAUSE_END.split(text):
        if clause.rstrip().endswith("?"):
            continue
        lower = clause.lower() if clause.isascii() else None
        if lower is not None and _ANY_DECISION_WORD.search(lower) is None:
            continue
        for pattern, words in _BATTERY:
            if pattern.name in found:
                continue
            if lower is not None and not any(w in lower for w in words):
                continue
            for match in pattern.regex.finditer(clause):
                if not _negated(clause, match.start()):
                    found[pattern.name] = None
                    break
    return list(found)


def is_decision_content(text: str) -> bool:
    """seed 004's ``isDecisionContent``: True when any battery pattern matches."""
    return bool(decision_matches(text))


# -- the offline extractor's lexicon ---------------------------------------------------


#: An e-mail address or a URL, one value whole ("k.brennan@fastmail.com",
#: "https://clubs.example.org/book"): the phrase readers cut it at its dots (new-user
#: round twenty-two's ``Kieran uses_email k``). A URL's last character is no sentence
#: mark.
ADDRESS = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:https?://|www\.)[^\s,;]*[^\s,;.!?)'’]"


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text``: word lists read better as prose."""
    return frozenset(text.split())


# Kept beside the decision battery: both are the word patterns engram reads meaning
# from without a model. ``engram.pipeline.offline`` applies them.

#: "I love / like / enjoy / prefer / hate X": a first-person preference. "would like
#: to" is a wish, and "like to say/think" a hedge, so neither counts.
PREFERENCE = re.compile(
    r"\b(?:I|we)(?:'ve|\s+have)?\s+(?:(?:\w+ly|always|just|also|still|so|do)\s+)?"
    r"(?:love[sd]?|like[sd]?|enjoy(?:s|ed)?|prefer(?:s|red)?|hate[sd]?|dislike[sd]?|"
    r"adore[sd]?|despise[sd]?)\b(?!\s+to\s+(?:say|think|see|hear))"
    r"|\b(?:my|our)\s+(?:\w+\s+)?(?:favou?rite|fave|fav|go-to)\b"
    r"|\bI(?:'m|\s+am)\s+(?:\w+\s+)?(?:a\s+)?(?:big\s+|huge\s+|great\s+)?fan\s+of\b"
    r"|\bI(?:'m|\s+am)\s+(?:really\s+|so\s+)?(?:into|passionate\s+about|obsessed\s+with)\b"
    r"|\bcan'?t\s+stand\b",
    re.IGNORECASE,
)

_MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_WEEKDAYS = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_UNITS = r"(?:second|minute|hour|day|night|week|weekend|month|year|decade|time)s?"
_NUMBER_WORDS = (
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|forty|fifty|hundred|thousand|couple\s+of|few|several|once|twice)"
)

#: A date or time a sentence is anchored to: absolute ("8 May 2023", "2019", "May"),
#: relative ("yesterday", "last week", "three years ago") or a weekday.
DATE = re.compile(
    rf"\b(?:{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?\b|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?"
    rf"{_MONTHS}\b|(?:in|since|until|by|during|of|this|last|next|early|late)\s+{_MONTHS}\b|"
    rf"(?:19|20)\d\d\b|\d{{4}}-\d\d-\d\d\b|{_WEEKDAYS}s?\b|yesterday|today|tonight|tomorrow|"
    rf"(?:last|next|this|past|coming)\s+(?:{_UNITS}|{_WEEKDAYS}|summer|winter|spring|fall|"
    rf"autumn)\b|(?:\d+|{_NUMBER_WORDS}|a)\s+{_UNITS}\s+(?:ago|later|from\s+now)\b|"
    rf"(?:recently|lately|soon)\b|(?:at\s+)?(?:age|aged)\s+\d+)",
    re.IGNORECASE,
)

#: A quantity: a number with what it counts ("3 kids", "two turtles", "$500", "5 km").
QUANTITY = re.compile(
    rf"(?:[$€£]\s?\d[\d,.]*|\b\d[\d,.]*\s*(?:%|percent|[a-z]{{1,12}}\b)|"
    rf"\b{_NUMBER_WORDS}\s+(?!of\b|more\b|times?\b|things?\b)[a-z]{{3,}}\b)",
    re.IGNORECASE,
)

#: How-to language: "To deploy, run ...", "Always ...", "Make sure to ...", "Step 2:".
PROCEDURAL = re.compile(
    r"^(?:to\s+[a-z]+\b[^,]{0,80},\s*(?:first\s+|just\s+)?(?:run|use|call|set|install|open|"
    r"click|type|add|remove|press|go|check|make\s+sure|restart|edit|create|delete)\b|"
    r"(?:always|never)\s+(?:run|use|call|set|install|commit|push|deploy|test|check|restart)\b|"
    r"(?:make\s+sure|remember)\s+to\s+\w+|step\s+\d+\b)",
    re.IGNORECASE,
)

#: Simple past forms that do not end in "-ed" (so "I went" stays "went", never "wents"),
#: and forms that read the same in present and past ("put", "read"), left unchanged.
IRREGULAR_PAST = word_set(
    """
    was were had did went got made took saw found felt thought bought brought came gave
    knew left lost met ran said sent spent told won wrote began caught chose drew drove
    ate fell flew forgot grew heard held kept led meant paid rode sang sat slept spoke
    stood swam taught threw understood woke wore built became broke dealt fed fought
    forgave froze hid hung laid lay lit mistook overcame rang rose sold shot shook sank
    slid stole stuck struck swore swept swung tore bent bit blew bled bred burnt dreamt dug
    fled flung knelt leapt learnt sought spun spat spilt spread sprang stung strove
    wept wound withdrew put read set let cut hit hurt quit cost shut bet cast fit upset
    used could would should might must may can will shall
    """
)


def past_form(verb: str) -> bool:
    """Whether a lower-case verb reads as a simple past ("went", "adopted")."""
    return verb in IRREGULAR_PAST or (verb.endswith("ed") and len(verb) > 3)


#: Words between "I" and its verb that the verb agreement skips ("I really love").
ADVERBS = word_set(
    """
    also just really still always never often usually sometimes finally recently actually
    totally absolutely even already definitely only truly kinda sorta mostly once first
    then now probably seriously honestly literally basically currently
    """
)

#: Words a sentence may open with that add nothing to a fact ("Yeah, ...", "Wow! ...").
INTERJECTIONS = word_set(
    """
    hey hi hello wow oh ooh aw aww awww yeah yea yes yep yup no nope ok okay so well haha
    hahaha lol omg thanks thank sure cool great nice awesome man dude btw plus anyway um
    uh hmm ah whoa woah true right totally absolutely definitely congrats congratulations
    sorry ugh phew yay woo hooray but and also honestly actually unfortunately luckily
    fortunately anyways alright gosh agreed exactly indeed
    """
)

#: Chat words that carry no fact: a sentence needs content beyond these to be kept.
FILLERS = word_set(
    """
    wow cool awesome great amazing nice glad happy thanks thank yeah hey hi hello lol haha
    sounds fun super totally really pretty good gonna wanna gotta can cant wait sure
    definitely okay ok oh yes yep lot lots bit kinda sorta stuff way hear excited excite
    love loved lovely proud appreciate appreciated awesome cute fantastic incredible
    wonderful best better feel feeling felt always never thing sometimes keep going
    forward look looking see seeing hope hoping thought mean means
    blessed grateful thankful support supportive going today day lately well able
    """
)

#: Words that, before a colon, label a line rather than name a speaker ("Note: ...").
NOT_SPEAKERS = word_set(
    """
    note notes warning error todo update summary question answer tip fact reminder
    important decision context re subject title ps edit example step q a nb fyi info
    source date time status result results goal task
    noted done ok okay sure thanks yes yep no nope agreed understood confirmed correct
    right great cool perfect sorry hi hey hello btw also anyway recap reply
    decided fixed resolved solved blocked fix cause workaround outcome output
    correction clarification addendum amendment caveat disclaimer followup
    owner owners reviewer reviewers assignee assignees attendees participants
    stakeholders blockers contacts
    """
)
#: Programs a shell runs and agents name in their notes: "Jest: Cannot find module
#: ..." is a program's output, never a speaker, and "go test ./... hung" opens with a
#: command (task x23/x24: :mod:`engram.pipeline.offline_notes`).
TOOLS = word_set(
    """
    git go npm npx pnpm yarn pip pip3 poetry uv python python3 pytest tox make cargo
    rustc docker podman kubectl helm terraform ansible-playbook ansible mypy ruff eslint
    tsc jest vite webpack mvn gradle psql mysql redis-cli curl wget ssh scp aws gcloud
    az systemctl journalctl du df rsync bundle rake rails composer dotnet flutter pod
    alembic prisma k6
    """
)

#: A subjectless sentence that is no statement: "Must have been fun", "Bet it was".
SUBJECTLESS_OPENERS = word_set(
    """
    must should could would can will might may bet highly hope guess seems seem sounds
    looks feels need wish gotta gonna wanna be love like enjoy thank congrats for yes no
    again always never totally definitely really just mainly what how such turns won't
    can't don't didn't wouldn't couldn't shouldn't isn't wasn't since because been
    """
)

#: Words that open a general statement and are not names, so "Dance is ..." can become
#: "Gina thinks dance is ...". Words ending in -ing or -s are taken as common too.
COMMON_OPENERS = word_set(
    """
    a an the some all any every each most many much more less no nothing something
    everything everyone everybody someone somebody people life family friends work art
    dance music nature love time family's hard good great sometimes being having
    """
)

#: The verbs a general statement's subject is most often followed by.
PRESENT_VERBS = word_set(
    """
    is are isn't aren't has have can can't will won't would should must may might makes
    make helps help brings bring gives give takes take means mean seems seem feels feel
    looks look pays says goes does gets keeps needs matters comes grows works shows lets
    puts sets teaches reminds adds becomes stays remains depends requires
    """
)

#: Modal verbs: past-looking forms that are not a statement's past tense.
MODALS = word_set("could would should might must may can will shall used")

#: Words ending in "-ing" that are not a verb opening a subjectless sentence.
NOT_VERBS_ING = word_set(
    "nothing something everything anything morning evening thing king ring spring sing "
    "bring string wing during ceiling building wedding being interesting amazing "
    "exciting outstanding"
)

#: Past forms that, opening a sentence, are not a dropped "I" ("Bet it was fun").
NOT_ELIDED_PAST = word_set(
    "could would should might must may can will shall used bet let set put read fit cost"
)

#: "Blessed we have this", "Stoked for the trip": a dropped "I'm".
FEELINGS = word_set("blessed thrilled stoked grateful thankful lucky proud busy exhausted psyched")

#: Words ending in "-ed" that open a sentence without being a dropped "I" + verb.
ADJECTIVES_ED = word_set(
    "excited tired stressed interested surprised pleased amazed blessed thrilled bored "
    "worried scared inspired relieved overwhelmed motivated determined married need "
    "indeed red bed seed speed feed weed mixed"
)


# -- named things (the inline linker, FEATURES G3) ---------------------------------------

# A run of one to four capitalised words ("Xenoblade Chronicles", "New York City"),
# allowing "of" and "the" inside ("Bank of America"). A word ends in any letter or digit:
# "Nestlé" and "Škoda Fabia" are whole names, not "Nestl".
# A word starts with any capital letter ("Émilie", "Łukasz", "Ørsted"), not only A-Z.
_CAPITAL = "".join(sorted({c for c in map(chr, range(0x250)) if c.isupper()}))
_NAME_RUN = re.compile(
    rf"\b[{_CAPITAL}][\w'’-]*[^\W_](?:\s+(?:(?:of|the|de|van|von)\s+){{0,2}}"
    rf"[{_CAPITAL}][\w'’-]*[^\W_]){{0,3}}"
)
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\"(\n]\s*)$")
#: Capitalised words that name no thing: pronouns and chat words, days and months
#: (they are times, not entities), titles.
NOT_NAMES = word_set(
    """
    i i'm i've i'll i'd im ive ok okay hey hi hello yes yeah yep no nope wow oh omg lol
    thanks thank please sorry congrats congratulations haha hmm mr mrs ms dr bye goodbye
    woah whoa aww awesome cool nice great sure losing
    monday tuesday wednesday thursday friday saturday sunday january february march
    april may june july august september october november december
    """
)


_NOT_FIRST = NOT_NAMES | STOPWORDS | INTERJECTIONS | COMMON_OPENERS
_NOT_LAST = NOT_NAMES | {"of", "the", "de", "van", "von"}


def proper_names(text: str) -> list[str]:
    """The capitalised names ``text`` mentions, in order, each once: "I beat my record
    at the Valorant tournament in New York" -> ["Valorant", "New York"]. A single
    capitalised word that opens a sentence is taken as an ordinary word ("Painting
    helps"), a run of two or more as a name ("Xenoblade Chronicles is ..."); possessive
    "'s" is dropped."""
    # A run of names never spans a sentence end, and a match right after one opens a
    # sentence either way: each sentence's names are its own, and a repeated sentence
    # (chat repeats itself) is read once.
    found: dict[str, str] = {}
    for sentence in _SENTENCE_GAP.split(text):
        for name in _sentence_names(sentence):
            found.setdefault(name.lower(), name)
    return list(found.values())


#: Where ``proper_names`` cuts text: the whitespace after a sentence's end.
_SENTENCE_GAP = re.compile(r"(?<=[.!?])\s+")


@functools.lru_cache(maxsize=1 << 15)
def _sentence_names(text: str) -> tuple[str, ...]:
    """``proper_names`` of one piece of text, kept for reuse."""
    found: dict[str, str] = {}
    for match in _NAME_RUN.finditer(text):
        words = [w for w in match.group(0).replace("’", "'").split()]
        while words and words[0].lower().removesuffix("'s") in _NOT_FIRST:
            words = words[1:]
        while words and words[-1].lower() in _NOT_LAST:
            words = words[:-1]
        if not words:
            continue
        at_start = _SENTENCE_START.search(text, 0, match.start()) is not None and (
            words[0] == match.group(0).split()[0]
        )
        if at_start and len(words) == 1:
            continue
        words[-1] = words[-1].removesuffix("'s")
        name = " ".join(words)
        if len(name) < 2 or name.lower() in STOPWORDS:
            continue
        found.setdefault(name.lower(), name)
    return tuple(found.values())
