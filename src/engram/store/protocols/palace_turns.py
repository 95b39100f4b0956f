"""The palace's turn index: what lining a mined request up with a room reads
(``engram.palace.align``), as its own concern beside the palace's places."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class Mined:
    """How far a room's conversation was mined: what aligning a new request needs."""

    last_turn: int | None
    """The room's highest filed turn (None: nothing filed)."""
    sequence: int | None
    """The highest request sequence (a chat job's id) that filed into the room, or None."""


@runtime_checkable
class PalaceTurnStore(Protocol):
    """What lining a mined request up with a room's filed turns reads (``palace.align``):
    never the whole room, so mining an exchange costs the same in a long conversation."""

    def mined(self, namespace: str, room_id: int) -> Mined:
        """The room's highest filed turn and highest request sequence."""
        ...

    def holding(
        self, namespace: str, room_id: int, content_hashes: Sequence[str]
    ) -> dict[str, list[int]]:
        """Per content hash, the turns (ascending) of the room's drawers whose live
        memory has that hash: the room's content index, read for these hashes only."""
        ...
