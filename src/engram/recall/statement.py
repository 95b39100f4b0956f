"""issue 24 (Q1): a question read as the statement that would answer it.

A memory that answers a question is a statement ("I painted a sunset last week"); a
question is embedded as a question, and the turns nearest it in a small embedder are
often other questions ("Wow, Mel! Any more paintings coming up?"). A hypothetical
answer (HyDE) closes that gap with an LLM; this module does it with rules, no model:
the wh-word and the auxiliary go, the verb takes the tense the auxiliary carried
("did" -> past, "does" -> third person present, "has ... painted" -> past), the thing
asked for ("what activities") goes where the answer would name it, the question mark
goes.

    What has Melanie painted?                  -> Melanie painted
    What activities does Melanie partake in?   -> Melanie partakes in activities
    Would Caroline pursue writing as a career? -> Caroline wants to pursue writing as a career
    which web framework does the API use?      -> the API uses web framework

``statement`` returns None when the text is not a question it can read (then recall
has nothing to add and embeds nothing more). ``person = "first"`` puts a named subject
in the first person ("I painted", "my kids"), the way people state their own news.

Measured in docs/benchmarks.md, "Evidence spread over sessions" (Q1).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np
import numpy.typing as npt

from engram.recall import residual

if TYPE_CHECKING:
    from engram.config import RecallConfig
    from engram.embed.base import Embedder
    from engram.embed.cache import QueryVectorCache

Vector = npt.NDArray[np.float32]

Person = Literal["third", "first"]

_WH = frozenset({"what", "which", "who", "whom", "whose", "where", "when", "why", "how"})
#: Auxiliaries, and the tense they hand the main verb.
_AUX: dict[str, str] = {
    **dict.fromkeys(("do", "does"), "present"),
    "did": "past",
    **dict.fromkeys(("has", "have", "had"), "perfect"),
    **dict.fromkeys(("is", "are", "was", "were", "am"), "be"),
    **dict.fromkeys(("would", "will", "could", "can", "might", "may", "should"), "modal"),
}
#: "how many ..." and the like: the words after "how" that belong to the wh-phrase.
_HOW = frozenset({"many", "much", "long", "often", "far", "old", "big", "soon"})
#: Words a wh-phrase's noun phrase sheds ("what kind of art" -> "art").
_FILLER = re.compile(r"^(?:some|other|kinds?|types?|sorts?|times|ways|of|the|a|an)$", re.I)
_PRONOUNS = {w: w for w in ("you", "he", "she", "we", "they", "it")} | {"i": "I"}
_PLURAL_PRONOUNS = frozenset({"I", "you", "we", "they"})
_DETERMINERS = frozenset(
    {"the", "a", "an", "my", "our", "your", "his", "her", "their", "its", "this", "that"}
    | {"these", "those", "any", "some"}
)
_PREPOSITIONS = frozenset(
    {"in", "on", "at", "to", "from", "with", "for", "about", "into", "by", "of", "as"}
)
#: Adverbs that sit between the subject and the verb ("would Caroline likely have").
_ADVERBS = frozenset(
    {"likely", "still", "ever", "also", "often", "usually", "recently", "currently"}
    | {"really", "already", "actually", "mostly", "both", "all", "now", "even"}
)
#: Verbs a yes/no "would" question keeps as they are ("Would Caroline want to ...");
#: any other is read as a wish ("Would Caroline pursue X" -> "Caroline wants to pursue X").
_PLAIN_AFTER_MODAL = frozenset(
    {"want", "like", "love", "enjoy", "prefer", "need", "hope", "plan", "have", "be"}
)
#: A preposition left at the end ("participated in") takes the thing asked for after it
#: when the clause ends there or one of these follows.
_CLAUSE_ENDS = frozenset({"to", "when", "while", "because", "during", "after", "before"})
#: Irregular verbs: base -> (past, participle).
_IRREGULAR: dict[str, tuple[str, str]] = {
    "be": ("was", "been"),
    "become": ("became", "become"),
    "begin": ("began", "begun"),
    "break": ("broke", "broken"),
    "bring": ("brought", "brought"),
    "build": ("built", "built"),
    "buy": ("bought", "bought"),
    "catch": ("caught", "caught"),
    "choose": ("chose", "chosen"),
    "come": ("came", "come"),
    "cut": ("cut", "cut"),
    "do": ("did", "done"),
    "draw": ("drew", "drawn"),
    "drink": ("drank", "drunk"),
    "drive": ("drove", "driven"),
    "eat": ("ate", "eaten"),
    "fall": ("fell", "fallen"),
    "feel": ("felt", "felt"),
    "find": ("found", "found"),
    "fly": ("flew", "flown"),
    "forget": ("forgot", "forgotten"),
    "get": ("got", "gotten"),
    "give": ("gave", "given"),
    "go": ("went", "gone"),
    "grow": ("grew", "grown"),
    "have": ("had", "had"),
    "hear": ("heard", "heard"),
    "hold": ("held", "held"),
    "hurt": ("hurt", "hurt"),
    "keep": ("kept", "kept"),
    "know": ("knew", "known"),
    "leave": ("left", "left"),
    "lend": ("lent", "lent"),
    "let": ("let", "let"),
    "lose": ("lost", "lost"),
    "make": ("made", "made"),
    "mean": ("meant", "meant"),
    "meet": ("met", "met"),
    "pay": ("paid", "paid"),
    "put": ("put", "put"),
    "read": ("read", "read"),
    "ride": ("rode", "ridden"),
    "run": ("ran", "run"),
    "say": ("said", "said"),
    "see": ("saw", "seen"),
    "sell": ("sold", "sold"),
    "send": ("sent", "sent"),
    "set": ("set", "set"),
    "show": ("showed", "shown"),
    "sing": ("sang", "sung"),
    "sit": ("sat", "sat"),
    "sleep": ("slept", "slept"),
    "speak": ("spoke", "spoken"),
    "spend": ("spent", "spent"),
    "swim": ("swam", "swum"),
    "take": ("took", "taken"),
    "teach": ("taught", "taught"),
    "tell": ("told", "told"),
    "think": ("thought", "thought"),
    "throw": ("threw", "thrown"),
    "understand": ("understood", "understood"),
    "wear": ("wore", "worn"),
    "win": ("won", "won"),
    "write": ("wrote", "written"),
}
_PARTICIPLE_TO_PAST = {p: past for past, p in _IRREGULAR.values()}
_DOUBLED = re.compile(r"^[^aeiou]*[aeiou][^aeiouwxy]$")
#: A question that asks for a fact rather than for an opinion or a suggestion.
_ASKS_FACT = re.compile(
    r"^\s*(?:what|which|who|whom|whose|where|when|how|did|does|do|has|have|is|are|was|were)\b",
    re.IGNORECASE,
)
_TRAILER = re.compile(r"\s*\[image:[^\]]*\]\s*$")


@dataclass(frozen=True, slots=True)
class _Subject:
    words: list[str]
    plural: bool
    named: bool  # a single name (or its possessive), which "first" person can restate


def _s_form(verb: str) -> str:
    """Third person singular present ("partake" -> "partakes", "have" -> "has")."""
    low = verb.lower()
    if low == "have":
        return "has"
    if low == "be":
        return "is"
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    return verb + "s"


def _past(verb: str) -> str:
    """Simple past ("paint" -> "painted", "buy" -> "bought", "try" -> "tried")."""
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low][0]
    if low.endswith("e"):
        return verb + "d"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ied"
    if _DOUBLED.match(low) and len(low) <= 4:
        return verb + verb[-1] + "ed"
    return verb + "ed"


def _is_name(word: str) -> bool:
    return bool(word) and word[0].isupper() and word.lower() not in _PRONOUNS


def _subject(words: list[str]) -> tuple[_Subject, list[str]]:
    """The subject at the head of ``words`` (after the auxiliary), and what follows."""
    if not words:
        return _Subject([], False, False), []
    first = words[0]
    if first.lower() in _PRONOUNS:
        pronoun = _PRONOUNS[first.lower()]
        return _Subject([pronoun], pronoun in _PLURAL_PRONOUNS, False), words[1:]
    at, plural, named = 1, False, _is_name(first)
    if first.lower() in _DETERMINERS:
        at = 2 if len(words) > 1 else 1
        while at < len(words) and _is_name(words[at]):  # "the Litestar API"
            at += 1
    elif named:
        while at < len(words) and _is_name(words[at]) and not words[at - 1].endswith("'s"):
            at += 1  # "Dr. Seuss", "New York"
        if words[at - 1].endswith(("'s", "’s", "s'")) and at < len(words):
            at += 1  # "Melanie's kids"
    if at + 1 < len(words) and words[at].lower() == "and":
        nxt = words[at + 1]
        if _is_name(nxt) or nxt.lower() in {"her", "his", "their", "my", "our", "your"}:
            at += 2 if _is_name(nxt) else min(3, len(words) - at)
            plural, named = True, False
    subject = words[:at]
    if len(subject) > 1 or not named:
        named = named and len(subject) == 2 and subject[0].endswith(("'s", "’s"))
    return _Subject(subject, plural, named), words[at:]


def _first_person(subject: _Subject) -> list[str]:
    """A named subject restated by its owner: "Melanie" -> "I", "Melanie's kids" -> "my
    kids"."""
    if not subject.named:
        return subject.words
    if len(subject.words) == 1:
        return ["I"]
    return ["my", *subject.words[1:]]


