"""The held fact a one-sentence swap replaces, paired by its old value (issue 28, G2).

``change_swap`` reads the old and the new value from the change alone ("We swapped
Google Photos for iCloud"); this module finds which fact the old value was, the last
step of the closing plan's pair readers (after ``change_named``, ``change_left`` and
``change_again``, which it runs first):

- a current relation of the namespace whose target is the old value (its words, or a
  name it opens: "Nord" of "NordVPN"), exactly one subject and relation of them: it is
  ended at this memory and the new value recorded on its subject and relation;
- else the newest earlier memory the keyword index finds for the old value that says
  it after a frame ("We keep our photos in Google Photos."): the frame gives the
  subject and relation (``change_again.named``), the old value is recorded as held from
  that memory's time and closed at this one, the new value holds.

Two held facts with the old value, or a frame that names no subject, close nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from engram.pipeline import change_again, change_left, change_named, change_swap, relation_ends
from engram.pipeline.change_slots import SPEAKER, SPEAKERS, TEAM
from engram.store.protocols import Store
from engram.store.protocols.graph import (
    Relation,
    Statement,
    Triple,
    canonical_name,
    canonical_relation,
)
from engram.text import STOPWORDS

#: The new value's confidence: read from one sentence's frame, as ``change_again``'s.
CONFIDENCE = change_again.CONFIDENCE
#: A swap told of someone named ("Sam switched from Vim to Emacs"): the subject before
#: the verb of change, when it is no first person.
_NAMED_SUBJECT = re.compile(
    r"^\s*(?!(?:I|We|My|Our)\b)(?P<s>[A-Z][\w'’-]*)\s+(?:has\s+|had\s+|just\s+|finally\s+)?"
    r"(?:switched|swapped|moved|replaced|traded|changed|migrated|dropped|ditched|cancelled|"
    r"stopped|quit)\b"
)
#: A name the held target opens with is this long at least ("Nord" of "NordVPN").
MIN_STEM = 4


def stated(text: str) -> bool:
    """Whether ``text`` states a change the pair readers read: in words of change
    (``change_named.stated_change``) or as a swap."""
    return change_named.stated_change(text) is not None or change_swap.swap(text) is not None


def close(
    store: Store,
    namespace: str,
    text: str,
    statement: Statement,
    held: Sequence[Relation],
    end: Callable[[Relation], None],
) -> list[Triple]:
    """The fact said again (``change_again``) or swapped, its old value ended through
    ``end``; the new value's triple for the plan (none when nothing was read).
    ``held``: the namespace's current relations, newest first, this memory's left out."""
    again = change_again.close(store, namespace, text, statement, end)
    if again:
        return again
    found = change_swap.swap(text)
    if found is None:
        return []
    holding = [r for r in held if _names(r.target, found.old)]
    if holding:
        if len({(r.source_entity_id, r.relation_type) for r in holding}) != 1:
            return []  # two facts hold the old value: which one changed is not said
        old = holding[0]
        if _someone_else(text, found, old.source) or _told_as_mine(store, namespace, text, old):
            return []
        new = (old.source, old.relation_type, found.new, CONFIDENCE)
        if not _sound(statement, text, new):
            return []
        for relation in holding:
            end(relation)
        return [new]
    return _from_memory(store, namespace, text, statement, found, end)


def _from_memory(
    store: Store,
    namespace: str,
    text: str,
    statement: Statement,
    found: change_swap.Swap,
    end: Callable[[Relation], None],
) -> list[Triple]:
    """The old value recorded from the newest earlier memory that said it after a frame
    and closed; the new value's triple."""
    earlier = change_again.earlier_memories(store, namespace, found.old, statement)
    for memory in reversed(earlier):
        read = _frame(memory.content, found.old)
        if read is None:
            continue
        source, relation = read
        if _someone_else(text, found, source):
            return []
        new = (source, relation, found.new, CONFIDENCE)
        if not _sound(statement, text, new):
            return []
        since = change_left.Earlier(found.old, memory.id, memory.created_at)
        old = (source, relation, found.old, CONFIDENCE)
        change_left.held_until_now(store, namespace, old, since, statement, end)
        return [new]
    return []


