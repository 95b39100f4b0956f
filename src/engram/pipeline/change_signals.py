"""Change claims: what a sentence says a subject now has, and whether it says so as a
change, an addition or plainly (issue 28, FEATURES G2).

The offline extractor reads "Alice works at Acme"; a change is said in many more
ways: "we migrated billing to Postgres", "Derek swapped the efoil battery for a 48V
one", "Sam joined Initech", "replaced Jira with Linear". ``read`` finds such claims
with rules, no model, so it can run inside the write transaction like the inline
linker. Each claim carries its **signal**:

- ``change``: a change verb ("switched to", "moved to", "migrated", "replaced",
  "swapped", "joined", "now uses", "a new phone"): whatever held before no longer does;
- ``addition``: "also", "too", "as well", "another", "alongside": one more, nothing
  closes;
- ``plain``: a stative fact ("uses MySQL"); whether it closes is the relation's
  cardinality (``engram.pipeline.closing``).

A hedged or negated clause ("we might move to Lisbon", "we never switched to Vue",
"considering Linear") and a question state nothing and give no claim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engram.pipeline import turns
from engram.pipeline.patterns import word_set

CHANGE = "change"
ADDITION = "addition"
PLAIN = "plain"

#: No seed gives these (engram's choice): a change verb is read more surely than a
#: stative one, and both less surely than a fact stated through ``mem.graph.record``.
CHANGE_CONFIDENCE = 0.8
PLAIN_CONFIDENCE = 0.7


@dataclass(frozen=True, slots=True)
class Claim:
    """``source --relation--> target``, with the signal it was said with.
    ``replaced``: the old value the sentence names, if any ("MySQL" in "replaced MySQL
    with Postgres"); the closing plan looks for whoever held it. ``source`` None: the
    sentence names no subject, and only ``replaced`` can tell whose fact changed."""

    source: str | None
    relation: str
    target: str
    signal: str
    replaced: str | None = None
    confidence: float = PLAIN_CONFIDENCE


# A clause that states nothing yet: hedged, planned, negated or tried. A contraction is
# matched after its word ("don't", "we'll"): a word boundary never opens "n't".
_HEDGE = re.compile(
    r"(?:n['’]t|['’]ll)\b|"
    r"\b(?:not|never|no\s+longer\s+plan|might|may|could|would|should|maybe|perhaps|"
    r"consider(?:s|ed|ing)?|thinking\s+(?:about|of)|plan(?:s|ned|ning)?\s+to|want(?:s|ed)?\s+to|"
    r"hop(?:e|es|ed|ing)\s+to|if|whether|unless|will|going\s+to|gonna|tri(?:ed|es)\s+|"
    r"evaluat(?:e|ed|ing)|test(?:ed|ing)\s+out|look(?:ed|ing)\s+(?:at|into)|propos(?:e|ed|al)|"
    r"suggest(?:s|ed)?|discuss(?:ed|ing)?|debat(?:e|ed|ing)|wonder(?:s|ed|ing)?|option|"
    r"instead\s+of\s+switching|rather\s+than|almost|nearly|refused|declined|rejected)\b",
    re.IGNORECASE,
)
ADDITION_WORDS = re.compile(
    r"\b(?:also|too|as\s+well|another|a\s+second|second|in\s+addition|additionally|"
    r"besides|alongside|on\s+top\s+of|plus|along\s+with|both|as\s+a\s+side\s+gig|"
    r"part[-\s]time|on\s+the\s+side|in\s+parallel|next\s+to)\b",
    re.IGNORECASE,
)
_FIRST_PERSON = frozenset({"i", "we", "me", "us", "my", "our", "myself"})
_EMPHATIC = frozenset({"do", "does", "did"})
_NP = r"(?:(?:the|our|my|his|her|their|its|a|an|this|that)\s+)?[\w'.#+-]+(?:\s+[\w'.#+-]+){0,3}?"
_SUBJ = rf"(?P<s>{_NP})"
_ADV = r"(?P<adv>(?:\s+(?:\w+ly|also|just|now|still|finally|recently|already|officially|then))*)"
_LEAD = r"^(?:[^,]{0,40},\s*)?"  # "In March, we ...", "Last year, Sam ..."
_OLD = r"(?:\s+(?:from|off(?:\s+of)?)\s+(?P<old>[^,]+?))?"

# (relation, verb pattern, words the pattern cannot match without).
_STATIVE: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "uses",
        r"(?:uses?|is\s+using|are\s+using|relies\s+on|rel(?:y|ies)\s+on|runs?\s+on|"
        r"is\s+running\s+on|(?:is|are)\s+(?:built|running)\s+(?:on|with)|"
        r"(?:is|are)\s+(?:written|coded|implemented)\s+in|(?:is|are)\s+hosted\s+(?:on|at|by|with)|"
        r"(?:is|are)\s+deployed\s+(?:on|to)|stores?\s+(?:its\s+|their\s+|all\s+)?data\s+in|"
        r"(?:is|are)\s+(?:backed|powered)\s+by|(?:is|are)\s+on)",
        (" use", "using", " rel", " run", "built", "written", "coded", "implemented",
         "hosted", "deployed", " data ", "backed", "powered", " on "),
    ),
    ("works at", r"(?:works?|worked|is\s+working|has\s+been\s+working)\s+(?:at|for)", ("work",)),
    (
        "works at",
        r"(?:is|am|are)\s+(?:employed\s+(?:at|by)|(?:a|an)\s+[\w-]+(?:\s+[\w-]+)?\s+at)",
        ("employed", " at "),
    ),
    (
        "lives in",
        r"(?:lives?|lived|is\s+living|am\s+living|resides?|(?:is|am|are)\s+based)\s+in",
        ("liv", "resid", "based"),
    ),
    ("married to", r"(?:is|am|are|got)\s+married\s+to", ("married",)),
    ("dating", r"(?:is|am|are)\s+(?:dating|seeing)", ("dating", "seeing")),
    ("reports to", r"reports?\s+to", ("report",)),
    (
        "studies at",
        r"(?:studies|study|is\s+studying|am\s+studying|is\s+enrolled)\s+at",
        ("stud", "enrolled"),
    ),
    ("owns", r"(?:owns?|bought|purchased)", (" own", "bought", "purchased")),
    ("drives", r"drives?", (" drive",)),
    ("has", r"(?:has|have)", (" has ", " have ")),
)  # fmt: skip
_STATIVE_RES = tuple(
    (rel, re.compile(rf"{_LEAD}{_SUBJ}{_ADV}\s+{verb}\s+(?P<o>.+)$", re.I), words)
    for rel, verb, words in _STATIVE
)
# "Sam's phone is a Pixel", "my editor is Vim": an attribute said with "is".
_ATTRIBUTE = re.compile(
    rf"{_LEAD}(?P<s>(?:my|our|[\w.-]+(?:\s+[\w.-]+)?'s))\s+(?P<a>[a-z]+(?:\s+[a-z]+)?)"
    r"(?P<adv>(?:\s+(?:now|currently))?)\s+(?:is|are)(?P<adv2>(?:\s+(?:now|currently))?)\s+(?P<o>.+)$",
    re.I,
)
# "Sam moved to Lisbon", "the team switched from Jira to Linear".
_MOVE_VERB = (
    r"(?:has\s+|have\s+)?(?:switch(?:ed|es)?|mov(?:ed|es|e)|migrat(?:ed|es|e)|changed|"
    r"transitioned|upgraded|port(?:ed)?|convert(?:ed)?|relocat(?:ed|e)|went(?=\s+from\b)|"
    r"shift(?:ed)?)"
)
# "We rewrote the reporting app and switched it to FastAPI", "The chat backend was
# rewritten and converted to Elixir": the second verb's subject is in the first part.
_AND_MOVED = re.compile(
    rf"^(?P<head>.+?)\s+and\s+(?:was\s+|were\s+|has\s+been\s+|then\s+)?(?P<verb>{_MOVE_VERB})"
    r"(?P<it>\s+(?:it|them))?(?P<rest>\s+.+)$",
    re.I,
)
_HEAD_OBJECT = re.compile(rf"^{_SUBJ}\s+\w+\s+(?P<obj>.+)$", re.I)
_HEAD_SUBJECT = re.compile(
    rf"^(?P<s>{_NP})\s+(?:was|were|is|are|got|has\s+been|have\s+been)\s", re.I
)
_MOVED = re.compile(
    rf"{_LEAD}{_SUBJ}{_ADV}\s+{_MOVE_VERB}(?:\s+(?:back|over|away|house|everything))*{_OLD}"
    r"\s+(?:to|onto|over\s+to|in)\s+(?P<o>.+)$",
    re.I,
)
# "we migrated billing (from MySQL) to Postgres": what moved is the subject.
_MOVED_OBJECT = re.compile(
    rf"{_LEAD}(?P<agent>{_NP}){_ADV}\s+{_MOVE_VERB}\s+(?P<s>(?!(?:from|to|over|back|away)\b){_NP})"
    rf"(?:\s+over)?{_OLD}\s+(?:to|onto|over\s+to)\s+(?P<o>.+)$",
    re.I,
)
# "replaced MySQL with Postgres (in billing)", "swapped the efoil battery for a 48V one".
_REPLACED = re.compile(
    rf"{_LEAD}(?:(?P<agent>{_NP}){_ADV}\s+)?(?:has\s+|have\s+)?(?:replaced|swapped(?:\s+out)?|"
    r"traded(?:\s+in)?|exchanged|substituted|ditched|dropped|dumped|abandoned|retired|"
    r"upgraded|downgraded|left)\s+(?P<old>[^,]+?)\s+(?:with|for|by|in\s+favou?r\s+of|to)\s+"
    r"(?P<o>.+?)(?:\s+(?:in|for|on|at|across)\s+(?P<s>(?:the|our|my|their|his|her)\s+.+))?$",
    re.I,
)
# "Sam joined Initech", "took a job at Globex", "was hired by Umbrella".
_JOINED = re.compile(
    rf"{_LEAD}{_SUBJ}{_ADV}\s+(?:has\s+|have\s+)?(?P<v>joined|signed\s+with|"
    r"started\s+(?:a\s+(?:new\s+)?(?:job|role|position)\s+)?(?:at|with)|"
    r"took\s+(?:a|an|the)\s+(?:new\s+)?(?:job|role|position|offer)\s+(?:at|with)|"
    r"got\s+(?:a\s+(?:new\s+)?job\s+at|hired\s+(?:at|by))|(?:was|were|got)\s+hired\s+(?:by|at)|"
    r"accepted\s+(?:an?\s+|the\s+)?(?:offer|job|position|role)\s+(?:at|from|with)|"
    r"came\s+on\s+board\s+at|is\s+now\s+(?:at|with)|went\s+to\s+work\s+(?:at|for))\s+(?P<o>.+)$",
    re.I,
)
# "I got a new phone, a Pixel 8", "Derek bought a new 48V battery for the efoil".
_NEW_THING = re.compile(
    rf"{_LEAD}{_SUBJ}{_ADV}\s+(?:got|bought|purchased|has|have|picked\s+up|installed|fitted)\s+"
    r"(?:a|an|the)\s+new\s+(?P<o>[^,]+?)(?:,\s+(?:a|an|the)\s+(?P<name>[^,]+))?"
    r"(?:\s+(?:for|on|in)\s+(?P<owner>(?:the|my|our|his|her|their)\s+[\w\s-]+))?$",
    re.I,
)
# "an efoil with a 12V20Ah battery": the thing has the part.
_WITH = re.compile(r"\b(?P<s>[\w-]+)\s+with\s+(?:a|an|the)\s+(?P<o>[\w.-]+\s+[a-z]+)\b", re.I)
# "we use Vue for the frontend": what the first person uses it for is the subject.
_FOR = re.compile(r"\b(?:for|in|on|across)\s+(?P<s>(?:the|our|my|their)\s+[\w\s-]+)$", re.I)
_ONE = re.compile(r"^(?:a|an|the)?\s*(?P<mod>.*?)\s*\bones?\b$", re.I)
_NOW = re.compile(r"\b(?:now|nowadays|these\s+days|from\s+now\s+on)\b", re.I)
_SPLIT = re.compile(r"\s*(?:;|,?\s+but\s+|,?\s+and\s+then\s+|,?\s+so\s+now\s+|,\s+so\s+)\s*", re.I)
# Words in front of the owner of a replaced part ("the old efoil battery").
_OLD_WORDS = word_set(
    "the a an my our his her their its old previous original former existing stock broken "
    "current aging ageing worn dead tired"
)


_WORDS = re.compile(r"[\w.#+'’-]+|[^\w\s]")
_DETERMINER = word_set("the a an some our my his her their its this that these those your")
#: Words a phrase ends before ("Postgres for the billing service", "Lisbon last year").
_STOP = word_set("""
    and but so because which who that to for with in on at from when where while since
    after before as than or if yesterday today tonight tomorrow last next this ago
    recently soon lately now then too also again already though although until during
    into by about is was are were be been has have had will would can could instead
    over back after this month week year every daily weekly nightly each
    """)


def _phrase(text: str | None) -> str | None:
    """The noun phrase ``text`` opens with: determiners dropped, up to five words,
    ending before a function word or punctuation ("a 12V20Ah battery for the efoil"
    -> "12V20Ah battery")."""
    if text is None:
        return None
    words: list[str] = []
    for match in _WORDS.finditer(text.strip()):
        word = match.group(0).strip(".'’")
        lower = word.lower()
        if not word or not (word[0].isalnum() or word[0] in "#+"):
            break
        if not words and lower in _DETERMINER:
            continue
        if lower in _STOP or len(words) == 5:
            break
        words.append(word)
    phrase = " ".join(words)
    if not phrase or phrase.lower() in _NOT_THINGS:
        return None
    return phrase


#: What a phrase cannot be: a pronoun or a word standing for a thing named elsewhere.
_NOT_THINGS = word_set("it them him her this that one something everything there here")


def _subject(raw: str | None, speaker: str | None) -> str | None:
    """The subject as the graph names it: first person is the speaker (or "user")."""
    if raw is None:
        return None
    words = raw.strip().split()
    # An emphatic auxiliary is no part of the name: "we do use X" is the speaker's claim.
    while len(words) > 1 and words[-1].lower() in _EMPHATIC:
        words = words[:-1]
    if words and words[0].lower() in _FIRST_PERSON:
        if len(words) == 1:
            return speaker or "user"
        words = words[1:]  # "our billing service" -> "billing service"
    elif words and words[0].lower() in _DETERMINER:
        words = words[1:]
    text = " ".join(words)
    if text.lower().endswith("'s"):
        text = text[:-2]
    return _phrase(text)


def _part(old: str) -> tuple[str | None, str]:
    """("efoil", "battery") for "the old efoil battery": the owner a replaced part
    names, if any, and the part's head noun."""
    words = [w for w in old.lower().split() if w not in _OLD_WORDS]
    if not words:
        return None, old
    owner = " ".join(w.removesuffix("'s") for w in words[:-1]) or None
    return owner, words[-1]


def _signal(clause: str, changed: bool) -> str:
    if ADDITION_WORDS.search(clause):
        return ADDITION
    return CHANGE if changed or _NOW.search(clause) else PLAIN


# The words each change rule cannot match without: a rule is tried on a clause only when
# the clause holds one of them (the rules are slow, and most chat has none of them).
_REPLACE_WORDS = (
    "replac", "swap", "trad", "exchang", "substitut", "ditch", "drop", "dump", "abandon",
    "retir", "upgrad", "downgrad", "left",
)  # fmt: skip
_JOIN_WORDS = (
    "joined", "signed with", "started", "took a", "took the", "got a", "got hired", "hired",
    "accepted", "came on", "now at", "now with", "went to work",
)  # fmt: skip
_MOVE_WORDS = (
    "switch", "mov", "migrat", "chang", "transition", "upgrad", "port", "convert", "relocat",
    "went ", "shift",
)  # fmt: skip
_NEW_WORDS = (" new ",)
_ATTRIBUTE_WORDS = ("'s ", "my ", "our ")
_WITH_WORDS = (" with ",)
_ANY_WORD = re.compile(
    "|".join(
        re.escape(w)
        for words in (
            _REPLACE_WORDS,
            _JOIN_WORDS,
            _MOVE_WORDS,
            _NEW_WORDS,
            _ATTRIBUTE_WORDS,
            _WITH_WORDS,
            *(words for _, _, words in _STATIVE),
        )
        for w in words
    )
)


def _has(lower: str, words: tuple[str, ...]) -> bool:
    # ``map`` over the bound method: cheaper than a generator on the write path.
    return any(map(lower.__contains__, words))


def read(text: str) -> list[Claim]:
    """The change claims ``text`` makes (see the module docstring)."""
    speaker, clauses = turns.claim_clauses(text, _READING)
    found: list[Claim] = []
    for clause in clauses:
        lower = f" {clause.lower()} "
        if _ANY_WORD.search(lower) is None or _HEDGE.search(clause):
            continue
        unfolded = _unfolded(clause) if _has(lower, _MOVE_WORDS) else clause
        found.extend(_clause(unfolded, f" {unfolded.lower()} ", speaker))
        if _has(lower, _WITH_WORDS):
            found.extend(_with(clause))
    return found


def _split(sentence: str) -> list[str]:
    return _SPLIT.split(sentence.rstrip(".! "))


# A question is dropped whole.
_READING = turns.Reading(sentences=turns.split_sentences, clauses=_split)


def _clause(clause: str, lower: str, speaker: str | None) -> list[Claim]:
    """The claim of one clause (``lower``: it in lower case, padded with spaces): the
    first rule that reads it wins, change rules first (a change sentence also reads as
    a stative one)."""
    match = _REPLACED.match(clause) if _has(lower, _REPLACE_WORDS) else None
    if match is not None:
        claim = _replaced(match, clause, speaker)
        if claim is not None:
            return [claim]
    match = _JOINED.match(clause) if _has(lower, _JOIN_WORDS) else None
    if match is not None:
        source, target = _subject(match["s"], speaker), _phrase(match["o"])
        if source and target:
            signal = ADDITION if ADDITION_WORDS.search(clause) else CHANGE
            return [Claim(source, "joined", target, signal, None, CHANGE_CONFIDENCE)]
    match = _NEW_THING.match(clause) if _has(lower, _NEW_WORDS) else None
    if match is not None:
        thing = _phrase(match["o"])
        owner = _subject(match["owner"], speaker) or _subject(match["s"], speaker)
        if thing and owner:
            named = _phrase(match["name"]) if match["name"] else None
            target = f"{named} {thing.split()[-1]}" if named else thing
            return [Claim(owner, "has", target, _signal(clause, True), None, CHANGE_CONFIDENCE)]
    moves = ((_MOVED_OBJECT, True), (_MOVED, False)) if _has(lower, _MOVE_WORDS) else ()
    for regex, agent_first in moves:
        match = regex.match(clause)
        if match is None:
            continue
        source, target = _subject(match["s"], speaker), _phrase(match["o"])
        if agent_first and (source is None or source.lower() in _FIRST_PERSON):
            continue
        if source and target:
            relation = "moved to" if regex is _MOVED and not agent_first else "migrated to"
            old = _phrase(match["old"])
            return [Claim(source, relation, target, _signal(clause, True), old, CHANGE_CONFIDENCE)]
    for relation, regex, words in _STATIVE_RES:
        match = regex.match(clause) if _has(lower, words) else None
        if match is not None:
            source, target = _subject(match["s"], speaker), _phrase(match["o"])
            purpose = _FOR.search(match["o"])
            if purpose is not None and (source == (speaker or "user")):
                source = _subject(purpose["s"], speaker)
            if source and target:
                return [Claim(source, relation, target, _signal(clause, False))]
    match = _ATTRIBUTE.match(clause) if _has(lower, _ATTRIBUTE_WORDS) else None
    if match is not None:
        source = _subject(match["s"], speaker)
        target = _phrase(match["o"])
        if source and target:
            return [Claim(source, match["a"].lower(), target, _signal(clause, False))]
    return []


def _unfolded(clause: str) -> str:
    """A clause whose change verb shares its subject with an earlier verb, with that
    subject put back ("the reporting app switched to FastAPI"); else the clause."""
    match = _AND_MOVED.match(clause)
    if match is None:
        return clause
    head = match["head"]
    if match["it"]:
        found = _HEAD_OBJECT.match(head)
        subject = found["obj"] if found else None
    else:
        found = _HEAD_SUBJECT.match(head)
        subject = found["s"] if found else head.split()[0]
    return f"{subject} {match['verb']}{match['rest']}" if subject else clause


def _with(clause: str) -> list[Claim]:
    """ "an efoil with a 12V20Ah battery" -> (efoil, has, 12V20Ah battery)."""
    found = []
    for match in _WITH.finditer(clause):
        owner, part = match["s"], _phrase(match["o"])
        if part and owner.lower() not in _DETERMINER and owner.lower() not in _STOP:
            found.append(Claim(owner, "has", part, _signal(clause, False)))
    return found


def _replaced(match: re.Match[str], clause: str, speaker: str | None) -> Claim | None:
    """ "replaced OLD with NEW (in SUBJECT)": a part of an owner ("the efoil battery"
    for "a 48V one") or a value of a subject ("MySQL" for "Postgres")."""
    old = _phrase(match["old"]) or match["old"].strip()
    raw_target = match["o"].strip().rstrip(".!")
    one = _ONE.match(raw_target)
    owner, part = _part(match["old"])
    signal = ADDITION if ADDITION_WORDS.search(clause) else CHANGE
    if one is not None:  # "for a 48V one": a new part of the same kind
        source = owner or _subject(match["agent"], speaker)
        if source is None:
            return None
        part_target = f"{one['mod']} {part}".strip()
        return Claim(source, f"has {part}", part_target, signal, None, CHANGE_CONFIDENCE)
    target = _phrase(raw_target)
    if target is None:
        return None
    # The subject named ("in billing"), else whoever did it; the planner falls back to
    # whatever held the old value when neither holds it.
    source = _subject(match["s"], speaker) if match["s"] else _subject(match["agent"], speaker)
    return Claim(source, "replaced with", target, signal, old, CHANGE_CONFIDENCE)