def _verb(aux: str, verb: str, subject: _Subject, person: Person) -> list[str]:
    """The main verb in the tense ``aux`` handed it."""
    kind = _AUX[aux]
    first = person == "first" and subject.named and len(subject.words) == 1
    if kind == "past":
        return [_past(verb)]
    if kind == "perfect":
        return [_PARTICIPLE_TO_PAST.get(verb.lower(), verb)]
    if kind == "modal":
        if verb.lower() == "be":
            return ["am" if first else "are" if subject.plural else "is"]
        return [verb]
    if first or subject.plural or aux == "do":
        return [verb]
    return [_s_form(verb)]


def _clean(text: str) -> list[str]:
    """The words of the question's first sentence (its question mark and anything after
    it dropped), opening at a wh-word a lead-in names ("Based on X, what ...")."""
    text = text.strip().split("?")[0]
    clause = text.split(",")
    for at, part in enumerate(clause[1:], 1):
        head = part.split()
        if head and head[0].lower() in _WH:
            text = ",".join(clause[at:])
            break
    words = text.split()
    if len(words) > 2 and words[0].lower() in _PREPOSITIONS and words[1].lower() in _WH:
        words = words[1:]  # "In what ways is Caroline ..." -> "what ways is Caroline ..."
    return words


def _focus(words: list[str]) -> tuple[list[str], list[str]] | None:
    """The noun phrase the wh-word asks for ("what kind of art" -> "art") and the rest
    from the auxiliary on; None when no auxiliary follows it (the wh-word is the
    subject: "Who supports Caroline ...")."""
    wh, at = words[0].lower(), 1
    if wh == "how" and at < len(words) and words[at].lower() in _HOW:
        at += 1
    phrase: list[str] = []
    while at < len(words) and words[at].lower() not in _AUX and len(phrase) < 5:
        phrase.append(words[at])
        at += 1
    if at >= len(words) or words[at].lower() not in _AUX or (phrase and wh.startswith("who")):
        return None
    while phrase and _FILLER.match(phrase[0]):
        phrase = phrase[1:]
    return phrase, words[at:]


