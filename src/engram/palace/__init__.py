"""``mem.palace``: seed 003's memory palace (FEATURES G6, G7, G8).

A wing is a subject (a person, project, topic or agent), a room a time slice of it (a
session), a closet a topic discussed in a room, and a drawer one verbatim message. A
drawer *is* a memory: mining writes each turn through the everyday write path
(``add_many``: validated, scanned for injection, deduplicated, embedded, given its
pipeline jobs) and files the memory in its room. Wings, rooms and closets are found by
slug or alias, so "Derek" and "derek" are one wing, and an alias makes "Dr. Alice Smith"
and "alice smith" one too. Every drawer has an AAAK pointer (``§ W-042/R-11/D-007`` plus
tags) that a prompt can cite and ``resolve`` turns back into the memory.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Unpack

from engram import write
from engram.core import Part, Scope
from engram.errors import InvalidInputError, NotFoundError, shown
from engram.palace import aaak, align, branch, mining, mining_llm
from engram.records import MemoryRecord, Outcome, utcnow
from engram.scoping import ScopeArgs, scoped
from engram.store.protocols.graph import SINGLE_VALUED
from engram.store.protocols.palace import (
    WING_KINDS,
    Closet,
    Drawer,
    NewDrawer,
    Room,
    Wing,
    WingNode,
)
from engram.store.protocols.record import Record
from engram.validate import choice, no_nul, optional_str, timestamp, type_name

__all__ = ["FiledDrawer", "MineResult", "Palace", "place_filter", "pointer_cites"]

#: The history event each newly filed drawer's memory gets (seed 003: "An agent_action
#: activity event of type memory_mined records what landed").
MINED_EVENT = "memory_mined"
#: Who files drawers, in history rows.
PALACE_WHO = "engram-palace"
#: Longest wing, room or closet name accepted.
MAX_NAME_CHARS = 200
#: Most messages one call mines (a longer export is mined in several calls).
MAX_MESSAGES = 100_000
#: Wing, room and drawer numbers are counters far below this; a larger number names no
#: place (and would overflow SQLite's INTEGER), so it is looked up as "not found".
MAX_NUMBER = 2**31 - 1

#: Where a not-found error sends the caller, whichever surface it came through (an
#: agent over MCP has no shell for `engram palace`; new-user pass, round seven).
TREE_HINT = (
    "the palace tree lists the wings and rooms (`engram palace`, the MCP tool palace_tree, "
    "GET /v1/palace)"
)

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class FiledDrawer(Record):
    """A drawer with the memory it holds, as ``resolve`` returns it."""

    drawer: Drawer
    memory: MemoryRecord

    @property
    def pointer(self) -> str:
        """The drawer's AAAK pointer with its tags."""
        return self.drawer.pointer


@dataclass(frozen=True, slots=True)
class MineResult(Record):
    """What one ``mine_conversation`` call filed."""

    wing: Wing | None
    """None when the conversation was empty (nothing is created)."""
    room: Room | None
    turns: int
    """Messages in the conversation."""
    added: tuple[Drawer, ...] = ()
    """Drawers filed by this call, in turn order."""
    kept: int = 0
    """Turns the room already held (a re-run files nothing twice)."""
    replaced: int = 0
    """Memories of a branch the conversation left (a regenerated reply, an edited
    message) superseded by the turns filed in their place."""
    blocked: int = 0
    """Turns the injection scan refused (block mode): stored nowhere."""
    invalid: int = 0
    """Turns with nothing to store (empty content)."""
    closets: tuple[Closet, ...] = ()
    """The closets (topics) this call filed drawers under."""
    relations: int = 0
    """Graph relations recorded (``graph=True``)."""
    llm_windows: tuple[int, ...] = ()
    """Windows (0-based) whose topic and entities the model gave; the rules read the rest."""
    warnings: tuple[str, ...] = ()
    """What was wrong with the model's answers (or the model), and what the rules did."""


@dataclass(slots=True)
class _Filing:
    """What one mining call files besides its drawers: the plan, the room's session id,
    the request's sequence, and the drawers of the branch it leaves (if any)."""

    plan: align.Plan
    session_id: str
    sequence: int | None
    abandoned: list[Drawer] = field(default_factory=list)
    index_of: dict[int, int] = field(init=False)
    """Room turn -> the request's message index."""

    def __post_init__(self) -> None:
        self.index_of = {t: i for i, t in self.plan.turn_of.items()}


