"""A fact said again with another value: the change read from the pair (issue 28, G2).

Round twelve (changes30) counted the open changes of folds A to AA by stage; round
thirteen (changes31) read the largest, "the extractor reads neither value" (143): "The
cat eats Purina." then "The cat eats Royal Canin now"; "We order groceries from Tesco."
then "We order groceries from Ocado now."; "I'm on the platform team." then "I changed
teams, I'm on the payments team now". The relation readers know no verb of them ("eats",
"order ... from", "deploy to", "go by"), so neither statement records a fact. Verbs are
many; what these changes share is their shape: the change says the earlier sentence
again, word for word but for the value, and a word of change ("now", "these days").

So the change is read from the two sentences: a memory that states a change
(``change_named.stated_change``: its hedge, plan, question, trial, "also", cover and
other-person guards hold here too) and is not one occasion, one clause of it and one
clause of an earlier memory the keyword index finds, aligned word by word, differ in one
span only, the value: its frame (the words said in both, one of them right before the
value) holds the subject and the relation, the earlier span is the old value (recorded
from that memory's time and closed at this one) and this memory's is the new one. Words
a change adds ("now", "these days", "instead") and a reason after the value ("after the
migration") are left out of the frame; a determiner or a few words the earlier clause
said more ("with my boss") do not break it. Both values have one shape (an amount, a
day, a name, a thing) and no two categories, as a held value's replacement must.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher

from engram.pipeline import change_left, change_named, change_slots, relation_ends, vocabulary
from engram.pipeline.change_slots import SPEAKER, TEAM
from engram.pipeline.change_words import others_phrase
from engram.records import MemoryRecord
from engram.store import batch_reads
from engram.store.protocols import Store
from engram.store.protocols.graph import (
    Relation,
    Statement,
    Triple,
    canonical_name,
    canonical_relation,
)
from engram.text import STOPWORDS, fts_query, keywords

#: Both values' confidence: read from the pair, as ``change_left`` records its old one.
CONFIDENCE = 0.65
#: Earlier memories the keyword index is asked for: the frame's words rank its first
#: statement near the top (one namespace's memories, a few rows read).
LOOK_BACK = 5
#: A value is at most this many words; an earlier clause may say this many more.
MAX_VALUE_WORDS = 4
MAX_DROPPED = 3

TOKEN = re.compile(r"[^\W_]+(?:[&'’.:/-][^\W_]+)*")
_CLAUSES = re.compile(r"[,;!?()—–]|:(?!\d)|\.(?:\s|$)|\s-\s|\b(?:but|so|and then|because)\b", re.I)
# Left out of both sides before aligning: they change nothing a frame says.
_DETERMINERS = frozenset({"the", "a", "an", "my", "our", "their", "your"})
# What a change adds to the sentence it says again.
_CHANGE_WORDS = frozenset(
    {"now", "nowadays", "instead", "anymore", "finally", "actually", "officially",
     "everything", "lol"}
)  # fmt: skip
_CHANGE_PHRASES = re.compile(r"\b(?:these\s+days|from\s+now\s+on|any\s+more)\b", re.I)
# A reason or a time after the new value ends its clause ("... after the migration").
_TAIL = frozenset({"after", "since", "because", "as", "from", "until", "when", "ever"})
_PREPOSITIONS = frozenset({"in", "on", "at", "to", "from", "by", "with", "for", "into", "onto"})
COPULAS = frozenset({"is", "are", "was", "am", "'s", "'m", "'re"})
_I = frozenset({"i", "i'm", "i’m", "im", "i've", "i’ve"})
_WE = frozenset({"we", "we're", "we’re", "we've", "we’ve"})
_VERBS = frozenset(
    {"is", "are", "was", "were", "be", "been", "got", "get", "gets", "has", "have", "had",
     "go", "goes", "went", "gone", "moved", "renamed", "called", "named", "became"}
)  # fmt: skip
_THIRD = frozenset({"he", "she", "they"})
# A word a chat turn opens with that is no part of the sentence it says again.
_OPENERS = frozenset({"ok", "okay", "fyi", "update", "so", "well", "btw", "anyway"})
_PRONOUNS = frozenset(
    {"it", "them", "him", "her", "this", "that", "one", "there", "here", "us", "me", "you"}
)

_NO_VALUE = _VERBS | _PRONOUNS | _CHANGE_WORDS | _I | _WE
#: "I", "we" and their forms: the speaker or the team, no word of a frame.
SPEAKER_WORDS = _I | _WE


@dataclass(frozen=True, slots=True)
class Said:
    """One word of a clause: lower-cased, and where it stands in the memory."""

    word: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Again:
    """``source relation old`` held until this memory; ``source relation new`` now."""

    source: str
    relation: str
    old: str
    new: str
    earlier: int = 0
    """Which of the earlier memories said the old value."""


def clauses(text: str) -> list[list[Said]]:
    """``text``'s clauses as their words, determiners and words of change left out."""
    out: list[list[Said]] = []
    start = 0
    # blanked, not cut, so every word keeps where it stands
    text = _CHANGE_PHRASES.sub(lambda m: " " * len(m.group()), text)
    for cut in [*_CLAUSES.finditer(text), None]:
        end = cut.start() if cut is not None else len(text)
        words = [
            Said(m.group().lower(), start + m.start(), start + m.end())
            for m in TOKEN.finditer(text[start:end])
            if m.group().lower() not in _DETERMINERS | _CHANGE_WORDS
        ]
        if len(words) >= 2:
            out.append(words)
        start = cut.end() if cut is not None else end
    return out


