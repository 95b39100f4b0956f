"""Which of a request's messages are new to the room: alignment by content.

A chat client sends the whole conversation, or only its last N messages (a sliding
window), or a summary in place of the oldest ones. So a message's position in the
request says nothing of its turn in the room: mining lines the request up with the
filed turns by what they say. The anchor is the longest run of consecutive messages
that agree with consecutive filed turns (compared as the write path dedupes: by
normalised content; ties go to the latest turns); from there the messages are walked
in order:

- one that agrees with the next filed turn, or with a later one (a message the client
  dropped in between), is already filed;
- one past the room's last turn, or at a turn nothing was filed for (a gap), is filed
  there;
- one that differs from the filed turn is a branch (a regenerated reply, an edited
  message: ``palace.branch``), unless the filed memory was edited by the user or
  deleted (then it counts as agreeing), or its text is filed at another turn (the lead's
  guard: a shift is no branch).

Messages before the anchor are the client's rewrite of what was said (a summary), never
filed. A request that agrees nowhere is appended after the last turn.

Nothing here reads the whole room: the room's last turn, its content index for the
request's hashes, and the drawer at a turn only where a message differs.

A request older than one already mined (``sequence``, a chat job's id, below the room's)
only fills gaps: no branch and nothing past the last turn, so jobs run out of order never
re-file or resurrect an older reply.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engram.palace.branch import edited
from engram.store.protocols import Store
from engram.text import normalize_content


@dataclass(frozen=True, slots=True)
class Plan:
    """Where a request's new messages go."""

    turn_of: dict[int, int]
    """Request index -> room turn, for each message to file, in request order."""
    fork: int | None = None
    """The turn the conversation branched at: the room's drawers from there are unfiled."""


def plan(
    store: Store,
    namespace: str,
    room_id: int,
    contents: Sequence[str],
    *,
    sequence: int | None = None,
) -> Plan:
    """Where each new message of ``contents`` (a request, in order) goes in the room."""
    mined = store.palace_turns.mined(namespace, room_id)
    last = mined.last_turn
    if last is None:  # nothing filed yet: every message, at its own position
        return Plan({i: i for i in range(len(contents))})
    older = sequence is not None and mined.sequence is not None and sequence < mined.sequence
    hashes = [normalize_content(c).content_hash for c in contents]
    index = store.palace_turns.holding(namespace, room_id, hashes)
    anchor = _anchor(hashes, index)
    if anchor is None:  # nothing agrees: a conversation the room has not seen this part of
        return Plan({} if older else {i: last + 1 + i for i in range(len(contents))})
    end, turn = anchor
    walk = _Walk(store, (namespace, room_id), turn, last, older)
    for i in range(end + 1, len(contents)):
        if not walk.step(i, hashes[i], index):
            break
    return Plan(walk.turn_of, walk.fork)


def _anchor(hashes: Sequence[str], index: Mapping[str, Sequence[int]]) -> tuple[int, int] | None:
    """The (request index, turn) where the longest run of agreeing messages ends; ties
    go to the latest turn. None when no message agrees with a filed turn."""
    best: tuple[int, int, int] | None = None  # (length, turn, index)
    previous: dict[int, int] = {}
    for i, content_hash in enumerate(hashes):
        current: dict[int, int] = {}
        for turn in index.get(content_hash, ()):
            length = current[turn] = previous.get(turn - 1, 0) + 1
            if best is None or (length, turn) > best[:2]:
                best = (length, turn, i)
        previous = current
    return None if best is None else (best[2], best[1])


class _Walk:
    """The messages after the anchor, one at a time (see the module's docstring)."""

    def __init__(
        self, store: Store, room: tuple[str, int], turn: int, last: int, older: bool
    ) -> None:
        self._store = store
        self._namespace, self._room = room
        self._last, self._older = last, older
        self.turn = turn
        """The turn of the message placed last."""
        self.turn_of: dict[int, int] = {}
        self.fork: int | None = None

    def step(self, i: int, content_hash: str, index: Mapping[str, Sequence[int]]) -> bool:
        """Place message ``i``; False when nothing after it may be filed (an older
        request that left the room's conversation)."""
        nxt = self.turn + 1
        if self.fork is None:
            later = [t for t in index.get(content_hash, ()) if t > self.turn]
            if later:  # agrees here, or further on (the client dropped a message)
                self.turn = later[0]
                return True
            if nxt <= self._last:
                state = self._differs(nxt, content_hash in index)
                if state == "kept":
                    self.turn = nxt
                    return True
                if state == "branch":
                    if self._older:  # an older request's branch is history, not news
                        return False
                    self.fork = nxt
            elif self._older:  # only gaps: the newer request decided what comes next
                return False
        self.turn_of[i] = self.turn = nxt
        return True

    def _differs(self, turn: int, said_elsewhere: bool) -> str:
        """What a message that does not agree with ``turn``'s filed memory is: "gap"
        (nothing filed there), "kept" (the memory was edited or deleted, or the text is
        another turn's) or "branch"."""
        found = self._store.palace.drawers(self._namespace, self._room, slice(turn, turn + 1))
        if not found:
            return "gap"
        memory = self._store.memories.get(self._namespace, found[0].memory_id)
        if memory is None or said_elsewhere or edited(self._store, self._namespace, memory):
            return "kept"
        return "branch"
