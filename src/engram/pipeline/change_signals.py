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

import functools
import re

from engram.pipeline import (
    change_chat,
    change_ended,
    change_habits,
    change_kinds,
    change_plain,
    change_states,
    change_things,
    change_verbs,
    relation_ends,
    turns,
)
from engram.pipeline.change_words import (
    ADDITION,
    ADDITION_WORDS,
    ADV,
    CHANGE,
    CHANGE_CONFIDENCE,
    FIRST_PERSON,
    LEAD,
    NP,
    PLAIN,
    STOP,
    SUBJ,
    Claim,
    has,
    phrase,
    signal_of,
    subject,
)
from engram.pipeline.patterns import word_set
from engram.pipeline.prefilter import any_literal

__all__ = ["ADDITION", "ADDITION_WORDS", "CHANGE", "PLAIN", "Claim", "read"]

# A clause that states nothing yet: hedged, planned, negated or tried. A contraction is
# matched after its word ("don't", "we'll"): a word boundary never opens "n't". "may" in
# lower case only and not before a number: "moved to May 3" and "joined in May" state.
_HEDGE = re.compile(
    r"(?:n['’]t|['’]ll)\b|"
    r"\b(?:not|never|no\s+longer\s+plan|used\s+to|might|(?-i:may)(?!\s+\d)|could|would|should|maybe|perhaps|"
    r"consider(?:s|ed|ing)?|thinking\s+(?:about|of)|(?:(?:I|we|they|you|he|she)\s+plan|"
    r"plan(?:s|ned|ning)|the\s+plan\s+is)\s+to|want(?:s|ed)?\s+to|"
    r"hop(?:e|es|ed|ing)\s+to|if|whether|unless|will|"
    # "started going to Dean" is where one goes, not a plan
    r"(?<!started\s)(?<!been\s)(?<!keep\s)(?<!kept\s)going\s+to|gonna|tri(?:ed|es)\s+|trying|"
    r"evaluat(?:e|ed|ing)|test(?:ed|ing)\s+out|look(?:ed|ing)\s+(?:at|into)|propos(?:e|ed|al)|"
    r"suggest(?:s|ed)?|discuss(?:ed|ing)?|debat(?:e|ed|ing)|wonder(?:s|ed|ing)?|option|"
    r"instead\s+of\s+switching|rather\s+than|almost|nearly|refused|declined|rejected)\b",
    re.IGNORECASE,
)
#: The hedge reading for the modules that read after the rules (``change_slots``).
HEDGE = _HEDGE
_OLD = r"(?:\s+(?:from|off(?:\s+of)?)\s+(?P<old>[^,]+?))?"

