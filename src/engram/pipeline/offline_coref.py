"""Pointers resolved across sentences, turns and photos (offline extractor, issue 28,
fifth pass).

Of the gold facts the offline extractor missed on LoCoMo fold A, the largest class that
is not a reaction to the listener is pointers (docs/benchmarks.md, offline extraction,
experiment 28): a sentence that opens with "it", "this", "that" or "here's" ("It's from
my grandma in Sweden"), has a pointer in its main clause ("I made it to show my
journey"), or opens with "he", "she" or "they". Alone such a sentence is not a fact
(it does not stand alone), so the rules drop it. The thing is named elsewhere: in an
earlier sentence of the same message, in the message before (often the other speaker's
question: "Love the necklace, any special meaning to it?"), or in the description of a
photo the message carries (``[image: a photo of a stained glass window]``).

:func:`resolve` puts the thing's name in place of the pointer, only when one
antecedent is clearly best: it agrees in number and in person or thing, it is the
nearest (this message's sentences before the previous message, the previous message
before the photo), and it is the subject of the nearest sentence that names one, or
the only candidate there; two candidates of the same kind with neither the subject
refuse. The extractor then reads the resolved sentence with its usual claim rules.
:func:`shared` reads "Here's a pic of my family camping" as the speaker sharing a
photo of their family camping, and :func:`answer` joins a fragment to the question
before it ("How long have you been married?" + "5 years already!").
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from engram.pipeline import offline_answer, offline_listener, patterns
from engram.pipeline.turns import Message, split_sentences
from engram.text import STOPWORDS

# A noun phrase that can be pointed at: a determiner and the words after it up to a
# function word or punctuation (its head is then found by :func:`_head_words`).
_PHRASE = re.compile(
    r"\b(?P<det>my|our|your|the|a|an|this|that|these|those)\s+"
    r"(?P<words>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,4})",
    re.IGNORECASE,
)
_OF_PHRASE = re.compile(
    r"\s+of\s+((?:(?:a|an|the|my|our)\s+)?[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?)", re.I
)
_ENDS = STOPWORDS | patterns.word_set("i he she they we you it me him them us next")


def _head_words(words: list[str]) -> list[str]:
    """The words of a phrase up to its head: cut at the first function word, then
    trailing verbs dropped ("my grandma gave" -> "my grandma", "my family camping")."""
    kept: list[str] = []
    for word in words:
        if word.lower() in _ENDS:
            break
        kept.append(word)
    while kept and _verb_like(kept[-1].lower()) and len(kept) > 1:
        kept.pop()
    return kept


def _verb_like(word: str) -> bool:
    return (
        word in patterns.PRESENT_VERBS
        or word in patterns.IRREGULAR_PAST
        or word.endswith(("ed", "ing"))
        or word in patterns.MODALS
    )


# Heads that name no thing anyone would point back to ("a lot", "the best part").
_NOT_HEADS = patterns.word_set(
    "lot bit thing things way time times day days moment moments part kind sort idea "
    "meaning feeling chance blast fun look shot break question ton bunch couple sense "
    "end beginning rest same other others one ones best worst most first last while "
    "news update stuff point fact reason lesson truth world life journey process "
    "experience support help advice words pic pics photo photos picture pictures "
    "week weekend month year morning evening night summer winter spring fall today "
    "tonight tomorrow yesterday number lots plenty difference impact job go try "
    # adjectives a phrase can end in ("a bit scary", "the amazing"): no head
    "great good amazing awesome special tough hard scary cool nice fun beautiful "
    "wonderful incredible perfect important huge big small little new old real true "
    "sweet cute lovely happy sad exciting amazing busy whole such "
    # qualities and states: what another turn praises, never the thing shown
    "mood passion commitment backstory doubt peace mind energy drive attitude outlook "
    "work creativity dedication determination perseverance courage strength love joy "
    "happiness talent skills skill hope faith source form kind idea ideas vibe vibes "
    "spirit heart soul goal goals dream dreams effort efforts progress success"
)
# Quality nouns by ending ("kindness", "positivity", "resilience").
_QUALITY = re.compile(r"(?:ness|ity|ism|ance|ence)$")
# A phrase after these is compared or predicated ("like a cool form of ...", "Art is
# such a source of joy"), not a thing introduced.
_PREDICATED = re.compile(r"(?:\blike|\bas|\bis|\bwas|\bare|\bwere|'s|\bsuch|\bbe)\s+$", re.I)
# People and animals: "he" and "she" point only at these (or at a name).
_PERSON_HEADS = patterns.word_set(
    "mom mother dad father brother sister son daughter kid child baby grandma grandmother "
    "grandpa grandfather grandparent aunt uncle cousin niece nephew wife husband partner "
    "boyfriend girlfriend friend buddy boss coworker colleague teacher mentor coach "
    "neighbor neighbour doctor therapist counselor instructor student classmate roommate "
    "dog puppy cat kitten pet horse bird fish hamster rabbit bunny guinea pig turtle "
    "parrot snake lizard man woman guy girl boy lady gentleman"
)
_GROUP_HEADS = patterns.word_set(
    "family friends kids children parents folks team crew gang group community class "
    "network club band family's people pets cats dogs"
)
# The pointers read here: at the start of a sentence (a subject), or in its first clause.
_SUBJECT_POINTER = re.compile(
    r"^(?P<p>it|this|they|he|she)(?=\s|'s\b|'re\b|'ve\b|'ll\b)(?!\s+(?:sounds?|looks?|seems?|"
    r"feels?|felt)\b)",
    re.IGNORECASE,
)
# Verbs of making and getting: what a photo shows is what the speaker made, bought or
# got ("I made it in class"), so only after these may the caption name "it".
_MAKING = (
    "made|painted|drew|built|wrote|designed|created|baked|cooked|knitted|bought|got|finished|took"
)
_OBJECT_POINTER = re.compile(
    r"\b(?:"
    + _MAKING
    + r"|make|making|found|received|chose|picked|love|loved|adore|use|used|using|play|"
    r"played|keep|kept|gave|started|adopted|named|call|called|wear|wore|brought|bring|hung|"
    r"put|saw|tried|won)\s+(?P<p>it|them)\b(?!\s*(?:'s|is|was)\b)",
    re.IGNORECASE,
)
_OBJECT_WORDS = re.compile(r" (?:it|them)\b")
_MADE = re.compile(r"(?:" + _MAKING + r")\s", re.IGNORECASE)
_DEMONSTRATIVE = re.compile(
    r"^(?P<p>(?:this|these|that|those)\s+(?P<n>[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?))"
    r"(?=\s+(?:is|was|are|were|has|have|had|means|reminds|remind|gives|brings|keeps|makes|"
    r"made|holds|stands|helps|symbolizes|represents|I)\b|'s\b)",
    re.IGNORECASE,
)
_SINGULAR = frozenset({"it", "this", "that"})
_PLURAL = frozenset({"they", "them", "these", "those"})
_PERSON = frozenset({"he", "she"})
# A photo description: what it shows after "a photo of", "a close up of" ...
_CAPTION_LEAD = re.compile(
    r"^(?:(?:a|an)\s+(?:photo|photography|picture|image|close\s+up|closeup|painting|"
    r"drawing|view)\s+of\s+|there\s+(?:is|are)\s+|this\s+is\s+)+",
    re.IGNORECASE,
)
_CAPTION = re.compile(r"\[(?:image|photo|picture):\s*([^\]]*)\]", re.IGNORECASE)
_ARTICLE = re.compile(r"(?:a|an|the|some)\s", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Phrase:
    """A noun phrase that may be an antecedent: its text with its determiner, its
    head (last word) and whether it names people or animals, a group, or a thing."""

    text: str
    head: str
    kind: str
    """``person``, ``group`` or ``thing``."""
    plural: bool
    start: int
    """Where it starts in its sentence (0: the sentence's subject)."""


@dataclass(frozen=True, slots=True)
class Context:
    """What a message's pointers may point at besides its own sentences: the message
    before it (another speaker's, without its name) and this message's photo caption."""

    before: str | None = None
    caption: str | None = None
    people: frozenset[str] = frozenset()
    """Who speaks (the speaker and the one before): never what "he" or "she" is."""
    listener: str | None = None
    """Who spoke before, when someone else: whom "your" names."""


def caption_of(text: str) -> str | None:
    """The description of the photo ``text`` carries (``[image: ...]``), or None."""
    found = _CAPTION.search(text)
    return found.group(1).strip() if found else None


def context(before: Message | None, message: Message, caption: str | None) -> Context:
    """The context of ``message``: the message ``before`` it counts only when someone
    else said it (what the speaker said before is their own earlier text). The listener
    is who said it, else the name the message addresses ("Hey Nate, ...")."""
    people = frozenset(p for m in (before, message) if m and m.speaker for p in m.speaker.split())
    if before is None or before.speaker == message.speaker or not before.from_user:
        listener = offline_listener.listener_in(message.text, message.speaker)
        return Context(None, caption, people, listener)
    text = _CAPTION.sub("", before.text).strip() or None
    return Context(text, caption, people, before.speaker)


@functools.lru_cache(maxsize=1 << 12)
def phrases(sentence: str, *, other: bool = False) -> tuple[Phrase, ...]:
    """The noun phrases of ``sentence`` that a pointer may stand for, in order. When
    ``other`` (another speaker said it), "your X" is the listener's, so "my X"."""
    out: list[Phrase] = []
    at = 0
    while (found := _PHRASE.search(sentence, at)) is not None:
        det = found.group("det").lower()
        words = _head_words(found.group("words").split())
        # The next phrase may start inside this match ("the lamp next to the rug").
        at = found.start("words") + max(len(" ".join(words)), 1)
        if not words:
            continue
        head = words[-1].lower()
        if head in _NOT_HEADS or head.endswith("ing") or head in patterns.FILLERS:
            continue
        if _QUALITY.search(head) or _PREDICATED.search(sentence, 0, found.start()):
            continue
        if other and len(words) > 2:
            continue  # "the takes guts", "your worries vanish": not one phrase
        if det == "your" and not other:
            continue  # the listener's thing in the speaker's own words: not theirs
        shown = {"your": "my", "this": "the", "that": "the", "these": "the", "those": "the"}
        if other and det in {"my", "our"}:
            continue  # the other speaker's own thing: "my" would change owner
        text = " ".join([shown.get(det, det), *words])
        after = found.start("words") + len(" ".join(words))
        of = _OF_PHRASE.match(sentence, after)
        if of is not None:
            text += " of " + " ".join(_head_words(of.group(1).split()) or [of.group(1)])
        plural = det in {"these", "those"} or head.endswith("s") and not head.endswith("ss")
        kind = "person" if head in _PERSON_HEADS else "group" if head in _GROUP_HEADS else "thing"
        out.append(Phrase(text, head, kind, plural or kind == "group", found.start()))
    return tuple(out)


# A name inside a sentence ("Her name is Shadow!", "I adopted Coco last month"): a person
# or pet that "he" or "she" may point at.
_NAME = re.compile(r"(?<=[a-z,] )[A-Z][a-z]{2,}\b")


def names(sentence: str, people: frozenset[str]) -> list[Phrase]:
    """The names in ``sentence`` (not its first word, nor ``people``: the speakers)."""
    return [
        Phrase(found.group(0), found.group(0).lower(), "person", False, found.start())
        for found in _NAME.finditer(sentence)
        if found.group(0) not in people
        and found.group(0).lower() not in STOPWORDS
        and found.group(0).lower() not in patterns.NOT_NAMES
    ]


def _fits(pointer: str, phrase: Phrase) -> bool:
    if pointer in _PERSON:
        return phrase.kind == "person" and not phrase.plural
    if pointer in _PLURAL:
        return phrase.plural
    return phrase.kind == "thing" and not phrase.plural


# What may open a sentence before its subject: interjections and names addressed.
_OPENING = re.compile(r"(?:[A-Za-z]+[,!]\s+){0,3}")


def _best(
    pointer: str, sentences: list[str], *, other: bool, people: frozenset[str] = frozenset()
) -> Phrase | None | bool:
    """The antecedent of ``pointer`` in the nearest of ``sentences`` (last first) that
    names one: its subject if that fits, else the only fitting phrase. False when that
    sentence holds two or more with neither the subject (ambiguous: refuse), None when
    no sentence names one."""
    for sentence in reversed(sentences):
        sentence = sentence.strip()
        if not other and _SUBJECT_POINTER.match(sentence):
            return False  # it opens with a pointer of its own, left unresolved
        found = [p for p in phrases(sentence, other=other) if _fits(pointer, p)]
        if pointer in _PERSON:
            found += names(sentence, people)
            found.sort(key=lambda p: p.start)
        if not found:
            continue
        if _OPENING.fullmatch(sentence, 0, found[0].start):
            return found[0]  # the sentence's subject (after "Yeah, ", "Wow, Mel, ")
        return found[0] if len(found) == 1 else False
    return None


def antecedent(pointer: str, earlier: list[str], where: Context, *, made: bool) -> Phrase | None:
    """The one phrase ``pointer`` ("it", "they", "she" ...) clearly stands for, or None:
    from this message's earlier sentences, else the last two of the message before,
    else (for the thing made, bought ... in ``made``) the photo's description."""
    pointer = pointer.lower()
    last = split_sentences(where.before)[-2:] if where.before else []
    for sentences, other in ((earlier, False), (last, True)):
        found = _best(pointer, sentences, other=other, people=where.people)
        if found is False:
            return None  # the nearest sentence holds two: ambiguous
        if isinstance(found, Phrase):
            return found
    if made and where.caption and pointer in _SINGULAR | _PLURAL:
        shown = _CAPTION_LEAD.sub("", where.caption)
        shown = shown if _ARTICLE.match(shown) else "a " + shown  # "a" starts a phrase
        found = _best(pointer, [shown], other=True)
        if isinstance(found, Phrase) and found.kind != "person":
            return found
    return None


# "It's awesome that ...", "It can be tough to ...", "It breaks my heart that ...": an
# "it" that stands for the clause after it, not for a thing named elsewhere.
_EXTRAPOSED = re.compile(
    r"^it(?:'s)?\b(?:\s+\S+){0,8}?\s+(?:that|to|how|when|what|whether)\s"
    r"|^it(?:'s)?\b[^,;]*\b\w+ing\b(?:\s+(?:my|our|a|the)\s+\w+)?\s*(?:[,;!.]|$)",
    re.IGNORECASE,
)


def resolve(sentence: str, earlier: list[str], where: Context) -> str | None:
    """``sentence`` with its pointer replaced by what it stands for ("It's from my
    grandma" after "Love the necklace" -> "The necklace is from my grandma"), or None
    when it has none or its antecedent is not clearly one phrase."""
    demonstrative = _DEMONSTRATIVE.match(sentence)
    if demonstrative is not None:
        return _named(sentence, demonstrative, earlier, where)
    subject = _SUBJECT_POINTER.match(sentence)
    # The object pattern is slow; it needs " it" or " them" (ASCII: plain case folding).
    maybe_object = not sentence.isascii() or _OBJECT_WORDS.search(sentence.lower()) is not None
    found = subject or (_first_clause_object(sentence) if maybe_object else None)
    if found is None or subject is not None and _EXTRAPOSED.match(sentence):
        return None
    made = subject is None and _MADE.match(found.group(0)) is not None
    phrase = antecedent(found.group("p"), earlier, where, made=made)
    if phrase is None:
        return None
    text = phrase.text
    rest = sentence[found.end("p") :]
    if subject is None:
        return sentence[: found.start("p")] + text + rest
    if rest.startswith("'s"):  # "It's been great" -> "X has been great", "It's from" -> "X is from"
        rest = (" has" if rest[2:].lstrip().startswith("been") else " is") + rest[2:]
    elif rest.startswith("'re"):
        rest = " are" + rest[3:]
    return text[:1].upper() + text[1:] + rest


_CLAUSE_END = re.compile(r"[,;:—–]|\s-\s|\s(?:and|but|so|because)\s")
# "It's ...", "It was ...", "They've been ...", "It'll be ...": the predicate is a state.
_COPULA = re.compile(
    r"(?:'s|'re|'ll\s+be|\s+(?:is|was|are|were|has\s+been|have\s+been|will\s+be))\b", re.I
)
_OWN = re.compile(r"\b(?:I|me|my|mine|our|us)\b", re.IGNORECASE)


def _first_clause(sentence: str) -> str:
    end = _CLAUSE_END.search(sentence)
    return sentence[: end.start()] if end else sentence


def _first_clause_object(sentence: str) -> re.Match[str] | None:
    return _OBJECT_POINTER.search(sentence, 0, len(_first_clause(sentence)))


def _named(sentence: str, found: re.Match[str], earlier: list[str], where: Context) -> str | None:
    """ "This necklace is special to me" -> "My necklace is special to me" when the
    thing is the one the other speaker asked about or the photo shows ("Love the
    necklace"): the speaker's own, named by them."""
    noun = found.group("n").lower().split()[-1]
    said = " ".join(x for x in (where.before, where.caption) if x).lower()
    if noun in _NOT_HEADS:
        return None
    if not re.search(rf"\b{re.escape(noun)}\b", said) and not _OWN.search(
        _first_clause(sentence[found.end("p") :])
    ):
        return None
    return "My " + found.group("n") + sentence[found.end("p") :]


# -- "Here's a pic of my family" ------------------------------------------------------

_HERE = re.compile(
    r"^here(?:'s|\s+is|\s+are)\s+(?P<what>(?:(?:a|an|some|one|two)\s+)?(?:(?:photo|pic|"
    r"picture|snap|shot|snapshot|peek|look|glimpse)s?\s+(?:of|at|from)\s+)?(?:one\s+of\s+|"
    r"some\s+of\s+)?(?:my|our\b|(?:the|a|an)\s+(?:[a-z]+\s+){1,2}(?:I|we)\s+[a-z]+ed\b|"
    r"when\s+(?:I|we)\b).*)",
    re.IGNORECASE,
)
# "Check out these kids I met at the shelter!": the speaker met them.
_SHOWN_DID = re.compile(
    r"^(?:check\s+out|look\s+at)\s+(?P<det>this|these)\s+(?P<n>(?:[a-z]+\s+){0,2}[a-z]+)\s+"
    r"(?P<s>I|we)\s+(?P<v>[a-z]+)\b(?P<rest>[^.!?]*)",
    re.IGNORECASE,
)


# "This is my book collection so far", "These are my lucky shoes", with a photo: the
# speaker shows their own thing (experiment 47).
_THIS_IS_MINE = re.compile(r"^(?:this\s+is|these\s+are)\s+(?P<what>my\s+[a-z].*)", re.I)


def shared(sentence: str, *, photo: bool = False) -> str | None:
    """ "Here's a pic of my family camping" -> "I shared a pic of my family camping";
    with a ``photo``, "This is my book collection" -> "I shared a pic of my book
    collection"."""
    found = _HERE.match(sentence)
    if found is not None:
        return "I shared " + found.group("what")
    mine = _THIS_IS_MINE.match(sentence) if photo else None
    if mine is not None:
        return "I shared a pic of " + mine.group("what")
    did = _SHOWN_DID.match(sentence)
    if did is None or not patterns.past_form(did.group("v").lower()):
        return None
    det = "some" if did.group("det").lower() == "these" else "a"
    return f"{did.group('s')} {did.group('v')} {det} {did.group('n')}{did.group('rest')}."


# -- a title or a name for "it" (experiment 48) -----------------------------------------

# "I'll add it to my list", "Definitely adding it to my list", "I'll check it out": "it"
# after a verb of reading, watching or visiting ...
_TITLE_OBJECT = re.compile(
    r"\b(?:add|adding|added|read|reading|watch|watching|visit|visiting|check|checking)\s+"
    r"(?P<p>it)\b",
    re.IGNORECASE,
)
# ... stands for a title in quotes ('"The Name of the Wind" sounds cool') or a name that
# opens a sentence about it ("Barcelona sounds awesome!").
_TITLE = re.compile(r'"(?P<t>[A-Z][^"]{1,60})"')
_NAME_SUBJECT = re.compile(r"^(?P<t>[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2})\s+(?:sounds|is|looks)\b")


def _titles(sentence: str, people: frozenset[str]) -> list[str]:
    found = [f'"{m.group("t")}"' for m in _TITLE.finditer(sentence)]
    named = _NAME_SUBJECT.match(sentence.strip())
    if not found and named is not None:
        name = named.group("t")
        if name.split()[0] not in people and name.lower() not in STOPWORDS:
            found.append(name)
    return found


def titled(sentence: str, earlier: list[str], where: Context) -> str | None:
    """ "I'll add it to my list" with "it" replaced by the one title or name the nearest
    sentence (this message's, then the message before's; a title is rarely repeated)
    holds, or None."""
    found = _TITLE_OBJECT.search(sentence)
    if found is None:
        return None
    before = split_sentences(where.before) if where.before else []
    for sentence_before in [*reversed(earlier), *reversed(before)]:
        titles = _titles(sentence_before, where.people)
        if titles:
            if len(set(titles)) > 1:
                return None
            return sentence[: found.start("p")] + titles[0] + sentence[found.end("p") :]
    return None


#: The claim rules whose reading of a resolved sentence is kept.
READ_AS = frozenset(
    {"first_person", "self_mention", "preference", "decision", "caused"}
    | {"elided", "elided_event", "elided_plan", "elided_doing"}
)


def reaction(sentence: str) -> bool:
    """Whether a sentence opening with a pointer only rates it: "It was great", "It's
    been a wild ride", "She's so sweet" (a state, and the speaker not in its first
    clause). Its pointer is still resolved, for the sentences after it."""
    subject = _SUBJECT_POINTER.match(sentence)
    return (
        subject is not None
        and _COPULA.match(sentence, subject.end()) is not None
        and not _OWN.search(_first_clause(sentence))
    )


def readings(
    sentence: str, earlier: list[str], where: Context, raw: str | None = None
) -> tuple[str | None, list[tuple[str, str]]]:
    """For a sentence that gave no fact as written: the sentence with its pointer
    resolved (or None), and each (rule, sentence to read): the pointer resolved
    (``coref``; not a :func:`reaction`), a photo shared (``shared``), or the question
    before it joined (``answer``; read on ``raw``, the sentence before its opening "Yes,"
    or "No," was trimmed)."""
    resolved = resolve(sentence, earlier, where)
    out: list[tuple[str, str]] = []
    for rule, reading in (
        ("coref", None if reaction(sentence) else resolved),
        ("coref", titled(sentence, earlier, where)),
        ("shared", shared(sentence, photo=where.caption is not None)),
        ("answer", offline_answer.answer(raw or sentence, where.before)),
        ("yours", offline_listener.yours(sentence, where.listener)),
    ):
        if reading is not None:
            out.append((rule, reading))
    return resolved, out