def _opens_subject(word: str) -> bool:
    low = word.lower()
    return _is_name(word) or low in _PRONOUNS or low in _DETERMINERS or low == "both"


def _place(focus: list[str], obj: list[str]) -> list[str]:
    """The thing asked for where the answer would name it: after a preposition the
    clause leaves open ("participated in" + "events"), after an infinitive ("decided to
    pursue" + "a career path"), else right after the verb."""
    if not focus:
        return obj
    stranded = len(obj) == 1 or (len(obj) > 1 and obj[1].lower() in _CLAUSE_ENDS)
    if obj and obj[0].lower() in _PREPOSITIONS and stranded:
        return [obj[0], *focus, *obj[1:]]
    if len(obj) >= 2 and obj[0].lower() == "to" and not _opens_subject(obj[1]):
        return [*obj[:2], *focus, *obj[2:]]
    return [*focus, *obj]


def statement(query: str, person: Person = "third") -> str | None:
    """The statement that would answer ``query``, or None when it is no question this
    reads (see the module docstring)."""
    words = _clean(query)
    if len(words) < 2:
        return None
    head = words[0].lower()
    if head in _WH:
        found = _focus(words)
        if found is None:  # "Who supports Caroline" -> "supports Caroline"
            return _done(words[1:], query)
        focus, rest = found
        yes_no = False
    elif head in _AUX:
        focus, rest, yes_no = [], words, True
    else:
        return None
    aux, after = rest[0].lower(), rest[1:]
    kind = _AUX[aux]
    if not after:
        return _done(focus, query)
    if focus and not _opens_subject(after[0]):
        # the thing asked for is the subject: "What symbols are important to Caroline"
        verb = after[0] if kind != "perfect" else _PARTICIPLE_TO_PAST.get(after[0], after[0])
        lead = [aux] if kind == "be" else []
        return _done([*focus, *lead, verb, *after[1:]], query)
    if after[0].lower() == "both":
        after = after[1:]
    subject, tail = _subject(after)
    if kind == "be" and not yes_no:
        # "What is Caroline's relationship status" -> "Caroline's relationship status is"
        cut = next((i for i, w in enumerate(after) if w.lower().endswith("ing")), len(after))
        who = after[:cut]
        if person == "first" and subject.named and subject.words == after[:cut]:
            who = _first_person(subject)
        be = "am" if who == ["I"] else aux
        return _done([*who, be, *after[cut:], *focus], query)
    adverbs = []
    while tail and tail[0].lower() in _ADVERBS:
        if tail[0].lower() != "both":
            adverbs.append(tail[0])
        tail = tail[1:]
    who = _first_person(subject) if person == "first" else subject.words
    if kind == "be" or not tail:
        return _done([*who, *adverbs, *([aux] if kind == "be" else []), *tail, *focus], query)
    verb, obj = tail[0], tail[1:]
    if kind == "perfect" and verb.lower() == "been" and obj and obj[0].lower() == "to":
        verbs = ["went"]  # "has been to" -> "went to"
    elif yes_no and kind == "modal" and verb.lower() not in _PLAIN_AFTER_MODAL:
        # "Would Caroline pursue writing" -> "Caroline wants to pursue writing"
        first = person == "first" and subject.named and len(subject.words) == 1
        verbs = ["want" if first or subject.plural else "wants", "to", verb]
    elif kind == "modal" and verb.lower() != "be":
        verbs = _verb("does", verb, subject, person)
    else:
        verbs = _verb(aux, verb, subject, person)
    return _done([*who, *adverbs, *verbs, *_place(focus, obj)], query)