_ROLES = (
    "teacher", "nurse", "engineer", "developer", "designer", "principal", "doctor", "lawyer",
    "student", "barista", "chef", "writer", "accountant", "consultant", "analyst", "scientist",
    "researcher", "architect", "pharmacist", "freelancer", "intern",
)  # fmt: skip
# (relation, verb pattern, words the pattern cannot match without).
_STATIVE: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "uses",
        r"(?:uses?|is\s+using|are\s+using|am\s+using|relies\s+on|rel(?:y|ies)\s+on|runs?\s+on|"
        r"is\s+running\s+on|(?:is|are)\s+(?:built|running)\s+(?:on|with)|"
        r"(?:is|are)\s+(?:written|coded|implemented)\s+in|(?:is|are)\s+hosted\s+(?:on|at|by|with)|"
        r"(?:is|are)\s+deployed\s+(?:on|to)|stores?\s+(?:its\s+|their\s+|all\s+)?data\s+in|"
        r"(?:is|are)\s+(?:backed|powered)\s+by|(?:is|are|am)\s+(?:now\s+)?on)",
        (" use", "using", " rel", " run", "built", "written", "coded", "implemented",
         "hosted", "deployed", " data ", "backed", "powered", " on "),
    ),
    # Present tense only: "back in 2019 I worked at Airbnb" is past narration.
    (
        "works at",
        r"(?:works?|is\s+working|am\s+working|(?:has|have)\s+been\s+working)"
        r"(?:\s+(?:in|as)\s+(?:an?\s+)?[\w-]+(?:\s+[\w-]+)?)?\s+(?:at|for)",
        ("work",),
    ),
    # "I'm at PwC now", "I've been at Initech since March": a name after "at".
    (
        "works at",
        r"(?:(?:is|am|are)(?:\s+now)?|(?:(?:has|have)\s+)?been)\s+at(?=\s+(?-i:[A-Z]))",
        ("am at", "is at", "are at", "been at", "now at"),
    ),
    # "I'm a teacher", "I'm a principal now at the same school" (a named employer after
    # "at" is the employer rule's). A short list: "I'm a big fan" is no role.
    (
        "role",
        r"(?:is|am|are)(?:\s+now)?\s+(?:a|an)(?=\s+(?:[\w-]+\s+)?(?:teacher|nurse|engineer|developer|"
        r"designer|principal|doctor|lawyer|student|barista|chef|writer|accountant|consultant|"
        r"analyst|scientist|researcher|architect|pharmacist|freelancer|intern)\b"
        r"(?!\s+(?:now\s+)?(?:at|for)\s+(?-i:[A-Z])))",
        _ROLES,
    ),
    (
        "works at",
        r"(?:is|am|are)\s+(?:employed\s+(?:at|by)|(?:a|an)\s+[\w-]+(?:\s+[\w-]+)?\s+at)",
        ("employed", " at "),
    ),
    (
        "lives in",
        r"(?:lives?|is\s+living|am\s+living|are\s+living|resides?|(?:is|am|are)\s+based|"
        r"(?:am|are)(?:\s+now)?(?=\s+in\s+(?-i:[A-Z])))\s+in",
        ("liv", "resid", "based", "am in", "are in", "now in"),
    ),
    ("married to", r"(?:is|am|are|got)\s+(?:re)?married\s+to", ("married",)),
    ("diet", r"(?:is|am|are|(?:has|have)\s+gone|went|turned)(?:\s+now|\s+fully)?(?=\s+(?:vegan|"
     r"vegetarian|pescatarian|keto|paleo)\b)|(?:is|am|are)\s+(?:now\s+)?doing(?=\s+(?:keto|paleo|"
     r"intermittent\s+fasting|whole30|low[-\s]carb)\b)", ("vegan", "vegetarian", "pescatarian",
     "keto", "paleo", "fasting", "whole30", "low carb", "low-carb")),
    ("costs", r"costs?", ("cost",)),
    ("rides", r"(?:rides?|is\s+riding|am\s+riding)", ("ride", "riding")),
    ("drinks", r"(?:drinks?|is\s+drinking|am\s+drinking)", ("drink",)),
    # Tastes: many at once, so "now" alone closes none of them (``_TASTES``).
    ("prefers", r"(?:prefers?|am\s+preferring)", ("prefer",)),
    ("likes", r"(?:likes?|loves?|enjoys?|(?:is|am|are)\s+(?:really\s+)?into)",
     (" like", " love", "enjoy", " into ")),
    ("dating", r"(?:is|am|are)\s+(?:dating|seeing)", ("dating", "seeing")),
    ("reports to", r"reports?\s+to", ("report",)),
    (
        "studies at",
        r"(?:studies|study|is\s+studying|am\s+studying|is\s+enrolled)\s+at",
        ("stud", "enrolled"),
    ),
    ("owns", r"(?:owns?|bought|purchased)", (" own", "bought", "purchased")),
    ("drives", r"drives?", (" drive",)),
    # Not the perfect tense: "I've chosen SQLite", "we have added Flask" state no having.
    ("has", r"(?:has|have)(?!(?:\s+(?:always|just|actually|really|all|still|never|ever|"
     r"already|even|also|finally|recently))*\s+(?:\w+ed|\w+en|got|gotta|gone|done|made|set|put|"
     r"run|built|had|kept|found|read|left|sent|spent|bought|brought|lost|won|begun|become|come|"
     r"heard|told|said|seen|known|taught|thought|tried|met|felt|meant|paid|held|sold|stood)\b)",
     (" has ", " have ")),
)  # fmt: skip
# "I am vegetarian": the verb names the relation and the value follows it.
_STATIVE_RES = tuple(
    (rel, re.compile(rf"{LEAD}{SUBJ}{ADV}\s+(?:{verb})\s+(?P<o>.+)$", re.I), words)
    for rel, verb, words in _STATIVE
)
# "Sam's phone is a Pixel", "my editor is Vim": an attribute said with "is".
_ATTRIBUTE = re.compile(
    rf"{LEAD}(?:(?:and\s+)?also\s+)?(?P<s>(?:my|our|(?:the\s+)?[\w.-]+(?:\s+[\w.-]+)?'s))\s+"
    r"(?P<a>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2})"
    r"(?P<adv>(?:\s+(?:now|currently))?)\s+(?:is|are)(?P<adv2>(?:\s+(?:now|currently))?)\s+(?P<o>.+)$",
    re.I,
)
# "Sam moved to Lisbon", "the team switched from Jira to Linear".
# The verbs are ``change_verbs.MOVING``'s, one table for every rule that reads a move.
_MOVE_VERB = (
    r"(?:has\s+|have\s+|got\s+|was\s+|were\s+)?(?:"
    + change_verbs.alternation(change_verbs.moving_forms())
    + r"|went(?=\s+from\b))"
)
# "We rewrote the reporting app and switched it to FastAPI", "The chat backend was
# rewritten and converted to Elixir": the second verb's subject is in the first part.
_AND_MOVED = re.compile(
    rf"^(?P<head>.+?)\s+and\s+(?:was\s+|were\s+|has\s+been\s+|then\s+)?(?P<verb>{_MOVE_VERB})"
    r"(?P<it>\s+(?:it|them))?(?P<rest>\s+.+)$",
    re.I,
)
_HEAD_OBJECT = re.compile(rf"^{SUBJ}\s+\w+\s+(?P<obj>.+)$", re.I)
_HEAD_SUBJECT = re.compile(
    rf"^(?P<s>{NP})\s+(?:was|were|is|are|got|has\s+been|have\s+been)\s", re.I
)
_MOVED = re.compile(
    rf"{LEAD}{SUBJ}{ADV}\s+{_MOVE_VERB}(?:\s+(?:back|over|away|house|everything))*{_OLD}"
    r"\s+(?:to|onto|over\s+to|in)\s+(?P<o>.+)$",
    re.I,
)
# "we migrated billing (from MySQL) to Postgres": what moved is the subject.
_MOVED_OBJECT = re.compile(
    rf"{LEAD}(?P<agent>{NP}){ADV}\s+{_MOVE_VERB}\s+(?P<s>(?!(?:from|to|over|back|away|off|out)\b){NP})"
    rf"(?:\s+over)?{_OLD}\s+(?:to|onto|over\s+to)\s+(?P<o>.+)$",
    re.I,
)
# "replaced MySQL with Postgres (in billing)", "swapped the efoil battery for a 48V one".
_REPLACED = re.compile(
    rf"{LEAD}(?:(?P<agent>{NP}){ADV}\s+)?(?:has\s+|have\s+)?(?:replaced|swapped(?:\s+out)?|"
    r"traded(?:\s+in)?|exchanged|substituted|ditched|dropped|dumped|abandoned|retired|"
    r"upgraded|downgraded|left)\s+(?P<old>[^,]+?)\s+(?:with|for|by|in\s+favou?r\s+of|to)\s+"
    r"(?P<o>.+?)(?:\s+(?:in|for|on|at|across)\s+(?P<s>(?:the|our|my|their|his|her)\s+.+))?$",
    re.I,
)
# "Sam joined Initech", "took a job at Globex", "was hired by Umbrella".
_JOINED = re.compile(
    rf"{LEAD}{SUBJ}{ADV}\s+(?:has\s+|have\s+)?(?P<v>joined|signed\s+with|"
    r"started\s+(?:a\s+(?:new\s+)?(?:job|role|position)\s+)?(?:at|with)|"
    r"took\s+(?:a|an|the)\s+(?:new\s+)?(?:job|role|position|offer)\s+(?:at|with)|"
    r"started\s+(?:working|work)\s+(?:at|for)|(?:has|have)\s+a\s+new\s+(?:job|role|position)\s+(?:at|with)|"
    r"got\s+(?:a\s+(?:new\s+)?job\s+at|hired\s+(?:at|by))|(?:was|were|got)\s+hired\s+(?:by|at)|"
    r"accepted\s+(?:an?\s+|the\s+)?(?:offer|job|position|role)\s+(?:at|from|with)|"
    r"came\s+on\s+board\s+at|is\s+now\s+(?:at|with)|went\s+to\s+work\s+(?:at|for))\s+(?P<o>.+)$",
    re.I,
)
# "I got a new phone, a Pixel 8", "Derek bought a new 48V battery for the efoil".
_NEW_THING = re.compile(
    rf"{LEAD}{SUBJ}{ADV}\s+(?:got|bought|purchased|has|have|picked\s+up|installed|fitted)\s+"
    r"(?:a|an|the)\s+new\s+(?P<o>[^,]+?)(?:,\s+(?:a|an|the)\s+(?P<name>[^,]+))?"
    r"(?:\s+(?:for|on|in)\s+(?P<owner>(?:the|my|our|his|her|their)\s+[\w\s-]+))?(?:,.*)?$",
    re.I,
)
# "we use Vue for the frontend": what the first person uses it for is the subject.
_FOR = re.compile(r"^[^,;]*?\b(?:for|in|on|across)\s+(?P<s>(?:the|our|my|their)\s+[\w\s-]+)$", re.I)
_ONE = re.compile(r"^(?:a|an|the)?\s*(?P<mod>.*?)\s*\bones?\b$", re.I)
# A comma before a subject or a subjectless change verb starts a new claim ("Left
# Deloitte, I'm at PwC now", "cancelled spotify, switched to Apple Music").
# Each alternative opens on ";", "," or a space, so a position that holds none of them
# fails at once (this runs on every sentence of the write path).
_SPLIT = re.compile(
    r";\s*|"
    r",\s+(?:(?:but|and\s+then|so\s+now|so)\s+|and\s+(?=(?:I|we)\s)|"
    r"(?=(?:I|we)\s|don['’]t\s|do\s+not\s|(?:just\s+|finally\s+)?(?:switched|moved|migrated|"
    r"started|joined|left|quit|got|took|sold|dropped|ditched|cancell?ed)\b))|"
    r"\s+(?:but\s+|and\s+then\s+|so\s+now\s+|and\s+(?=(?:I|we)\s))",
    re.I,
)
# A third-person subject that leaves or moves, in front of a comma ("Sam left Initech",
# "My sister quit Acme"); "I" and "we" are the speaker's already.
_NAMED_LEAVER = re.compile(
    r"^(?:[^,]{0,40},\s*)?(?P<s>(?:(?:my|our|his|her|their)\s+[\w-]+)|(?-i:[A-Z][a-z][\w-]*"
    r"(?:\s+[A-Z][a-z][\w-]*)?))\s+(?:(?:just|finally|recently)\s+)?(?:left|quit|sold|dropped|"
    r"ditched|cancell?ed|moved|switched)\b",
    re.I,
)
_BARE_VERB = re.compile(
    r"^(?:(?:just|finally)\s+)?(?:switched|moved|migrated|started|joined|left|quit|got|took|"
    r"sold|dropped|ditched|cancell?ed)\b",
    re.I,
)
_NOT_SUBJECTS = STOP | FIRST_PERSON | word_set("just finally ok okay so well btw yeah")
# Words in front of the owner of a replaced part ("the old efoil battery").
_OLD_WORDS = word_set(
    "the a an my our his her their its old previous original former existing stock broken "
    "current aging ageing worn dead tired"
)


