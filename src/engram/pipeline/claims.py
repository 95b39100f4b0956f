"""Attribute claims: what a statement says about which subject (issue 28, FEATURES P5).

The contradiction detector (:mod:`engram.pipeline.contradiction`) compares claims, not
shared words. A claim is *subject / attribute / value* with a polarity: "Derek doesn't
live in Boston anymore" is ``(derek, residence, {boston}, negated)``. Reading is
rule-based and deliberately narrow, because a claim it invents is a false proposal in
the review queue (issue 28 measured dozens per LoCoMo conversation from shared words):

- a clause yields a claim only when its subject is a name, a determined noun phrase
  ("the billing service", "my sister") or "I"/"we" (resolved to the speaker of a
  ``"Name: ..."`` line); he/she/it/this/that/you are unresolved and yield nothing;
- the verb must be one the lexicon below knows; questions, intentions and hypotheticals
  ("will", "hope to", "going to") yield nothing;
- conversational filler never forms a claim: thanks, greetings, feelings ("I felt so
  proud", "Caroline is so excited"), opinions ("Melanie thinks ...") and values that are
  only pronouns ("I love that!").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from engram.pipeline import turns
from engram.text import STOPWORDS

_BRACKETS = re.compile(r"\[[^\]]*\]|\([^)]*\)")
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\s+[-\u2013\u2014]+\s+|\n+")
_CLAUSE = re.compile(r",?\s+(?:but|because|although|though|while|whereas)\s+|,\s+and\s+|,\s+so\s+")
_QUESTION_TAIL = re.compile(
    r",\s+(?:so\s+|but\s+|and\s+)?(?:should|can|could|would|will|do|does|did|how|what|"
    r"which|why|where|when|is|are|any)\b",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[A-Za-z0-9][\w'.-]*[\w]|[A-Za-z0-9]")


def _words(text: str) -> frozenset[str]:
    """A word list written as prose."""
    return frozenset(text.split())


#: Words before the subject that carry nothing ("Oh, well, so ...").
_LEAD = _words(
    """
    oh wow yeah yes yep well so hey hmm anyway actually honestly btw plus and but
    then today yesterday lately ok okay um uh
    """
)
_DETERMINERS = _words("the a an our my your their his her its this that these those")
#: Subjects that need a referent this reader does not resolve.
_UNRESOLVED = _words(
    """
    he she it they them this that these those you there here who what which how when
    where why if everyone someone somebody anyone nobody everything something
    anything one
    """
)
_FIRST = frozenset({"i", "i'm", "i've", "i'd", "me"})
_COPULA = frozenset({"is", "are", "was", "were", "am", "'s", "'re", "'m", "be", "been"})
_HAVE = frozenset({"has", "have", "had", "'ve"})
_DO = frozenset({"do", "does", "did"})
#: Intentions, wishes and hypotheticals: a plan is not a fact that holds.
_UNREAL = _words("will would could might may should must shall gonna wanna ll 'll 'd")
_NEGATORS = frozenset({"not", "never", "n't", "no"})
_ADVERBS = _words(
    """
    still now currently also really just actually already finally recently always
    usually definitely totally truly even only officially
    """
)
#: Words that say the value is added beside others, not replacing them.
_ADDITIVE = frozenset({"also", "too", "another", "additionally"})
#: Value words that carry no content of their own.
_VALUE_FILLER = _words(
    """
    yet anymore again still too either really so very lot much super pretty totally
    ever now currently any more some last next ago week weeks month months year
    years day days spring summer autumn fall winter weekend morning evening tonight
    today yesterday tomorrow recently lately since
    """
)
_PRONOUN_VALUES = _UNRESOLVED | {"me", "him", "her", "us", "it", "them", "myself", "yourself"}
#: Feelings and evaluations: "so proud", "thrilled", "awesome" are moods, not attributes.
EMOTIONS = _words(
    """
    proud grateful thankful happy glad excited thrilled stoked lucky blessed sorry sad upset
    nervous scared afraid anxious worried tired exhausted busy sure unsure okay ok fine good
    great amazing awesome wonderful beautiful cool nice fun lovely inspired inspiring
    motivated relieved bummed down overwhelmed curious interested keen eager ready free
    honored honoured touched moved grateful appreciative impressed surprised shocked
    amazed delighted pleased content jealous glad bored stressed hopeful confident
    passionate determined fantastic incredible awful terrible hard tough difficult easy
    important special huge big true right wrong welcome alone
    """
)
#: Opinion, feeling and speech verbs: what follows is a view, not an attribute.
_OPINION = _words(
    """
    think thought believe guess bet wonder feel felt hope wish want wanted need
    needed appreciate thank thanks say said mean meant agree imagine
    suppose reckon remember forget forgot recall miss seem seems seemed sound sounds
    sounded look looks looked can't cannot wait
    """
)

# verb lemma -> its forms. Regular forms are generated; irregular ones are listed.
_IRREGULAR = {
    "be": (),
    "have": ("has", "had", "having"),
    "do": ("does", "did", "done", "doing"),
    "go": ("goes", "went", "gone", "going"),
    "run": ("runs", "ran", "running"),
    "drive": ("drives", "drove", "driven", "driving"),
    "eat": ("eats", "ate", "eaten", "eating"),
    "drink": ("drinks", "drank", "drunk", "drinking"),
    "speak": ("speaks", "spoke", "spoken", "speaking"),
    "teach": ("teaches", "taught", "teaching"),
    "buy": ("buys", "bought", "buying"),
    "sell": ("sells", "sold", "selling"),
    "keep": ("keeps", "kept", "keeping"),
    "leave": ("leaves", "left", "leaving"),
    "take": ("takes", "took", "taken", "taking"),
    "make": ("makes", "made", "making"),
    "build": ("builds", "built", "building"),
    "write": ("writes", "wrote", "written", "writing"),
    "read": ("reads", "reading"),
    "ride": ("rides", "rode", "ridden", "riding"),
    "swim": ("swims", "swam", "swum", "swimming"),
    "become": ("becomes", "became", "becoming"),
    "get": ("gets", "got", "gotten", "getting"),
    "quit": ("quits", "quitting"),
    "wear": ("wears", "wore", "worn", "wearing"),
    "hold": ("holds", "held", "holding"),
    "grow": ("grows", "grew", "grown", "growing"),
    "win": ("wins", "won", "winning"),
    "lose": ("loses", "lost", "losing"),
    "begin": ("begins", "began", "begun", "beginning"),
    "bear": ("born",),
    "fly": ("flies", "flew", "flown", "flying"),
    "sing": ("sings", "sang", "sung", "singing"),
}
_REGULAR = """
live reside work use own like love hate dislike prefer enjoy play study attend visit
store host deploy support require allow deny block enable disable cost weigh stay belong
adopt paint volunteer date marry divorce move relocate switch migrate replace join
employ base locate call name rent lease plan start stop smoke cook bake practice practise
collect raise train serve manage lead head depend rely contain include exclude accept
reject open close install prefer listen watch follow own subscribe shop celebrate
identify vote own need
"""


def _forms(lemma: str) -> list[str]:
    stem = lemma[:-1] if lemma.endswith("e") else lemma
    out = [lemma, lemma + "s", stem + "ed", stem + "ing"]
    if lemma.endswith(("sh", "ch", "s", "x")):
        out.append(lemma + "es")
    if lemma.endswith("y") and lemma[-2:-1] not in "aeiou":
        out += [lemma[:-1] + "ies", lemma[:-1] + "ied"]
    if re.fullmatch(r"[^aeiou]*[aeiou][bdgmnprt]", lemma):  # stop -> stopped
        out += [lemma + lemma[-1] + "ed", lemma + lemma[-1] + "ing"]
    return out


_LEMMA: dict[str, str] = {}
for _lemma in _REGULAR.split():
    for _form in _forms(_lemma):
        _LEMMA.setdefault(_form, _lemma)
for _lemma, _extra in _IRREGULAR.items():
    for _form in (_lemma, *_extra):
        _LEMMA[_form] = _lemma

#: verb lemma (with its preposition) -> (canonical attribute, polarity, stated as a change).
#: Canonical names group the ways of saying one attribute; antonym verbs share one
#: attribute with opposite polarity ("dislikes" is "likes" negated).
_CANON: dict[str, tuple[str, bool, bool]] = {
    "live in": ("residence", True, False),
    "reside in": ("residence", True, False),
    "be based in": ("residence", True, False),
    "be located in": ("residence", True, False),
    "move to": ("residence", True, True),
    "relocate to": ("residence", True, True),
    "work at": ("employer", True, False),
    "work for": ("employer", True, False),
    "be employed at": ("employer", True, False),
    "be employed by": ("employer", True, False),
    "use": ("use", True, False),
    "run on": ("use", True, False),
    "be built on": ("use", True, False),
    "rely on": ("use", True, False),
    "depend on": ("use", True, False),
    "switch to": ("use", True, True),
    "migrate to": ("use", True, True),
    "marry": ("spouse", True, False),
    "be married to": ("spouse", True, False),
    "be born in": ("birthplace", True, False),
    "be called": ("name", True, False),
    "be named": ("name", True, False),
    "like": ("like", True, False),
    "love": ("like", True, False),
    "enjoy": ("like", True, False),
    "dislike": ("like", False, False),
    "hate": ("like", False, False),
    "enable": ("enable", True, False),
    "disable": ("enable", False, False),
    "allow": ("allow", True, False),
    "deny": ("allow", False, False),
    "block": ("allow", False, False),
    "accept": ("accept", True, False),
    "reject": ("accept", False, False),
    "include": ("include", True, False),
    "exclude": ("include", False, False),
}
#: The attribute of "<owner>'s <thing> is <value>" ("Ben's favorite color is blue"): one
#: thing of one owner has one value at a time.
POSSESSED = "value"
#: Attributes with one value at a time: a new value replaces the old one.
SINGLE_VALUED = frozenset(
    {"residence", "employer", "spouse", "birthplace", "name", "age", POSSESSED}
)
#: Attributes where a value stated as a change ("switched to", "now uses") replaces the
#: old one although they may hold several values otherwise ("also uses Redis").
CHANGEABLE = SINGLE_VALUED | {"use"}
#: Change verbs whose object may come before "to" ("moved the team to Berlin").
_MOVERS = frozenset({"migrate", "switch", "move", "relocate"})
_PREPOSITIONS = ("in", "at", "for", "to", "on", "by", "from", "with")

#: seed 004's antonym pairs, for values ("the flag is enabled" / "... disabled").
VALUE_ANTONYMS: tuple[tuple[str, str], ...] = (
    ("enabled", "disabled"),
    ("allowed", "denied"),
    ("allowed", "blocked"),
    ("accepted", "rejected"),
    ("on", "off"),
    ("true", "false"),
    ("open", "closed"),
    ("public", "private"),
    ("required", "optional"),
    ("mandatory", "optional"),
    ("valid", "invalid"),
    ("active", "inactive"),
    ("online", "offline"),
    ("single", "married"),
    ("alive", "dead"),
    ("vegetarian", "carnivore"),
    ("employed", "unemployed"),
    ("available", "unavailable"),
    ("supported", "unsupported"),
    ("healthy", "sick"),
)
_ANTONYM_OF = {a: b for a, b in VALUE_ANTONYMS} | {b: a for a, b in VALUE_ANTONYMS}


@dataclass(frozen=True, slots=True)
class Claim:
    """One attribute claim read from a clause."""

    subject: tuple[str, ...]
    attribute: str
    value: frozenset[str]
    negated: bool = False
    change: bool = False
    additive: bool = False
    text: str = ""
    """The clause it was read from (what the review queue shows)."""

    @property
    def subject_name(self) -> str:
        """The subject as words."""
        return " ".join(self.subject)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'")


def _split_negation(words: list[str]) -> list[str]:
    """``["doesn't"]`` -> ``["does", "n't"]`` (and ``can't``, ``won't``)."""
    out: list[str] = []
    for w in words:
        low = w.lower()
        if low in ("can't", "cannot"):
            out += ["can", "n't"]
        elif low == "won't":
            out += ["will", "n't"]
        elif low.endswith("n't") and len(low) > 3:
            out += [w[:-3], "n't"]
        elif low.endswith(("'s", "'m", "'re", "'ve", "'d", "'ll")) and low.split("'")[0] in (
            _FIRST | _UNRESOLVED | {"i", "we", "that", "it", "there"}
        ):
            head, _, tail = w.partition("'")
            out += [head, "'" + tail.lower()]
        else:
            out.append(w)
    return out


def read(text: str, *, speaker: str | None = None) -> list[Claim]:
    """Every claim ``text`` states (a ``"Name: ..."`` prefix names the speaker)."""
    named, clauses = turns.claim_clauses(_fold(text), _READING)
    speaker = named or speaker
    claims = (_clause(clause, speaker) for clause in clauses)
    return [claim for claim in claims if claim is not None]


def _sentences(body: str) -> list[str]:
    return _SENTENCE.split(_BRACKETS.sub(" ", body))


# Sentences end at ";" and dashes too; a statement that leads into a question is kept
# ("I've never used X, should I ...?").
_READING = turns.Reading(
    sentences=_sentences, clauses=_CLAUSE.split, question_tail=_QUESTION_TAIL, strip=" ,.!;:\"'"
)


def _subject(words: list[str], speaker: str | None) -> tuple[tuple[str, ...], int, bool] | None:
    """The clause's subject, where its verb phrase starts, and whether the subject is
    one owner's singular thing ("Ben's favorite color"); or None."""
    i = 0
    while i < len(words) and words[i].lower().strip(",") in _LEAD:
        i += 1
    if i >= len(words):
        return None
    first = words[i].lower()
    if first in _FIRST:
        return ((speaker.lower(),) if speaker else ("i",)), i + 1, False
    if first == "we":
        return ("we",), i + 1, False
    if first in _UNRESOLVED:
        return None
    start = i
    if first in _DETERMINERS:
        i += 1
    # The subject runs up to the first auxiliary or known verb, at most four words.
    j = i
    while j < len(words) and j - i < 5:
        low = words[j].lower()
        if low in _COPULA or low in _HAVE or low in _DO or low in _UNREAL or low in _ADVERBS:
            break
        if low in ("can", "no", "never", "'s") or (low in _LEMMA and j > i):
            break
        if low in _OPINION and j > i:
            break
        j += 1
    if j == i or j >= len(words) or j - i >= 5:
        return None
    head = [w.lower() for w in words[i:j]]
    if any(w in _UNRESOLVED or w in _FIRST for w in head):
        return None
    proper = words[start][:1].isupper() and first not in _DETERMINERS
    if first not in _DETERMINERS and not proper:
        return None  # a bare common noun ("pottery is ...") is too vague to compare
    subject = tuple(w.removesuffix("'s") for w in head if w not in STOPWORDS or w == "we")
    owned = any(w.endswith("'s") for w in head[:-1]) and not head[-1].endswith("s")
    return (subject, j, owned) if subject else None


