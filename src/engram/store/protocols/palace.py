"""The palace part of a store (FEATURES G6, G7; seed 003): wings, rooms, closets and
drawers.

A wing is a subject (a person, project, topic or agent), a room a time slice of it
(typically one conversation), a closet a topic discussed in a room, and a drawer one
verbatim message: a link from a room to the memory that holds the message. Wings are
numbered per namespace, rooms per wing and drawers per room; a number is never given
out twice (counters, not ``max + 1``), so an AAAK pointer such as ``§ W-042/R-11/D-007``
keeps naming the same drawer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

from engram.store.protocols.record import Record

#: seed 003: "A subject — a person, project, topic, or agent".
WING_KINDS = ("person", "project", "topic", "agent")
#: What an alias names: a wing (per namespace), a room (per wing), a closet (per room).
ALIAS_LEVELS = ("wing", "room", "closet")


def wing_code(number: int) -> str:
    """``W-042``: at least three digits (seed 003's example), more when needed."""
    return f"W-{number:03d}"


def room_code(number: int) -> str:
    """``R-11``: at least two digits."""
    return f"R-{number:02d}"


def drawer_code(number: int) -> str:
    """``D-007``: at least three digits."""
    return f"D-{number:03d}"


@dataclass(frozen=True, slots=True)
class Wing(Record):
    """A subject of the palace: a person, project, topic or agent."""

    id: int
    namespace: str
    number: int
    kind: str
    name: str
    """The first spelling given."""
    slug: str
    created_at: datetime
    aliases: tuple[str, ...] = ()
    """Other slugs that resolve to this wing."""

    @property
    def code(self) -> str:
        """``W-042``."""
        return wing_code(self.number)

    _extra = ("code",)


@dataclass(frozen=True, slots=True)
class Room(Record):
    """A time slice of a wing, typically one conversation (a session)."""

    id: int
    namespace: str
    wing_id: int
    wing_number: int
    number: int
    name: str
    slug: str
    created_at: datetime

    @property
    def code(self) -> str:
        """``W-042/R-11``."""
        return f"{wing_code(self.wing_number)}/{room_code(self.number)}"

    _extra = ("code",)


@dataclass(frozen=True, slots=True)
class Closet(Record):
    """A topic discussed in a room, and how many of its drawers are filed under it."""

    id: int
    namespace: str
    room_id: int
    name: str
    slug: str
    drawers: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class NewDrawer:
    """A drawer to file: the turn's position in its conversation and its memory."""

    turn: int
    memory_id: str
    role: str | None = None
    tags: tuple[str, ...] = ()
    """AAAK tags such as ``@p derek`` (see ``engram.palace.aaak``)."""


@dataclass(frozen=True, slots=True)
class Drawer(Record):
    """One verbatim message filed in a room: a link to the memory that holds it."""

    id: int
    namespace: str
    wing_id: int
    wing_number: int
    room_id: int
    room_number: int
    number: int
    turn: int
    """The message's 0-based position in the mined conversation."""
    memory_id: str
    role: str | None
    tags: tuple[str, ...]
    created_at: datetime

    @property
    def pointer(self) -> str:
        """``§ W-042/R-11/D-007`` followed by the drawer's AAAK tags."""
        head = f"§ {wing_code(self.wing_number)}/{room_code(self.room_number)}/"
        return " ".join([head + drawer_code(self.number), *self.tags])

    _extra = ("pointer",)


@dataclass(frozen=True, slots=True)
class RoomNode(Record):
    """A room in the palace tree: its drawer count and its closets."""

    room: Room
    drawers: int
    closets: tuple[Closet, ...]


@dataclass(frozen=True, slots=True)
class WingNode(Record):
    """A wing in the palace tree, with its rooms (newest number last)."""

    wing: Wing
    rooms: tuple[RoomNode, ...]

    @property
    def drawers(self) -> int:
        """Drawers across the wing's rooms."""
        return sum(r.drawers for r in self.rooms)

    _extra = ("drawers",)


@runtime_checkable
class PalaceStore(Protocol):
    """Wings, rooms, closets and drawers, numbered and deduplicated by slug and alias.

    Every call takes a namespace and never reads or writes outside it. Writes join an
    open ``store.transaction()``.
    """

    def ensure_wing(
        self, namespace: str, *, slug: str, name: str, kind: str, now: datetime
    ) -> Wing:
        """The wing whose slug or alias is ``slug``, created with the next wing number
        if there is none (an existing wing keeps its name and kind)."""
        ...

    def wing(self, namespace: str, key: str | int) -> Wing | None:
        """The wing with this number (int) or whose slug or alias is ``key`` (str)."""
        ...

    def add_alias(
        self, namespace: str, level: str, parent_id: int, target_id: int, alias: str
    ) -> bool:
        """Make slug ``alias`` resolve to the wing, room or closet ``target_id`` (rooms
        within wing ``parent_id``, closets within room ``parent_id``, wings with
        ``parent_id`` 0); False if it already does. ``InvalidInputError`` if it is
        another one's slug or alias."""
        ...

    def ensure_room(
        self, namespace: str, wing_id: int, *, slug: str, name: str, now: datetime
    ) -> Room:
        """The wing's room whose slug or alias is ``slug``, created with the wing's next
        room number if there is none."""
        ...

    def room(self, namespace: str, wing_id: int, key: str | int) -> Room | None:
        """The wing's room with this number (int) or slug or alias (str)."""
        ...

    def drawers(self, namespace: str, room_id: int, turns: slice | None = None) -> list[Drawer]:
        """The room's drawers by number; with ``turns``, only those of the turns in that
        slice (``slice(5, None)``: turn 5 on; ``slice(5, 6)``: turn 5 alone)."""
        ...

    def file_drawers(
        self,
        namespace: str,
        room_id: int,
        drawers: Sequence[NewDrawer],
        now: datetime,
        *,
        from_turn: int | None = None,
        sequence: int | None = None,
    ) -> list[Drawer]:
        """File drawers in the room with its next drawer numbers, in order; a turn the
        room already holds is skipped (what makes mining idempotent). With
        ``from_turn``, the room's drawers of that turn and later are taken out first
        (the conversation branched there: a reply regenerated, a message edited), so
        the new ones take their turns under new numbers; a number is still never given
        twice. ``sequence`` (the request's order, a chat job's id) raises the room's
        ``Mined.sequence``. Returns the new drawers."""
        ...

    def file_closet(
        self,
        namespace: str,
        room_id: int,
        *,
        slug: str,
        name: str,
        drawer_ids: Sequence[int],
        now: datetime,
    ) -> Closet:
        """The room's closet whose slug or alias is ``slug`` (created if there is none),
        with ``drawer_ids`` filed under it (again is a no-op)."""
        ...

    def drawer(
        self, namespace: str, wing_number: int, room_number: int, drawer_number: int
    ) -> Drawer | None:
        """The drawer a pointer names."""
        ...

    def pointers(self, namespace: str, memory_ids: Sequence[str]) -> dict[str, Drawer]:
        """For each memory filed in a drawer, its first drawer (lowest id)."""
        ...

    def tree(self, namespace: str, wing_id: int | None) -> list[WingNode]:
        """Every wing (or one) with its rooms, their drawer counts and closets."""
        ...

    def members(
        self, namespace: str, memory_ids: Sequence[str], *, wing_id: int, room_id: int | None
    ) -> set[str]:
        """Which of ``memory_ids`` are filed in the wing (in its room ``room_id`` if
        given): one indexed query, whatever the palace's size."""
        ...