def _part(old: str) -> tuple[str | None, str]:
    """("efoil", "battery") for "the old efoil battery": the owner a replaced part
    names, if any, and the part's head noun."""
    words = [w for w in old.lower().split() if w not in _OLD_WORDS]
    if not words:
        return None, old
    owner = " ".join(w.removesuffix("'s") for w in words[:-1]) or None
    return owner, words[-1]


# The words each change rule cannot match without: a rule is tried on a clause only when
# the clause holds one of them (the rules are slow, and most chat has none of them).
_REPLACE_WORDS = (
    "replac", "swap", "trad", "exchang", "substitut", "ditch", "drop", "dump", "abandon",
    "retir", "upgrad", "downgrad", "left",
)  # fmt: skip
_JOIN_WORDS = (
    "joined", "signed with", "started", "took a", "took the", "got a", "got hired", "hired",
    "new job", "new role", "new position", "accepted", "came on", "now at", "now with",
    "went to work",
)  # fmt: skip
_MOVE_WORDS = (
    "switch", "mov", "migrat", "chang", "transition", "upgrad", "downgrad", "ported", " port ",
    "convert", "relocat", "went ", "shift", "transfer",
)  # fmt: skip
_NEW_WORDS = (" new ",)
_ATTRIBUTE_WORDS = ("'s ", " my ", " our ")
_WITH_WORDS = (" with ",)
_ANY_WORD = any_literal(
    w
    for words in (
        _REPLACE_WORDS,
        change_plain.SOLD_WORDS,
        _JOIN_WORDS,
        _MOVE_WORDS,
        _NEW_WORDS,
        change_things.WORDS,
        change_habits.WORDS,
        _ATTRIBUTE_WORDS,
        _WITH_WORDS,
        *(words for _, _, words in _STATIVE),
    )
    for w in words
)


