"""What mining reads from a conversation, by rule (FEATURES G8; seed 003).

seed 003 batches entity extraction "across windows of 8-10 turns to keep the LLM input
bounded". The rules here need no model: each window is read with the offline extractor
(:mod:`engram.pipeline.offline`) for entities and relations, and with keyword counts
for its topic, which becomes a closet of the room. Each turn then gets the AAAK tags of
the window's entities it mentions, plus its speaker and its date.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from engram.palace.aaak import tags
from engram.pipeline import offline, patterns, turns
from engram.text import keywords

#: seed 003: "windows of 8-10 turns". Windows hold at most this many turns and are
#: balanced, so every window holds 8-10 turns whenever the length allows it.
WINDOW_MAX = 10
#: Roles that name a part in a chat, not a person.
ROLES = turns.ROLES
#: Which AAAK tag a relation's target gets (seed 003: @l locations, @e events, @i items).
TARGET_TAG = {
    "lives_in": "l",
    "moved_to": "l",
    "moved_from": "l",
    "born_in": "l",
    "from": "l",
    "visited": "l",
    "attended": "e",
    "joined": "e",
    "started": "e",
    "owns": "i",
    "has": "i",
    "uses": "i",
    "chose": "i",
    "prefers": "i",
    "likes": "i",
    "plays": "i",
    "studies": "i",
    "fan_of": "i",
    "married": "p",
}
#: The graph's entity type of each tag kind.
ENTITY_TYPE = {"p": "person", "l": "location", "e": "event", "i": "item"}
#: Topic words need this many letters: shorter ones are rarely a topic.
MIN_TOPIC_CHARS = 3
#: A closet is named by at most this many topic words.
TOPIC_WORDS = 2
#: Chat filler that is never a topic ("awesome", "thanks", "really", "made" ...): the
#: offline extractor's word lists plus common chat verbs.
NOT_TOPICS = (
    patterns.FILLERS
    | patterns.INTERJECTIONS
    | patterns.ADVERBS
    | patterns.FEELINGS
    | patterns.PRESENT_VERBS
    | patterns.word_set(
        "made make making taking take took doing done thing things time times way ways "
        "know think thought want wanted tried try trying see seen saw sounds sound "
        "wow yes yeah yep wonderful super glad photo pic picture image since anything "
        "around part last next two three lot"
    )
)
#: Letters an entity name needs.
MIN_NAME_LETTERS = 2
#: seed 003 names a room by its time slice ("2026-04-30 evening session"): the part of
#: the day each hour falls in, by the hour it starts (5-12 morning, 12-17 afternoon,
#: 17-21 evening, 21-5 night).
DAY_PARTS = ((5, "morning"), (12, "afternoon"), (17, "evening"), (21, "night"))
#: Prepositions a time phrase loses in its tag ("in May" -> "@t may").
_LEAD = re.compile(r"^(?:in|on|at|by|since|from|until)\s+", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Turn:
    """One message to mine."""

    role: str | None
    content: str
    created_at: datetime | None = None


@dataclass(slots=True)
class Window:
    """What one window of turns says: its topic, entities and per-turn tags."""

    turns: range
    topic: str | None
    tags: list[tuple[str, ...]] = field(default_factory=list)
    """Per turn of the window, its AAAK tags."""
    triples: list[list[tuple[str, str, str, float]]] = field(default_factory=list)
    """Per turn of the window, the (source, relationship, target, confidence) it states."""
    entity_types: dict[str, str] = field(default_factory=dict)


def can_name(value: str) -> bool:
    """True when ``value`` can name an entity: it has ``MIN_NAME_LETTERS`` letters (the
    offline rules sometimes leave a bare number as a target)."""
    return sum(c.isalpha() for c in value) >= MIN_NAME_LETTERS


def mentions(text: str, name: str) -> bool:
    """Whether ``text`` mentions ``name`` as whole words, ignoring case."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE) is not None