def _clause(clause: str, speaker: str | None) -> Claim | None:
    words = _split_negation(_TOKEN.findall(clause))
    found = _subject(words, speaker)
    if found is None:
        return None
    subject, i, owned = found
    negated = change = additive = helped = False
    copula = False
    low = [w.lower() for w in words]
    # Auxiliaries, adverbs and negation between the subject and the verb.
    while i < len(low):
        w = low[i]
        if w in _UNREAL:
            return None
        nxt = low[i + 1] if i + 1 < len(low) else ""
        if w in _NEGATORS:
            if w == "no" and nxt == "longer":
                i += 1
                change = True
            negated, helped = not negated, True
        elif w in _ADVERBS:
            change = change or w == "now"
            additive = additive or w == "also"
        elif w in _COPULA:
            copula = True
        elif w in _HAVE or w in _DO or w == "can":
            # An auxiliary when a verb follows ("has moved", "doesn't live", "did
            # submit"); else the verb itself ("has a dog", "did a great job").
            if not _verb_follows(w, nxt):
                break
            helped = True
        else:
            break
        i += 1
    if i >= len(low):
        return None
    return _predicate(
        subject,
        low,
        i,
        owned=owned,
        helped=helped,
        copula=copula,
        negated=negated,
        change=change,
        additive=additive,
        text=clause,
    )