def read(text: str) -> list[Claim]:
    """The change claims ``text`` makes (see the module docstring)."""
    speaker, said = turns.claim_clauses(change_chat.normalized(text), _READING)
    found: list[Claim] = []
    olds: set[str] = set()
    kinds: set[str] = set()
    gone: set[str] = set()
    after: list[str] = []  # the clauses after a departure, where a successor is named
    for clause in (plain for chat in said for plain in change_chat.clauses(chat)):
        lower = f" {clause.lower()} "
        kind = change_habits.changed_kind(clause, lower)
        if kind is not None:  # "I changed gyms": the claim beside it names the new gym
            kinds.add(kind)
            continue
        went = change_ended.gone(clause) if has(lower, change_ended.GONE_WORDS) else None
        if went is not None:  # "Ocado's gone, we use Tesco delivery now"
            gone.add(went[0])
            after = [went[1]] if went[1] else []
            if went[1] is None:
                continue
            clause, lower = went[1], f" {went[1].lower()} "
        elif gone:
            after.append(clause)
        if has(lower, change_ended.WORDS):  # "I don't like sushi any more, ..."
            old, rest = change_ended.ended(clause)
            olds.update([old] if old else [])
            if rest is None:
                continue
            clause, lower = rest, f" {rest.lower()} "
        if _ANY_WORD.search(lower) is None:
            continue
        hedge = _HEDGE.search(clause)
        if hedge is not None:
            # "we renamed the cat to Mochi, Luna didn't suit her": the hedge is in a
            # later part; the part before it still states its claim.
            head = (
                clause[: hedge.start()].rsplit(",", 1)[0] if "," in clause[: hedge.start()] else ""
            )
            if len(head.split()) < 3 or _HEDGE.search(head):
                continue
            clause, lower = head, f" {head.lower()} "
        unfolded = _unfolded(clause) if has(lower, _MOVE_WORDS) else clause
        found.extend(_clause(unfolded, f" {unfolded.lower()} ", speaker))
        if has(lower, _WITH_WORDS):
            found.extend(change_things.parts(clause))
        if has(lower, change_things.NAME_WORDS):
            found.extend(change_things.called(clause))
    if len(kinds) == 1:
        found = change_habits.of_kind(found, kinds.pop(), speaker)
    # "My manager is no longer Joost": Joost ended, the value is not "no longer Joost";
    # and an end that is no thing ("moved to the platform team" as a home) is no claim.
    for claim in found:
        negated = relation_ends.NEGATED.match(claim.target.strip())
        ended = phrase(negated["rest"]) if negated is not None else None
        if ended and claim.source == (speaker or "user"):
            olds.add(ended)
    found = [
        c for c in found if not relation_ends.no_claim(c.source or "", c.relation, c.target, text)
    ]
    # One value said to end, beside the speaker's claim: the claim replaces it, alone;
    # one thing said to be gone, beside any claim.
    if len(gone) == 1 and not olds:
        return change_ended.after_gone(found, gone.pop(), after, speaker)
    return change_ended.mark(found, olds.pop(), speaker) if len(olds) == 1 else found