def _name(what: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError(f"{what} must be a non-empty string, got {shown(value)}")
    if len(value) > MAX_NAME_CHARS:
        raise InvalidInputError(f"{what} is {len(value)} characters, over {MAX_NAME_CHARS}")
    return no_nul(what, " ".join(value.split()))


#: The field that marks a conversation of another tool's export (new-user pass, round
#: nine): named in the refusal, so a user does not read it as a malformed message list.
EXPORTS = {"mapping": "ChatGPT", "chat_messages": "Claude"}


def _turns(messages: object) -> list[mining.Turn]:
    """``[{role, content[, created_at]}]`` checked into turns."""
    if isinstance(messages, str | bytes) or not isinstance(messages, Sequence):
        raise InvalidInputError(
            f"messages must be a list of {{role, content}} dicts, got {type_name(messages)}"
        )
    if len(messages) > MAX_MESSAGES:
        raise InvalidInputError(
            f"{len(messages)} messages in one call, over {MAX_MESSAGES}; mine them in parts"
        )
    out: list[mining.Turn] = []
    for i, message in enumerate(messages):
        if not isinstance(message, Mapping):
            raise InvalidInputError(
                f"message {i} must be a {{role, content}} dict, got {type_name(message)}"
            )
        unknown = set(message) - {"role", "content", "created_at", "timestamp", "name"}
        tool = next((EXPORTS[f] for f in EXPORTS if f in unknown), None)
        if tool is not None:
            raise InvalidInputError(
                f"message {i} is a conversation of a {tool} export, which engram does not "
                "read: give each conversation as a list of {role, content} messages"
            )
        if unknown:
            raise InvalidInputError(
                f"message {i} has unknown field(s) {', '.join(sorted(map(str, unknown)))}; "
                "known: role, content, created_at (or timestamp), name"
            )
        content = message.get("content")
        if content is None:  # absent or null: say so rather than name Python's NoneType
            raise InvalidInputError(
                f"message {i} has no 'content': give every message its text as 'content' (a string)"
            )
        if not isinstance(content, str):
            raise InvalidInputError(
                f"message {i} needs 'content' as a string, got {type_name(content)}"
            )
        role = optional_str(f"message {i} role", message.get("name") or message.get("role"))
        when = timestamp(
            f"message {i} created_at", message.get("created_at", message.get("timestamp"))
        )
        out.append(mining.Turn(role, content, when))
    return out


def _default_session(turns: Sequence[mining.Turn]) -> str:
    """A conversation without a session name gets one from its first message, so
    mining it again (or a longer copy of it) lands in the same room: its time slice
    when the first message carries a time (seed 003: "2026-04-30 evening"), else a hash
    of it."""
    first = turns[0]
    if first.created_at is not None:
        return mining.time_slice(first.created_at)
    key = f"{first.role or ''}\n{first.content}".encode()
    return f"conversation-{hashlib.sha256(key).hexdigest()[:10]}"


class Palace(Part):
    """The palace of a ``Memory``: wings, rooms, closets, drawers; mining and AAAK."""

    # -- places -----------------------------------------------------------------------
    @scoped
    def add_wing(
        self,
        name: str,
        *,
        kind: str = "topic",
        aliases: Sequence[str] = (),
        **who: Unpack[ScopeArgs],
    ) -> Wing:
        """The wing called ``name`` (by slug or alias), created as a ``kind`` wing
        (person, project, topic, agent) with the next number if there is none;
        ``aliases`` are added to it."""
        scope = self._core.open_scope(**who)
        wing = self._ensure_wing(scope, name, kind)
        for alias in _aliases(aliases):
            self._core.store.palace.add_alias(scope.namespace, "wing", 0, wing.id, alias)
        return self._wing(scope, wing.slug) if aliases else wing

    @scoped
    def add_alias(
        self,
        alias: str,
        *,
        wing: str,
        room: str | None = None,
        closet: str | None = None,
        **who: Unpack[ScopeArgs],
    ) -> bool:
        """Make ``alias`` another name of the wing (or of its ``room``, or of that
        room's ``closet``); False if it already was. ``InvalidInputError`` if it names
        another place."""
        scope = self._core.open_scope(**who)
        store = self._core.store.palace
        found = self._wing(scope, wing)
        slug = aaak.slugify(_name("alias", alias))
        if room is None:
            if closet is not None:
                raise InvalidInputError("a closet alias needs the closet's room: pass room=")
            return store.add_alias(scope.namespace, "wing", 0, found.id, slug)
        place = self._room(scope, found, room)
        if closet is None:
            return store.add_alias(scope.namespace, "room", found.id, place.id, slug)
        for node in store.tree(scope.namespace, found.id):
            for rn in node.rooms:
                for c in rn.closets if rn.room.id == place.id else ():
                    if c.slug == aaak.slugify(_name("closet", closet)):
                        return store.add_alias(scope.namespace, "closet", place.id, c.id, slug)
        raise NotFoundError(f"no closet {shown(closet)} in room {place.code}")

    @scoped
    def tree(self, wing: str | None = None, **who: Unpack[ScopeArgs]) -> list[WingNode]:
        """Wings (or the one named) with their rooms, drawer counts and closets."""
        scope = self._core.open_scope(**who)
        wing_id = None if wing is None else self._wing(scope, wing).id
        return self._core.store.palace.tree(scope.namespace, wing_id)

    @scoped
    def drawers(self, wing: str, room: str | int, **who: Unpack[ScopeArgs]) -> list[Drawer]:
        """The drawers of a room (by slug, alias or number), in order."""
        scope = self._core.open_scope(**who)
        place = self._room(scope, self._wing(scope, wing), room)
        return self._core.store.palace.drawers(scope.namespace, place.id)

    # -- mining -----------------------------------------------------------------------
    @scoped
    def mine_conversation(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        wing: str,
        session: str | None = None,
        kind: str = "topic",
        graph: bool = False,
        progress: Progress | None = None,
        sequence: int | None = None,
        **who: Unpack[ScopeArgs],
    ) -> MineResult:
        """File a conversation (``[{role, content[, created_at]}]``) in the palace: one
        drawer per turn, verbatim, in the room ``session`` of ``wing``.

        Each turn is stored through ``add_many`` (scanned, deduplicated, embedded, given
        its pipeline jobs) with ``session_id`` ``"<wing>/<room>"``, so recall's session
        context sees the conversation. Windows of 8-10 turns are read for entities and a
        topic: the topic becomes a closet, the entities the drawers' AAAK tags, and with
        ``graph=True`` the relations found go to ``mem.graph`` through the write
        path's gate (``write.linked``: closing plan, relation ends). Mining the same
        conversation again files nothing (turns already in the room are kept); an empty
        one creates nothing. Each new drawer's memory gets a ``memory_mined`` history
        row. The messages are lined up with the room's turns by content
        (``palace.align``), so a client that sends only its last messages, or a summary
        in place of older ones, has its new turns filed after the room's last. With
        ``sequence`` (the request's order in the conversation, a chat job's id), a
        request older than one already mined only fills gaps.
        """
        core = self._core
        scope = self._core.open_scope(**who)
        turns = _turns(messages)
        if progress is not None and not callable(progress):
            raise InvalidInputError(
                f"progress must be a callable(done, total), got {shown(progress)}"
            )
        if not turns:
            return MineResult(None, None, 0)
        place = self._ensure_wing(scope, wing, kind)
        room_name = _name("session", session) if session is not None else _default_session(turns)
        room = core.store.palace.ensure_room(
            scope.namespace, place.id, slug=aaak.slugify(room_name), name=room_name, now=utcnow()
        )
        if sequence is not None and (isinstance(sequence, bool) or not isinstance(sequence, int)):
            raise InvalidInputError(f"sequence must be an integer, got {shown(sequence)}")
        contents = [t.content for t in turns]
        plan = align.plan(core.store, scope.namespace, room.id, contents, sequence=sequence)
        todo = list(plan.turn_of)
        if not todo:
            return MineResult(place, room, len(turns), kept=len(turns))
        # The model (if any) is asked here, before anything is written.
        reading = mining_llm.read_windows(core, turns, set(todo))
        spans = reading.windows
        window_of = {i: w for w in spans for i in w.turns}
        session_id = f"{place.slug}/{room.slug}"
        items = [_item(scope, turns[i], session_id) for i in todo]
        batch = write.add_batch(
            core,
            items,
            namespace=scope.namespace,
            progress=progress,
            on_blocked="skip",
            on_invalid="skip",
        )
        new: list[NewDrawer] = []
        blocked = invalid = 0
        for i, outcome in zip(todo, batch.items, strict=True):
            if outcome.record is None:
                blocked += outcome.outcome is Outcome.BLOCKED
                invalid += outcome.outcome is Outcome.INVALID
                continue
            window = window_of[i]
            tags = window.tags[i - window.turns.start]
            new.append(NewDrawer(plan.turn_of[i], outcome.record.id, turns[i].role, tags))
        filing = _Filing(plan, session_id, sequence)
        if plan.fork is not None:
            found = core.store.palace.drawers(scope.namespace, room.id, slice(plan.fork, None))
            filing.abandoned = sorted(found, key=lambda d: d.turn)
        added, closets, replaced = self._file(scope, room, new, spans, filing)
        relations = self._record_graph(scope, added, window_of, filing.index_of) if graph else 0
        return MineResult(
            place,
            room,
            len(turns),
            added=tuple(added),
            kept=len(turns) - len(todo),
            replaced=replaced,
            blocked=blocked,
            invalid=invalid,
            closets=tuple(closets),
            relations=relations,
            llm_windows=reading.llm_windows,
            warnings=reading.warnings,
        )

    def _file(
        self,
        scope: Scope,
        room: Room,
        new: list[NewDrawer],
        spans: list[mining.Window],
        filing: _Filing,
    ) -> tuple[list[Drawer], list[Closet], int]:
        """File drawers, their closets and their history rows in one transaction; the
        abandoned drawers of ``filing`` (a branch the conversation left) are unfiled
        first and their memories superseded by the new turns (``palace.branch``)."""
        store = self._core.store
        now = utcnow()
        closets: list[Closet] = []
        with store.transaction():
            added = store.palace.file_drawers(
                scope.namespace,
                room.id,
                new,
                now,
                from_turn=filing.plan.fork,
                sequence=filing.sequence,
            )
            by_index = {filing.index_of[d.turn]: d for d in added}
            closet_of: dict[int, str] = {}
            for window in spans:
                ids = [by_index[i].id for i in window.turns if i in by_index]
                if window.topic is None or not ids:
                    continue
                closet = store.palace.file_closet(
                    scope.namespace,
                    room.id,
                    slug=aaak.slugify(window.topic),
                    name=window.topic,
                    drawer_ids=ids,
                    now=now,
                )
                closets.append(closet)
                closet_of.update({i: closet.name for i in window.turns})
            for drawer in added:
                store.audit.record(
                    scope.namespace,
                    drawer.memory_id,
                    MINED_EVENT,
                    payload={
                        "pointer": drawer.pointer,
                        "room": room.name,
                        "turn": drawer.turn,
                        "closet": closet_of.get(filing.index_of[drawer.turn]),
                    },
                    actor=PALACE_WHO,
                    reason=f"filed in {room.code}",
                    now=now,
                )
            replaced = branch.retire(
                store,
                scope.namespace,
                session_id=filing.session_id,
                abandoned=filing.abandoned,
                added=added,
                actor=PALACE_WHO,
            )
        unique = {c.id: c for c in closets}
        return added, list(unique.values()), replaced

    def _record_graph(
        self,
        scope: Scope,
        added: list[Drawer],
        window_of: Mapping[int, mining.Window],
        index_of: Mapping[int, int],
    ) -> int:
        """The relations the windows found, recorded per drawer's memory (idempotent
        per memory, so a re-run adds nothing); ``index_of`` maps a turn to its message.
        Each memory's triples pass the write path's own gate (``write.linked``: the
        closing plan and the relation ends, task x24), so a mined change closes the old
        fact and a verb or a pronoun is no entity, as with ``mem.add``."""
        core = self._core
        store = core.store
        count = 0
        for drawer in added:
            index = index_of[drawer.turn]
            window = window_of[index]
            triples = window.triples[index - window.turns.start]
            if not triples:
                continue
            memory = store.memories.get(scope.namespace, drawer.memory_id)
            if memory is None:
                continue
            names = {n for t in triples for n in (t[0], t[2])}
            types = {n: k for n, k in window.entity_types.items() if n in names}
            statement = write.linked(core, memory, triples, types)
            if not statement.triples and not statement.entity_types:
                continue
            [result] = store.graph.record(scope.namespace, [statement], single_valued=SINGLE_VALUED)
            count += len(result.relations)
        return count

    # -- AAAK -------------------------------------------------------------------------
    @scoped
    def resolve(self, pointer: str, **who: Unpack[ScopeArgs]) -> FiledDrawer:
        """The drawer an AAAK pointer names, with its memory (the tags are ignored).
        ``InvalidInputError`` for a malformed pointer, ``NotFoundError`` if no such
        drawer, or if its memory was deleted."""
        scope = self._core.open_scope(**who)
        parsed = aaak.parse(pointer)
        drawer = self._core.store.palace.drawer(
            scope.namespace, parsed.wing, parsed.room, parsed.drawer
        )
        if drawer is None:
            raise NotFoundError(
                f"no drawer {pointer.strip()!r} in namespace {shown(scope.namespace)}; {TREE_HINT}"
            )
        return FiledDrawer(drawer, self._core.get(scope, drawer.memory_id))

    @scoped
    def pointer(self, memory_id: str, **who: Unpack[ScopeArgs]) -> str | None:
        """The AAAK pointer of the memory's first drawer, or None if it is in none."""
        scope = self._core.open_scope(**who)
        record = self._core.get(scope, memory_id)
        found = self._core.store.palace.pointers(scope.namespace, [record.id])
        return found[record.id].pointer if record.id in found else None

    # -- helpers ----------------------------------------------------------------------
    def _ensure_wing(self, scope: Scope, name: str, kind: str) -> Wing:
        choice("wing kind", kind, WING_KINDS)
        checked = _name("wing", name)
        return self._core.store.palace.ensure_wing(
            scope.namespace, slug=aaak.slugify(checked), name=checked, kind=kind, now=utcnow()
        )

    def _wing(self, scope: Scope, wing: str) -> Wing:
        return find_wing(self._core.store.palace, scope, wing)

    def _room(self, scope: Scope, wing: Wing, room: str | int) -> Room:
        store = self._core.store.palace
        key: str | int = room if isinstance(room, int) else aaak.slugify(_name("room", room))
        out_of_range = isinstance(key, int) and not 0 < key <= MAX_NUMBER
        found = None if out_of_range else store.room(scope.namespace, wing.id, key)
        if found is None:
            raise NotFoundError(f"no room {shown(room)} in wing {shown(wing.name)} ({wing.code})")
        return found


def _aliases(aliases: object) -> list[str]:
    if isinstance(aliases, str) or not isinstance(aliases, Sequence):
        raise InvalidInputError(f"aliases must be a list of names, got {shown(aliases)}")
    return [aaak.slugify(_name("alias", a)) for a in aliases]


def _item(scope: Scope, turn: mining.Turn, session_id: str) -> dict[str, Any]:
    """One turn as an ``add_many`` item: verbatim content, its role kept alongside."""
    return {
        "content": turn.content,
        "session_id": session_id,
        "who": turn.role,
        "metadata": None if turn.role is None else {"role": turn.role},
        "created_at": turn.created_at,
        "user_id": scope.user_id,
        "agent_id": scope.agent_id,
        "run_id": scope.run_id,
    }


def find_wing(store: Any, scope: Scope, wing: object) -> Wing:
    """The wing named by slug, alias, ``W-042`` code or number; ``NotFoundError`` if
    there is none."""
    key: str | int
    if isinstance(wing, int) and not isinstance(wing, bool):
        key = wing
    elif isinstance(wing, str) and wing.strip().upper().startswith("W-"):
        digits = wing.strip()[2:]
        if not digits.isdigit():
            raise InvalidInputError(f"a wing code is W-<number>, got {shown(wing)}")
        key = int(digits)
    else:
        key = aaak.slugify(_name("wing", wing))
    out_of_range = isinstance(key, int) and not 0 < key <= MAX_NUMBER
    found = None if out_of_range else store.wing(scope.namespace, key)
    if found is None:
        raise NotFoundError(
            f"no wing {shown(wing)} in namespace {shown(scope.namespace)}; {TREE_HINT}"
        )
    assert isinstance(found, Wing)
    return found


def place_filter(
    palace: Palace, scope: Scope, wing: object, room: object
) -> Callable[[Sequence[str]], set[str]] | None:
    """For ``recall(wing=, room=)``: a function keeping the candidate ids filed in
    that place, one indexed query per call. ``NotFoundError`` for an unknown wing or
    room; None when neither is given."""
    if wing is None:
        if room is not None:
            raise InvalidInputError("room= needs wing= too: rooms are numbered per wing")
        return None
    store = palace._core.store.palace
    found = find_wing(store, scope, wing)
    room_id = None
    if room is not None:
        if not isinstance(room, str | int) or isinstance(room, bool):
            raise InvalidInputError(f"room must be a name or a number, got {shown(room)}")
        room_id = palace._room(scope, found, room).id

    def keep(ids: Sequence[str]) -> set[str]:
        return store.members(scope.namespace, ids, wing_id=found.id, room_id=room_id)

    return keep


def pointer_cites(palace: Palace, scope: Scope) -> Callable[[Sequence[str]], dict[str, str]]:
    """For ``recall(cite="pointer")``: memory id -> AAAK pointer of its drawer."""
    store = palace._core.store.palace

    def cites(ids: Sequence[str]) -> dict[str, str]:
        return {k: d.pointer for k, d in store.pointers(scope.namespace, ids).items()}

    return cites
