"""Who says what in a text, its sentences and its atomic clauses: steps 1 and 2 of
the offline extractor (:mod:`engram.pipeline.offline`, FEATURES P2).

- **Messages.** A memory written from a list of messages is stored one message a line,
  ``"<role>: <content>"`` (:func:`engram.validate.content_text`), and the content of a
  chat message often names its speaker itself: ``"user: Derek: My efoil has ..."``.
  :func:`messages` splits such text into messages, drops the role (``user``,
  ``assistant`` ...: a part in the chat, never a person), and takes the name after it
  as the speaker, so "My sister" from Derek becomes "Derek's sister" and no fact starts
  with "User: Derek:". What an assistant, system or tool says is not a fact about the
  person the memory is for: those messages give no facts.
- **Clauses.** A sentence that joins two statements ("It was great and I'm more
  motivated than ever"; "Some stuff has been going on; last week I dropped off ...")
  is split where a new clause with its own subject starts, so each claim is read, kept
  or dropped on its own (:func:`clauses`).
- **Claim clauses.** The two claim readers, attribute claims for the contradiction
  detector (:mod:`engram.pipeline.claims`) and change claims for closing facts
  (:mod:`engram.pipeline.change_signals`), cut a text the same way: the speaker, then
  sentences, questions dropped, then clauses. :func:`claim_clauses` is that one cut;
  each reader passes how it splits (:class:`Reading`) and reads the clauses its way.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeGuard

from engram import records
from engram.pipeline import patterns
from engram.text import split_sentences as split_sentences

#: Roles that name a part in a chat, not a person (also palace mining's list).
ROLES = frozenset({"user", "assistant", "system", "tool", "human", "ai", "bot", "model"})
#: Roles whose words are not facts about the person the memory is for (the records'
#: list: a mined turn's role is read by the same).
NOT_THE_USER = records.NOT_THE_USER
#: Who "I" is in what a memory's owner told it without naming a speaker (a plain
#: ``mem.add("I'm allergic to peanuts")``, or a ``user`` message with no name in it):
#: the namespace's user, named as the graph names the speaker of a change
#: (``change_words.subject``: "user"). "User:" opens a role, never a speaker's name, so
#: no chat turn can name this speaker: what the owner says of others stays theirs.
OWNER = "User"

# "Name: text", the way chat turns are stored. A name is one to three capitalised
# words; labels such as "Note:" are not speakers.
_SPEAKER = re.compile(r"^\s*([A-Z][\w.'-]{0,30}(?:\s[A-Z][\w.'-]{0,30}){0,2}):\s+(?=\S)")
_ROLE = re.compile(r"^\s*(" + "|".join(sorted(ROLES)) + r")\s*:\s*", re.IGNORECASE)
# Where a new clause with its own subject starts: after ";", or after a dash, ", and",
# ", but" or ", so" when a subject pronoun or "my" follows. A bare "and", "but" or
# "so" is split only before a first-person subject ("went home and I slept"), since
# "Jon and Ana went" joins two subjects, not two clauses.
_SUBJECTS = (
    r"I|I'm|I've|I'll|I'd|my|we|we're|we've|our|he|he's|she|she's|they|they're|it|it's|"
    r"that|that's|this|there|there's"
)
# "..., so I can teach others": a purpose, not a second claim (split off, "Jon can
# teach others" would say something the turn does not).
_PURPOSE = r"(?:that\s+)?(?:I|we|they|he|she|you)\s+(?:can|could|would|might|may)\b"
_JOIN = r"(?:and|but|so(?!\s+" + _PURPOSE + r"))"
_CLAUSE_START = re.compile(
    r"\s*;\s+|\s*[-—–]\s+(?=(?:" + _SUBJECTS + r")\b)|"
    r",\s+" + _JOIN + r"\s+(?=(?:" + _SUBJECTS + r")\b)|"
    r"\s+" + _JOIN + r"\s+(?=(?:I|I'm|I've|I'll|I'd|my)\b)"
)
#: A clause shorter than this many words is not a claim of its own ("and I did"):
#: it stays with the clause before it. (A short piece before a split, such as "Guess
#: what - I got a puppy", is split off: the extractor drops it on its own.)
MIN_CLAUSE_WORDS = 3


@dataclass(frozen=True, slots=True)
class Message:
    """One message of a text: who wrote it (None when unknown) and what it says."""

    speaker: str | None
    text: str
    role: str | None = None
    """The chat role it was stored under (``user``, ``assistant`` ...), if any."""

    @property
    def from_user(self) -> bool:
        """False for what an assistant, system or tool said."""
        return self.role is None or self.role.lower() not in NOT_THE_USER


def named(speaker: str | None) -> TypeGuard[str]:
    """Whether ``speaker`` is a chat turn's speaker, whose statements about others are
    their views ("Max is a good boy" -> "Jon thinks ..."), rather than the memory's
    owner (:data:`OWNER`), whose notes about others are the facts they record."""
    return speaker is not None and speaker != OWNER


# What opens a program's output or a note's label, never a person's turn: an error or
# exception class ("KeyError:", "ModuleNotFoundError:"), an acronym ("SSL:", "HTTP:").
_NOT_A_NAME = re.compile(r"^(?:\w*(?:Error|Exception|Warning)|[A-Z]{2,}\d*)$")


def can_speak(name: str) -> bool:
    """Whether ``name``, before a colon, names who speaks: not a label ("Note",
    "Decided"), a program ("Jest", "Docker"), an error class or an acronym (task x24:
    "Jest: Cannot find module ..." is a program's output)."""
    low = name.lower()
    if low in patterns.NOT_SPEAKERS or low in patterns.TOOLS:
        return False
    return _NOT_A_NAME.match(name) is None


def split_speaker(text: str) -> tuple[str | None, str]:
    """``("Caroline", "I went ...")`` for ``"Caroline: I went ..."``; else ``(None, text)``."""
    match = _SPEAKER.match(text)
    if match is None or not can_speak(match.group(1)):
        return None, text
    if match.group(1).lower() in ROLES:
        return None, text[match.end() :]  # "User: ...": a role, not a person
    return match.group(1), text[match.end() :]


def _message(line: str, speaker: str | None) -> Message:
    role = _ROLE.match(line)
    rest = line[role.end() :] if role else line
    name, body = split_speaker(rest)
    return Message(name or speaker, body, role.group(1).lower() if role else None)


def _starts_message(line: str) -> bool:
    if _ROLE.match(line):
        return True
    name, _ = split_speaker(line)
    return name is not None


def messages(text: str, speaker: str | None = None) -> list[Message]:
    """The messages of ``text``: one per line that opens with a role or a speaker's
    name (a line without one continues the message before it), or the whole text as
    one message. ``speaker`` is who "I" is where no name is given."""
    lines = text.splitlines()
    if len(lines) <= 1 or not any(_starts_message(line) for line in lines[1:]):
        return [_message(text, speaker)]
    out: list[Message] = []
    for line in lines:
        if not line.strip():
            continue
        if out and not _starts_message(line):
            last = out[-1]
            out[-1] = Message(last.speaker, f"{last.text}\n{line}", last.role)
        else:
            out.append(_message(line, speaker))
    return out


def clauses(sentence: str) -> list[str]:
    """``sentence`` split where a clause with its own subject starts (see the module
    docstring); a piece too short to be a claim stays joined to the one before."""
    if ";" not in sentence and not _may_split(sentence):
        return [sentence]
    out: list[str] = []
    start = 0
    for match in _CLAUSE_START.finditer(sentence):
        piece = sentence[start : match.start()].strip()
        rest = sentence[match.end() :]
        if len(rest.split()) < MIN_CLAUSE_WORDS:
            continue  # "..., and I did": not a claim of its own
        out.append(piece)
        start = match.end()
    out.append(sentence[start:].strip())
    return [piece[:1].upper() + piece[1:] for piece in out if piece]


_JOINERS = re.compile(r"\b(?:and|but|so)\s|\s[-—–]\s")


def _may_split(sentence: str) -> bool:
    """Whether ``_CLAUSE_START`` can match (it needs a joiner): a cheap test first."""
    return _JOINERS.search(sentence) is not None


_NOT_WORD = re.compile(r"[\W_]+")


# Asked twice of each fact the offline reader keeps (rules26): made once.
@functools.lru_cache(maxsize=1 << 14)
def form(text: str) -> str:
    """What a text says, to compare forms: its words, lower-cased, without punctuation."""
    return _NOT_WORD.sub(" ", text.lower()).strip()


@dataclass(frozen=True, slots=True)
class Reading:
    """How a claim reader cuts a text into clauses (:func:`claim_clauses`)."""

    sentences: Callable[[str], Iterable[str]]
    """The text after its speaker, into sentences."""
    clauses: Callable[[str], Iterable[str]]
    """One sentence into clauses."""
    question_tail: re.Pattern[str] | None = None
    """Where a statement leads into a question ("I've never used X, should I ...?"):
    the part before it is kept. None: a question is dropped whole."""
    strip: str = ""
    """Characters stripped from each clause's ends."""


def claim_clauses(text: str, reading: Reading) -> tuple[str | None, list[str]]:
    """The speaker of ``text`` (a ``"Name: ..."`` prefix, :func:`split_speaker`) and
    the clauses it states, cut as ``reading`` says. A question states nothing."""
    speaker, body = split_speaker(text)
    out: list[str] = []
    for sentence in reading.sentences(body):
        sentence = sentence.strip()
        if sentence.endswith("?"):
            lead = (
                reading.question_tail.split(sentence, maxsplit=1) if reading.question_tail else []
            )
            sentence = lead[0] if len(lead) > 1 else ""
        if not sentence:
            continue
        for clause in reading.clauses(sentence):
            clause = clause.strip(reading.strip)
            if clause:
                out.append(clause)
    return speaker, out