def _split(sentence: str) -> list[str]:
    parts = _SPLIT.split(sentence.rstrip(".! "))
    if len(parts) < 2:
        return parts
    # "Sam left Initech, joined Globex": the bare verb after the comma is Sam's, not the
    # speaker's (``change_chat.clauses`` puts "I" in front of a clause with no subject).
    named = _NAMED_LEAVER.match(parts[0])
    words = named["s"].split() if named is not None else []
    while words and words[0].lower() in _NOT_SUBJECTS:  # "Yesterday Sam left ..."
        words = words[1:]
    if not words:
        return parts
    who = " ".join(words)
    return [parts[0]] + [f"{who} {part}" if _BARE_VERB.match(part) else part for part in parts[1:]]


# "Fontaines D.C. now": an initialism before a word in lower case ends no sentence.
_INITIALISM = re.compile(r"\b(?:[A-Za-z]\.){2,}$")


def _sentences(text: str) -> list[str]:
    """``turns.split_sentences``, with a piece in lower case after an initialism put
    back ("my favourite band is Fontaines D.C. now" lost its "now")."""
    found: list[str] = []
    for sentence in turns.split_sentences(text):
        if found and sentence[:1].islower() and _INITIALISM.search(found[-1]):
            found[-1] = f"{found[-1]} {sentence}"
        else:
            found.append(sentence)
    return found


