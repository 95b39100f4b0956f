"""The core-blocks part of a store: seed 002's self-editing memory (FEATURES S5).

A core block is a named piece of text (``persona``, ``human`` ...) with a character
limit that is rendered into every context the agent gets, and that the agent edits
itself through tools (``core_memory_append``, ``core_memory_replace``). Every write
bumps the block's ``version`` and appends a row to its history; history rows are never
changed or deleted, so what the agent did to its own memory stays auditable.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

#: What a history row records: how the block changed.
BLOCK_OPS = ("create", "set", "append", "replace", "delete")


@dataclass(frozen=True, slots=True)
class CoreBlock:
    """One core memory block of a namespace."""

    namespace: str
    label: str
    value: str
    char_limit: int
    description: str
    read_only: bool
    """A read-only block is shown to the agent but its tools may not edit it."""
    version: int
    """1 when created, +1 on every write: writers pass it back to detect a race."""
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class BlockEdit:
    """One append-only history row of a block."""

    id: int
    namespace: str
    label: str
    op: str
    old_value: str | None
    new_value: str | None
    actor: str | None
    """Who wrote (``agent``, ``user``, an API key's name ...), as the caller said."""
    at: datetime


@dataclass(frozen=True, slots=True)
class BlockWrite:
    """What a caller hands the store to write one block."""

    label: str
    value: str
    op: str
    char_limit: int
    description: str = ""
    read_only: bool = False
    actor: str | None = None


@runtime_checkable
class CoreBlockStore(Protocol):
    """Core blocks and their history, each scoped to a namespace."""

    def get(self, namespace: str, label: str) -> CoreBlock | None:
        """The block, or None."""
        ...

    def blocks(self, namespace: str) -> list[CoreBlock]:
        """The namespace's blocks by label."""
        ...

    def write(
        self, namespace: str, block: BlockWrite, *, expect_version: int, now: datetime
    ) -> CoreBlock | None:
        """Write the block and append its history row in one transaction.
        ``expect_version`` 0 creates it; otherwise the stored block must still be at
        that version. None (and nothing written) when that does not hold."""
        ...

    def delete(
        self, namespace: str, label: str, *, actor: str | None, now: datetime
    ) -> CoreBlock | None:
        """Remove the block (its history stays, with a ``delete`` row); None if absent."""
        ...

    def history(self, namespace: str, label: str, *, limit: int) -> list[BlockEdit]:
        """The block's edits, newest first (kept after the block is deleted)."""
        ...