def _done(words: list[str], query: str) -> str | None:
    text = " ".join(w for w in words if w).strip(" ,")
    if not text or text.lower() == query.strip().rstrip("?").strip().lower():
        return None
    return text


def asks(text: str) -> bool:
    """Whether a memory's text is itself a question (it ends in "?", an image caption
    after it aside)."""
    return _TRAILER.sub("", text).rstrip().rstrip("\"')”’").endswith("?")


def asks_fact(query: str) -> bool:
    """Whether ``query`` asks for a fact (a wh-question, or one that "did"/"has"/"is"
    opens), not for an opinion or a guess ("Would Caroline ...", "What might ...")."""
    return _ASKS_FACT.match(query) is not None and not re.search(
        r"\b(?:might|would|could|likely)\b", query, re.IGNORECASE
    )


def vectors(
    query: str,
    dense_text: str,
    cfg: RecallConfig,
    embedder: Embedder,
    cache: QueryVectorCache,
) -> tuple[Vector, Vector | None]:
    """The dense leg's query vector, and the statement leg's (``recall.statement =
    "leg"``) or None. A statement and the dense text are embedded in one model call;
    "query" embeds the statement in place of the dense text, "mean" the normalised mean
    of both. A query this cannot read is embedded as it is."""
    if cfg.statement == "off":
        return cache.embed(embedder, dense_text), None
    said = statement(query, "first" if cfg.statement_person == "first" else "third")
    if said is None:
        return cache.embed(embedder, dense_text), None
    if cfg.statement == "query":
        return cache.embed(embedder, said), None
    asked, answer = cache.embed_many(embedder, [dense_text, said])
    if cfg.statement == "leg":
        return asked, answer
    both = asked.astype(np.float32) + answer.astype(np.float32)
    norm = float(np.linalg.norm(both))
    return (both / norm if norm > 0 else asked).astype(np.float32), None


def fuse_legs(
    fused: Mapping[str, float],
    legs: Sequence[tuple[Vector, float, int]],
    scores: Callable[[Vector, list[str]], Mapping[str, float]],
    ids: list[str],
) -> dict[str, float]:
    """``fused`` with each second dense leg (vector, weight, k) fused by rank over
    ``ids`` (``residual.fuse``): R1's question without its anchor names, Q1's
    statement."""
    out = dict(fused)
    for vector, weight, k in legs:
        if weight > 0:
            out = residual.fuse(out, scores(vector, ids), weight, k)
    return out