def again(text: str, earlier: Sequence[str]) -> Again | None:
    """The value ``text`` gives a fact one of the ``earlier`` memories (oldest first)
    said, when exactly one frame is said again with another value; else None."""
    if change_named.stated_change(text) is None or change_slots.one_off(text):
        return None
    found: dict[tuple[str, str, str], Again] = {}
    for new in clauses(text):
        for n, before in enumerate(earlier):
            for old in clauses(before):
                read = _aligned(old, new, before, text)
                if read is not None:
                    key = (canonical_name(read.source), read.relation, canonical_name(read.old))
                    found.setdefault(key, replace(read, earlier=n))
    if len({(k[0], k[1]) for k in found}) != 1 or len(found) != 1:
        return None  # none, or two frames: which fact changed is not said
    return next(iter(found.values()))


def _aligned(old: list[Said], new: list[Said], before: str, text: str) -> Again | None:
    """The one value two clauses differ by, with the frame both say; else None."""
    if new[0].word in _OPENERS:
        new = new[1:]  # "ok upload limit on the portal is ...", "fyi ..."
    a = [w.word for w in old]
    new = _unreferred(a, new, text)
    b = [w.word for w in new]
    ops = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    changed = [op for op in ops if op[0] == "replace"]
    if len(changed) != 1:
        return None
    at = ops.index(changed[0])
    if at == 0 or ops[at - 1][0] != "equal":
        return None  # the value needs a word of the frame right before it
    _, i1, i2, j1, j2 = changed[0]
    # Where the frame said again ends: a reason or a time after the value is no part of
    # it, so its words neither say which fact ("I'm in York now after the move") nor
    # stand for the value's head.
    j_end = len(b)
    reason = next((k for k in range(j1 + 1, j2) if b[k] in _TAIL), None)
    if reason is not None:
        j2 = j_end = reason  # the value, then a reason: the clause ends there
        ops = ops[: at + 1]
    for tag, k1, k2, m1, m2 in ops[at + 1 :]:
        if tag == "insert" and b[m1] in _TAIL:
            j_end = m1  # a reason after the value: the clause's frame ends there
            break
        if tag == "insert" and not set(b[m1:m2]) <= _CHANGE_WORDS:
            return None
        if tag == "delete" and k2 - k1 > MAX_DROPPED:
            return None
    for tag, k1, k2, m1, m2 in ops[:at]:
        if tag == "insert" and not set(b[m1:m2]) <= _CHANGE_WORDS:
            return None
        if tag == "delete" and k2 - k1 > MAX_DROPPED:
            return None
    # A preposition both values open with is the frame's ("in a crate", "on our bed").
    if a[i1] in _PREPOSITIONS and b[j1] in _PREPOSITIONS and i2 - i1 > 1 and j2 - j1 > 1:
        i1, j1 = i1 + 1, j1 + 1
    # The value's head said after it in both ("the platform team", "the payments team").
    tail = b[j2:j_end]
    if 0 < len(tail) <= 2 and a[i2 : i2 + len(tail)] == tail and not STOPWORDS & set(tail):
        i2, j2 = i2 + len(tail), j2 + len(tail)
    if not 0 < i2 - i1 <= MAX_VALUE_WORDS or not 0 < j2 - j1 <= MAX_VALUE_WORDS:
        return None
    if text[new[j1 - 1].start].isupper():
        return None  # right after a name the span is no value of it ("Halvorsen & Co dropped us")
    old_value = before[old[i1].start : old[i2 - 1].end]
    new_value = text[new[j1].start : new[j2 - 1].end]
    if not (_value(a[i1:i2]) and _value(b[j1:j2])) or _same(old_value, new_value):
        return None
    if change_named.shape(old_value) != change_named.shape(new_value):
        return None
    kinds = {vocabulary.member_category(old_value), vocabulary.member_category(new_value)}
    if len(kinds - {None}) > 1:
        return None  # a database beside a cloud: two slots, not one changed
    said = b[:j1]
    content = [w for w in [*said, *tail] if w not in STOPWORDS and w not in _I | _WE]
    if not content:
        return None  # "I'm in Leeds" / "I'm at Kate's": no word says which fact
    read = named(owner_of(said), said, text, new, old_value, new_value)
    if read is None or read.source in (SPEAKER, TEAM):
        return read
    # the subject as written ("Ibrahim", not "ibrahim"), of either memory
    cased = {m.group().lower(): m.group() for m in TOKEN.finditer(f"{text} {before}")}
    return replace(read, source=" ".join(cased.get(w, w) for w in read.source.split()))