def _verb_follows(auxiliary: str, nxt: str) -> bool:
    """Is ``auxiliary`` followed by the verb it helps (a known verb, a negation, an
    adverb or copula, a participle after have, any content word after do or can)?"""
    if nxt in _LEMMA or nxt in _NEGATORS or nxt in _ADVERBS or nxt in _COPULA:
        return True
    if not nxt.isalpha():
        return False
    if auxiliary in _HAVE:
        return nxt.endswith(("ed", "en"))
    return nxt not in STOPWORDS


def _predicate(
    subject: tuple[str, ...],
    low: list[str],
    i: int,
    *,
    owned: bool,
    helped: bool,
    copula: bool,
    negated: bool,
    change: bool,
    additive: bool,
    text: str,
) -> Claim | None:
    verb = low[i]
    if verb in _OPINION or (verb in ("going", "planning", "hoping", "trying") and copula):
        return None  # an opinion, a feeling or a plan
    lemma = _LEMMA.get(verb)
    if copula and verb.endswith("ing"):
        if lemma is None:
            return None  # "is putting together ...": an activity, not an attribute
        phrase, rest = lemma, low[i + 1 :]
    elif copula:
        phrase, rest = "be", low[i:]
        if lemma is not None and (verb.endswith(("ed", "en")) or verb == "born"):
            # "is married to", "was born in": a participle that names an attribute;
            # any other ("is enabled") is the value itself.
            passive, after = "be " + verb, low[i + 1 :]
            if (after and f"{passive} {after[0]}" in _CANON) or passive in _CANON:
                phrase, rest = passive, after
    elif lemma is None and not helped:
        return None  # a verb the lexicon does not know, with no auxiliary to show it is one
    else:
        lemma = lemma or _stem(verb)
        phrase, rest = lemma, low[i + 1 :]
        if lemma in _MOVERS and "to" in rest[1:]:
            # "migrated billing to Postgres": the moved thing is the subject.
            k = rest.index("to", 1)
            moved = tuple(w for w in rest[:k] if w not in STOPWORDS and w not in _DETERMINERS)
            if rest[0] == "from":
                moved = ()
            subject = moved or subject
            phrase, rest = f"{lemma} to", rest[k + 1 :]
    if rest and rest[0] in _PREPOSITIONS and (phrase + " " + rest[0]) in _CANON:
        phrase, rest = phrase + " " + rest[0], rest[1:]
    elif phrase == "be" and rest and rest[0] in ("in", "at", "from"):
        phrase, rest = "be " + rest[0], rest[1:]
    attribute, polarity, changed = _CANON.get(phrase, (phrase, True, False))
    if phrase == "be" and len(rest) >= 2 and rest[0].isdigit() and rest[1] in ("years", "year"):
        attribute, rest = "age", rest[:1]
    value = _value(rest)
    if not value and not copula and lemma and all(w in _VALUE_FILLER for w in rest):
        value = frozenset({lemma})  # an intransitive verb: "Paul smokes"
    if not value or value <= EMOTIONS:
        return None  # nothing said, or only a mood or an evaluation ("doing great")
    if attribute == "be" and _emotional(rest):
        return None
    if attribute == "be" and owned and len(value) <= 3:
        attribute = POSSESSED
    return Claim(
        subject=subject,
        attribute=attribute,
        value=value,
        negated=negated != (not polarity),
        change=change or changed,
        additive=additive or bool(_ADDITIVE & set(rest)),
        text=text,
    )