# A question is dropped whole.
_READING = turns.Reading(sentences=_sentences, clauses=_split)


# Cached (rules26) as a tuple: a cached list one caller extended altered later readings.
@functools.lru_cache(maxsize=1 << 14)
def _clause(clause: str, lower: str, speaker: str | None) -> tuple[Claim, ...]:
    """The claim of one clause (``lower``: it in lower case, padded with spaces): the
    first rule that reads it wins, change rules first (a change sentence also reads as
    a stative one)."""
    return tuple(_clause_read(clause, lower, speaker))


def _clause_read(clause: str, lower: str, speaker: str | None) -> list[Claim]:
    said = change_things.said_of_things(clause, lower, speaker)
    if said:
        return said
    match = _REPLACED.match(clause) if has(lower, _REPLACE_WORDS) else None
    if match is None and has(lower, change_plain.SOLD_WORDS):
        match = change_plain.SOLD.match(clause)  # "sold the Corolla and bought a Tesla"
    if match is not None:
        claim = _replaced(match, clause, speaker)
        if claim is not None:
            return [claim]
    match = _JOINED.match(clause) if has(lower, _JOIN_WORDS) else None
    if match is not None:
        source, target = subject(match["s"], speaker), phrase(match["o"])
        if source and target:
            signal = ADDITION if ADDITION_WORDS.search(clause) else CHANGE
            return [Claim(source, "joined", target, signal, None, CHANGE_CONFIDENCE)]
    match = _NEW_THING.match(clause) if has(lower, _NEW_WORDS) else None
    if match is not None:
        thing = phrase(match["o"])
        owner = subject(match["owner"], speaker) or subject(match["s"], speaker)
        if thing and owner:
            named = phrase(match["name"]) if match["name"] else None
            if named and change_kinds.attribute_one(thing, named):
                # "Anna has a new manager, Lucia": the manager is Lucia now, as "Anna's
                # manager is Lucia" says (a kind held one at a time).
                return [Claim(owner, thing, named, CHANGE, None, CHANGE_CONFIDENCE, one=True)]
            target = f"{named} {thing.split()[-1]}" if named else thing
            return [Claim(owner, "has", target, signal_of(clause, True), None, CHANGE_CONFIDENCE)]
    moves = ((_MOVED_OBJECT, True), (_MOVED, False)) if has(lower, _MOVE_WORDS) else ()
    for regex, agent_first in moves:
        match = regex.match(clause)
        if match is None:
            continue
        source, target = subject(match["s"], speaker), phrase(match["o"])
        if agent_first and (source is None or source.lower() in FIRST_PERSON):
            continue
        mine = agent_first and _MINE.match(match["s"])
        if mine and source and target:  # "I switched my phone plan to Mint": my plan is now Mint
            # "I moved my notes from Notion to Obsidian": what held Notion changes.
            old = phrase(match["old"])
            return [
                Claim(speaker or "user", source.lower(), target, CHANGE, old, CHANGE_CONFIDENCE)
            ]
        if source and target:
            # A person moves home; a thing, or anyone switching or upgrading, changes
            # what it uses ("the newsletter moved to Buttondown", "I switched to Zed").
            home = _RELOCATED.search(clause[: match.start("o")]) is not None and (
                change_kinds.names_person(source, speaker)
                or source.lower().split()[-1] in change_habits.SITES
            )
            relation = "moved to" if regex is _MOVED and home else "migrated to"
            relation = "scheduled" if change_things.IS_WHEN.match(target) else relation
            old = phrase(match["old"])
            # "We ported the main database to Postgres": the speaker did it to a thing
            # that may be an attribute of theirs ("our main database is MySQL").
            agent = match.groupdict().get("agent") if agent_first else None
            by = speaker or "user" if agent and agent.lower() in FIRST_PERSON else None
            signal = signal_of(clause, True)
            return [Claim(source, relation, target, signal, old, CHANGE_CONFIDENCE, agent=by)]
    if has(lower, change_habits.WORDS):
        habit = change_habits.routine(clause, speaker) or change_habits.site(clause, speaker)
        if habit is not None:
            return [habit]
    for relation, regex, words in _STATIVE_RES:
        match = regex.match(clause) if has(lower, words) else None
        if match is not None:
            source, target = subject(match["s"], speaker), phrase(match["o"])
            purpose = _FOR.search(match["o"])
            if purpose is not None and relation == "uses" and source == (speaker or "user"):
                source = subject(purpose["s"], speaker)
            if relation in _TASTES and target and not _taste(match["s"], target):
                continue
            if source and target:
                signal = signal_of(clause, relation == "diet" and _GONE.search(clause) is not None)
                if relation in _TASTES and signal == CHANGE:
                    # "I prefer aisle seats now" does not end "I prefer Python": a
                    # taste ends only when the text names it (``change_ended``).
                    signal = PLAIN
                if (
                    relation == "uses"
                    and signal == PLAIN
                    and purpose is None
                    and _PURPOSE.search(match["o"])
                ):
                    signal = ADDITION  # "I use Vim for quick edits": one use among others
                return [Claim(source, relation, target, signal)]
    match = _ATTRIBUTE.match(clause) if has(lower, _ATTRIBUTE_WORDS) else None
    if match is None and has(lower, _ATTRIBUTE_WORDS):
        inverted = change_kinds.named_attribute(clause, speaker)
        if inverted is not None:
            return [inverted]
    if match is not None:
        source = subject(match["s"], speaker)
        target = phrase(re.sub(r"^with\s+", "", match["o"], flags=re.I))  # "is with Verizon"
        if source and target:
            # "my new manager is Tom" says what "my manager is" now is, as "new manager:
            # Tom" does (``change_things._NEW_ATTRIBUTE``): it read as a "new manager"
            # of its own, beside the manager it replaced.
            attribute = match["a"].lower()
            parts = attribute.split()
            if len(parts) == 3 and (
                parts[0] == "new" or any(w in STOP or w in FIRST_PERSON for w in parts)
            ):
                return []  # "my friend and I are ...", "my new york office": none of three words
            if change_states.no_value(parts[-1], match["o"]):
                return []
            if attribute.startswith("new ") and len(attribute) > 4:
                return [Claim(source, attribute[4:], target, CHANGE, None, CHANGE_CONFIDENCE)]
            one = change_kinds.attribute_one(attribute, target)
            return [Claim(source, attribute, target, signal_of(clause, False), one=one)]
    return []