def _unreferred(a: list[str], new: list[Said], text: str) -> list[Said]:
    """``new`` with a pronoun opening it put back as the subject ``a`` opens with, when
    the memory names that subject ("They moved Ibrahim; he manages the York store now"
    after "Ibrahim manages the Leeds store"); else ``new``. Unnamed, "she" may be
    anyone."""
    if len(new) < 3 or new[0].word not in _THIRD or new[1].word not in a:
        return new
    subject = a[: a.index(new[1].word)]
    said = {w.lower() for w in TOKEN.findall(text)}
    if not subject or set(subject) & (_I | _WE | _THIRD) or not set(subject) <= said:
        return new
    return [*(replace(new[0], word=w) for w in subject), *new[1:]]


def owner_of(frame: list[str]) -> str | None:
    """The speaker when the clause opens with "I", "we", "my" or "our" (determiners
    left out of the words, so read from the memory)."""
    first = frame[0] if frame else ""
    if first in _I:
        return SPEAKER
    if first in _WE:
        return TEAM
    return None


def named(
    owner: str | None, said: list[str], text: str, new: list[Said], old: str, value: str
) -> Again | None:
    """The subject and relation the frame's words name."""
    words = [w for w in said if w not in _I | _WE]
    opener = text[: new[0].start].split()[-1:] if new else []
    if owner is None and opener and opener[0].lower() in ("my", "our"):
        owner = SPEAKER if opener[0].lower() == "my" else TEAM
    if owner is not None:
        relation = [w for w in words if w not in COPULAS] or ["is"]
        return Again(owner, canonical_relation(" ".join(relation)), old, value)
    if len(words) < 2:
        return None
    cut = len(words) - (2 if words[-1] in _PREPOSITIONS and len(words) >= 3 else 1)
    source, relation = words[:cut], words[cut:]
    if not source or all(w in STOPWORDS for w in source):
        return None
    return Again(" ".join(source), canonical_relation(" ".join(relation)), old, value)