def windows(count: int) -> list[range]:
    """Balanced windows of at most ``WINDOW_MAX`` turns covering ``count`` turns."""
    if count <= 0:
        return []
    n = math.ceil(count / WINDOW_MAX)
    size, extra = divmod(count, n)
    out: list[range] = []
    start = 0
    for i in range(n):
        end = start + size + (1 if i < extra else 0)
        out.append(range(start, end))
        start = end
    return out


def time_slice(when: datetime) -> str:
    """The room name of a conversation that starts at ``when`` (seed 003's time slice):
    its date and part of the day, in ``when``'s own time zone ("2026-04-30 evening").
    A night past midnight belongs to the day before ("2026-04-30 night" at 01:30 on
    May 1st)."""
    hour = when.hour
    if hour < DAY_PARTS[0][0]:
        return f"{(when - timedelta(days=1)).date().isoformat()} {DAY_PARTS[-1][1]}"
    part = next(name for start, name in reversed(DAY_PARTS) if hour >= start)
    return f"{when.date().isoformat()} {part}"


def speaker(role: str | None) -> str | None:
    """The role as a person's name ("Caroline"), or None for "user", "assistant" ..."""
    if role is None or role.strip().lower() in ROLES or not role.strip()[:1].isupper():
        return None
    return role.strip()


def _topic(texts: Sequence[str], names: set[str]) -> str | None:
    """The window's topic: its words found in most turns (ties: first seen)."""
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}
    for text in texts:
        for word in keywords(text, limit=64):
            if len(word) < MIN_TOPIC_CHARS or word.isdigit() or word in names:
                continue
            if word in NOT_TOPICS:
                continue
            counts[word] += 1
            first.setdefault(word, len(first))
    if not counts:
        return None
    ranked = sorted(counts, key=lambda w: (-counts[w], first[w]))
    shared = [w for w in ranked if counts[w] > 1][:TOPIC_WORDS]
    return " ".join(shared or ranked[:1])


def read_window(turns: Sequence[Turn], span: range) -> Window:
    """Entities, relations, tags and the topic of the turns in ``span``."""
    found: list[tuple[str, str]] = []  # (kind, name) across the window
    per_turn: list[list[tuple[str, str, str, float]]] = []
    for i in span:
        turn = turns[i]
        name = speaker(turn.role)
        analysis = offline.analyse(turn.content, speaker=name)
        triples = [(t.source, t.relationship, t.target, t.confidence) for t in analysis.triples]
        per_turn.append(triples)
        who = name or analysis.speaker
        if who:
            found.append(("p", who))
        for source, relationship, target, _ in triples:
            if source[:1].isupper() and can_name(source):
                found.append(("p", source))
            kind = TARGET_TAG.get(relationship)
            if kind is not None and can_name(target):
                found.append((kind, target))
    names = {n.lower() for kind, n in found if kind == "p"}
    words = {w for n in names for w in n.split()}
    window = Window(span, _topic([turns[i].content for i in span], names | words))
    window.triples = per_turn
    window.entity_types = {n: ENTITY_TYPE[k] for k, n in found}
    window.tags = tag_turns(turns, span, found)
    return window


def tag_turns(
    turns: Sequence[Turn], span: range, found: Sequence[tuple[str, str]]
) -> list[tuple[str, ...]]:
    """Per turn of ``span``, its AAAK tags: its speaker, the window's entities
    (``(kind, name)``) it mentions, its date and the dates it names."""
    out: list[tuple[str, ...]] = []
    for i in span:
        turn = turns[i]
        chosen = [(k, n) for k, n in found if mentions(turn.content, n)]
        name = speaker(turn.role) or offline.split_speaker(turn.content)[0]
        if name:
            chosen.insert(0, ("p", name))
        if turn.created_at is not None:
            chosen.append(("t", turn.created_at.date().isoformat()))
        chosen += [("t", _LEAD.sub("", m.group(0))) for m in patterns.DATE.finditer(turn.content)]
        out.append(tags(chosen))
    return out