_MINE = re.compile(r"(?:my|our)\s", re.I)
_TO = re.compile(r"\s+to\s+", re.I)
_TASTES = frozenset(("prefers", "likes"))
# "it looks like rain", "sounds like a plan", "I love you": no taste.
_NOT_TASTERS = word_set("it that this which what looks look sounds sound seems seem feels feel")
_NOT_TASTED = word_set("you me us him her them")


def _taste(raw_subject: str, target: str) -> bool:
    """Whether "SUBJECT likes TARGET" states a taste."""
    words = raw_subject.lower().split()
    return not (_NOT_TASTERS & set(words)) and target.lower() not in _NOT_TASTED


_GONE = re.compile(r"\b(?:gone|went|turned)\b", re.I)
_RELOCATED = re.compile(r"\b(?:mov|relocat)", re.I)
_PURPOSE = re.compile(r"\bfor\s+(?!the\b|our\b|my\b|their\b)\w", re.I)


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


def _replaced(match: re.Match[str], clause: str, speaker: str | None) -> Claim | None:
    """ "replaced OLD with NEW (in SUBJECT)": a part of an owner ("the efoil battery"
    for "a 48V one") or a value of a subject ("MySQL" for "Postgres")."""
    raw_target = match["o"].strip().rstrip(".!")
    signal = ADDITION if ADDITION_WORDS.search(clause) else CHANGE
    if _MINE.match(match["old"]) and _TO.search(clause, match.end("old"), match.start("o")):
        # "we downgraded our Figma plan to Starter": the plan is Starter now; "upgraded
        # my Kindle to a Kobo": what held a Kindle changes (the planner finds it).
        thing, target = subject(match["old"], speaker), phrase(raw_target)
        if not thing or not target:
            return None
        # A named thing ("my Kindle") is used; an attribute ("our Figma plan") is had.
        relation = thing.lower() if thing.split()[-1].islower() else "uses"
        return Claim(speaker or "user", relation, target, signal, thing, CHANGE_CONFIDENCE)
    old = phrase(match["old"]) or match["old"].strip()
    one = _ONE.match(raw_target)
    owner, part = _part(match["old"])
    if one is not None:  # "for a 48V one": a new part of the same kind
        source = owner or subject(match["agent"], speaker)
        if source is None:
            return None
        part_target = f"{one['mod']} {part}".strip()
        return Claim(source, f"has {part}", part_target, signal, None, CHANGE_CONFIDENCE)
    target = phrase(raw_target)
    if target is None:
        return None
    # The subject named ("in billing"), else whoever did it; the planner falls back to
    # whatever held the old value when neither holds it.
    source = subject(match["s"], speaker) if match["s"] else subject(match["agent"], speaker)
    return Claim(source, "replaced with", target, signal, old, CHANGE_CONFIDENCE)