def _stem(verb: str) -> str:
    """A crude lemma for a verb the lexicon lacks, the same for its forms ("submitted",
    "submits", "submit" -> "submit")."""
    for suffix in ("ied", "ies"):
        if verb.endswith(suffix):
            return verb[: -len(suffix)] + "y"
    for suffix in ("ing", "ed", "es", "s"):
        if verb.endswith(suffix) and len(verb) > len(suffix) + 2:
            verb = verb[: -len(suffix)]
            if len(verb) > 2 and verb[-1] == verb[-2]:
                verb = verb[:-1]
            break
    return verb.removesuffix("e")


def _value(rest: list[str]) -> frozenset[str]:
    """The content words of what the claim says (pronoun-only values are empty). Antonym
    words stay even when they are stopwords ("the flag is on")."""
    words = [w.removesuffix("'s") for w in rest]
    if words and all(
        (w in _PRONOUN_VALUES or w in STOPWORDS) and w not in _ANTONYM_OF for w in words
    ):
        return frozenset()
    return frozenset(
        w
        for w in words
        if (w not in STOPWORDS or (w in _ANTONYM_OF and len(words) == 1))
        and w not in _VALUE_FILLER
        and w not in _PRONOUN_VALUES
        and w not in _NEGATORS
        and (len(w) > 1 or w.isdigit())
    )


def _emotional(rest: list[str]) -> bool:
    """True when a copula's value is a feeling or an evaluation ("so proud")."""
    for w in rest:
        if w in (
            "so",
            "very",
            "really",
            "super",
            "pretty",
            "totally",
            "feeling",
            "a",
            "an",
            "such",
            "just",
            "quite",
            "extremely",
            "incredibly",
            "kind",
            "of",
            "bit",
            "little",
        ):
            continue
        return w in EMOTIONS
    return False


def antonym_values(a: frozenset[str], b: frozenset[str]) -> tuple[str, str] | None:
    """An antonym pair with one side in each value and not the other ("single again
    after the divorce" / "married"), or None."""
    only_b = b - a
    for x in sorted(a - b):
        y = _ANTONYM_OF.get(x)
        if y is not None and y in only_b:
            return x, y
    return None


def same_subject(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """The same subject: equal words, or one names the other's head with fewer words
    ("billing service" / "service")."""
    if a == b:
        return True
    return bool(a and b) and a[-1] == b[-1] and (set(a) <= set(b) or set(b) <= set(a))