def _someone_else(text: str, found: change_swap.Swap, owner: str) -> bool:
    """Whether the swap is told of someone named while the value is the user's or the
    team's: "Sam switched from Vim to Emacs" leaves the user's Vim ("PagerDuty replaced
    Opsgenie" names the new value as its subject, and is the user's change)."""
    named = _NAMED_SUBJECT.match(text)
    # the pipeline's fact of the speaker reads its verb into the subject ("User keeps
    # all" of "User keeps all my photos on Google Photos."): still the speaker's value
    words = canonical_name(owner).split()
    return (
        named is not None
        and named["s"] != found.new.split()[0]
        and (" ".join(words) in SPEAKERS or words[:1] == [SPEAKER])
    )


#: A memory told in the first person singular: "I keep my invoices on Dropbox".
_MINE = re.compile(r"^\s*(?:I|my|My)\b")


def _told_as_mine(store: Store, namespace: str, text: str, old: Relation) -> bool:
    """Whether a swap told of someone named ("Priya swapped Dropbox for Proton Drive")
    would end a value the speaker told as their own ("I keep my invoices on Dropbox":
    ``invoices uses_storage``, no speaker in its subject). Round twenty-five; the memory
    is read only when a named subject swapped."""
    named = _NAMED_SUBJECT.match(text)
    if named is None or old.source_memory_id is None:
        return False
    if canonical_name(named["s"]) in canonical_name(old.source).split():
        return False  # Priya's own value
    memory = store.memories.get(namespace, old.source_memory_id)
    return memory is not None and _MINE.match(memory.content) is not None


def _frame(content: str, value: str) -> tuple[str, str] | None:
    """The subject and relation of the clause of ``content`` that says ``value`` after
    a frame, or None."""
    wanted = [w.lower() for w in change_again.TOKEN.findall(value)]
    for clause in change_again.clauses(content):
        words = [w.word for w in clause]
        at = next((k for k in range(1, len(words)) if words[k : k + len(wanted)] == wanted), None)
        if at is None:
            continue
        said = words[:at]
        if not [w for w in said if w not in STOPWORDS and w not in change_again.SPEAKER_WORDS]:
            return None  # "I'm in Leeds": no word says which fact
        read = change_again.named(change_again.owner_of(said), said, content, clause, value, value)
        if read is None:
            return None
        source = read.source
        while source.split()[-1:] and source.split()[-1] in change_again.COPULAS:
            source = source.rsplit(" ", 1)[0] if " " in source else ""  # "files are hosted in"
        if not source:
            return None
        if source not in (SPEAKER, TEAM):
            cased = {m.group().lower(): m.group() for m in change_again.TOKEN.finditer(content)}
            source = " ".join(cased.get(w, w) for w in source.split())
        return source, canonical_relation(read.relation)
    return None


def _names(target: str, value: str) -> bool:
    """Whether a held target is the old value: the same words, one's words all the
    other's, a name it opens ("Nord" of "NordVPN") or an amount it gives a unit ("2" of
    "2am")."""
    held, one = canonical_name(target.replace(".", " ")), canonical_name(value.replace(".", " "))
    a, b = set(held.split()), set(one.split())
    if not a or not b:
        return False
    if a <= b or b <= a:
        return not (a | b) <= STOPWORDS
    if one.isdigit():  # "2" of "2am", not of "20"
        return held.startswith(one) and held[len(one) :].isalpha()
    return " " not in one and len(one) >= MIN_STEM and held.startswith(one)


def _sound(statement: Statement, text: str, new: Triple) -> bool:
    """Whether the graph would keep the new value (``relation_ends.sound``)."""
    return new in relation_ends.sound(replace(statement, triples=[new]), text).triples