def _value(words: Sequence[str]) -> bool:
    """Whether a span is a value: no pronoun, verb of being or of change ("is master"
    beside "got renamed to main" is the verb changed, not the value), and not
    stopwords only."""
    if any(w in _NO_VALUE or change_named.cued(w) for w in words):
        return False
    return not all(w in STOPWORDS for w in words)


def _same(a: str, b: str) -> bool:
    one, two = canonical_name(a), canonical_name(b)
    return one == two or one in two.split() or two in one.split()


def close(
    store: Store,
    namespace: str,
    text: str,
    statement: Statement,
    end: Callable[[Relation], None],
) -> list[Triple]:
    """Read ``again`` of the memories the keyword index ranks first for ``text``; record
    the old value as held from its memory's time, ended through ``end``; the new value's
    triple for the plan (none when nothing was read)."""
    if change_named.stated_change(text) is None:
        return []
    earlier = earlier_memories(store, namespace, text, statement)
    read = again(text, [m.content for m in earlier])
    if read is None or others_phrase(text, read.source, read.relation):
        # "Their energy supplier is Octopus now" says again "My energy supplier is
        # EDF" but for the owner (a determiner, left out of the frame): not the user's.
        return []
    first = earlier[read.earlier]
    new = (read.source, read.relation, read.new, CONFIDENCE)
    kept = relation_ends.sound(replace(statement, triples=[new]), text).triples
    if new not in kept:
        return []  # the graph would not keep the new value: the old one stays open
    since = change_left.Earlier(read.old, first.id, first.created_at)
    old = (read.source, read.relation, read.old, CONFIDENCE)
    change_left.held_until_now(store, namespace, old, since, statement, end)
    return [new]


def earlier_memories(
    store: Store, namespace: str, query: str, statement: Statement
) -> list[MemoryRecord]:
    """The memories before ``statement`` that the keyword index ranks first for
    ``query`` (``LOOK_BACK`` of them), oldest first. An assistant's (or any other
    role's) turn is left out: its echo ("Noted, your budget is 300.") restates the
    user's value, so the user's turn is the statement a change replaces (left39).

    On the write path (``store`` a batch's reads) the batch's own earlier memories are
    read beside the index (batch40): the ``LOOK_BACK`` holding most of ``query``'s words,
    and the index's first ``LOOK_BACK + 1`` outside the batch. Before that, a first
    value and its change told in one ``add_many`` or one mined chat read nothing on
    SQLite (its index reads committed rows only) and, on PostgreSQL, a list where the
    batch's later memories took places."""
    match = fts_query(query)
    if match is None:
        return []
    batch = batch_reads.written(store)
    sharing = batch.sharing(namespace, keywords(query)) if batch is not None else []
    mates = {record.id for record, _ in sharing}
    ids = [i for i, _ in store.keyword.search(namespace, match, LOOK_BACK + 1 + len(mates))]
    ids = [i for i in ids if i not in mates][: LOOK_BACK + 1]
    found = list(
        store.memories.get_many(namespace, [i for i in ids if i != statement.memory_id]).values()
    )
    told = [
        (shared, record.created_at, record)
        for record, shared in sharing
        if record.id != statement.memory_id
        and record.created_at < statement.valid_from
        and record.other_role is None
    ]
    told.sort(key=lambda row: (row[0], row[1]), reverse=True)  # most words, then newest
    found += [record for _, _, record in told[:LOOK_BACK]]
    return sorted(
        (m for m in found if m.created_at < statement.valid_from and m.other_role is None),
        key=lambda m: m.created_at,
    )
