"""``mem.inject.blocks``: core memory blocks, seed 002's self-editing strategy (FEATURES S5).

"The agent has structured memory blocks (core, archival, recall) it reads AND writes
during execution via dedicated tools. Core memory is always in context" (seed 002). A
core block is a named text (``persona``, ``human`` ...) with a character limit. People
and programs write blocks with ``set``; the agent edits them through the
``core_memory_append`` and ``core_memory_replace`` tools, which land in ``append`` and
``replace`` and may not touch a read-only block. Every write bumps the block's version
and appends a history row that is never changed, so what the agent did to its own
memory stays auditable. ``render`` gives the ``<core_memory>`` block that the context
strategy puts in front of the agent.

Time comes from ``self.clock`` (UTC ``datetime``), so tests move it by hand.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any, Unpack

from engram.core import Core, Part
from engram.errors import InvalidInputError, NotFoundError, PermissionDeniedError, StoreError, shown
from engram.recall.format import untrusted
from engram.records import iso, utcnow
from engram.safety import InjectionMode, enforce
from engram.scoping import OwnerArgs, scoped
from engram.spotlight import escape
from engram.store.protocols.blocks import BlockEdit, BlockWrite, CoreBlock
from engram.validate import no_nul, positive_int, type_name

__all__ = [
    "DEFAULT_CHAR_LIMIT",
    "MAX_CHAR_LIMIT",
    "BlockEdit",
    "Blocks",
    "CoreBlock",
    "block_dict",
]


def block_dict(b: CoreBlock) -> dict[str, Any]:
    """A block as the HTTP API and ``engram blocks --json`` show it; ``chars`` is the
    length of its value now."""
    return {
        "namespace": b.namespace,
        "label": b.label,
        "value": b.value,
        "chars": len(b.value),
        "char_limit": b.char_limit,
        "description": b.description,
        "read_only": b.read_only,
        "version": b.version,
        "updated_at": iso(b.updated_at),
    }


#: A block's size when its creator names none: Letta's CORE_MEMORY_BLOCK_CHAR_LIMIT
#: (seed 002 names the Letta-style blocks but no size).
DEFAULT_CHAR_LIMIT = 5000
#: The largest limit a block may have: core memory rides in every context.
MAX_CHAR_LIMIT = 100_000
#: How many times an edit re-reads a block that another writer changed meanwhile.
_RETRIES = 5

_LABEL = re.compile(r"^[a-z][a-z0-9_-]{0,63}$")


def label_value(label: object) -> str:
    """A block label: lowercase letters, digits, ``_`` and ``-``, starting with a letter."""
    if not isinstance(label, str) or not _LABEL.match(label.strip()):
        raise InvalidInputError(
            f"block label must be 1-64 lowercase letters, digits, '_' or '-' starting with "
            f"a letter (like 'persona' or 'human'), got {shown(label)}"
        )
    return label.strip()


def _text(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise InvalidInputError(f"{name} must be a string, got {type_name(value)}")
    return no_nul(name, value)


def _escaped(text: str) -> str:
    # A value must not close the block's tags early nor forge a chat turn (issue 26).
    return escape(text)


def _how(label: str) -> str:
    """The ways to create block ``label``, one per surface: the message reaches an agent
    over MCP, which has no tool that creates blocks, as well as a Python caller."""
    return (
        f"`engram blocks set {label} TEXT`, PUT /v1/blocks/{label}, or "
        f"blocks.set({shown(label)}, ...) in Python"
    )


class Blocks(Part):
    """Core memory blocks of a namespace: read into every context, edited by the agent."""

    def __init__(self, core: Core) -> None:
        super().__init__(core)
        self.clock: Callable[[], datetime] = utcnow
        """Where the time comes from: UTC now, or a test's hand-moved clock."""

    # -- reads ----------------------------------------------------------------------
    @scoped
    def get(self, label: str, **who: Unpack[OwnerArgs]) -> CoreBlock:
        """One block; ``NotFoundError`` if the namespace has none of that label."""
        core = self._core
        scope = core.open_scope(**who)
        name = label_value(label)
        block = core.store.blocks.get(scope.namespace, name)
        if block is None:
            raise NotFoundError(
                f"no core block {shown(name)} in namespace {shown(scope.namespace)}; create "
                f"it with {_how(name)}"
            )
        return block

    @scoped
    def history(self, label: str, *, limit: int = 50, **who: Unpack[OwnerArgs]) -> list[BlockEdit]:
        """The block's edits, newest first; kept after the block is deleted."""
        core = self._core
        scope = core.open_scope(**who)
        return core.store.blocks.history(
            scope.namespace, label_value(label), limit=positive_int("limit", limit)
        )

    @scoped
    def render(self, **who: Unpack[OwnerArgs]) -> str:
        """The ``<core_memory>`` block of the namespace's blocks ("" when it has none):
        each block's description, fill (characters used of its limit) and value."""
        core = self._core
        scope = core.open_scope(**who)
        return render_blocks(core, core.store.blocks.blocks(scope.namespace))

    # -- writes ---------------------------------------------------------------------
    @scoped
    def set(
        self,
        label: str,
        value: str,
        *,
        char_limit: int | None = None,
        description: str | None = None,
        read_only: bool | None = None,
        actor: str | None = "user",
        by_agent: bool = False,
        **who: Unpack[OwnerArgs],
    ) -> CoreBlock:
        """Create the block or overwrite its value (also a read-only one: ``set`` is for
        people and programs). ``by_agent`` (an agent's API key) may neither overwrite a
        read-only block nor change the flag. Unnamed settings keep the block's own, or
        the defaults when it is new (``DEFAULT_CHAR_LIMIT``, editable)."""
        core = self._core
        scope = core.open_scope(**who)
        name = label_value(label)
        text = _text("value", value)
        if char_limit is not None:
            positive_int("char_limit", char_limit, upper=MAX_CHAR_LIMIT)
        if description is not None:
            description = _text("description", description)
            self._core.scan_text(description)  # in every context too (issue 26)
        if read_only is not None and not isinstance(read_only, bool):
            raise InvalidInputError(f"read_only must be true or false, got {shown(read_only)}")
        if by_agent and read_only is not None:
            raise PermissionDeniedError(
                "an agent may not mark core blocks read-only or writable; a person can"
            )

        def change(old: CoreBlock | None) -> BlockWrite:
            if by_agent and old is not None:
                self._writable(old)
            limit = char_limit or (old.char_limit if old else DEFAULT_CHAR_LIMIT)
            return BlockWrite(
                label=name,
                value=self._checked(name, text, limit),
                op="create" if old is None else "set",
                char_limit=limit,
                description=description
                if description is not None
                else (old.description if old else ""),
                read_only=read_only if read_only is not None else bool(old and old.read_only),
                actor=actor,
            )

        return self._edit(scope.namespace, name, change, must_exist=False)

    @scoped
    def append(
        self, label: str, content: str, *, actor: str | None = "agent", **who: Unpack[OwnerArgs]
    ) -> CoreBlock:
        """The ``core_memory_append`` tool: add ``content`` on a new line at the end of
        the block; refused past its character limit or on a read-only block."""
        core = self._core
        scope = core.open_scope(**who)
        name = label_value(label)
        text = _text("content", content)
        if not text.strip():
            raise InvalidInputError("content to append must not be empty")

        def change(old: CoreBlock | None) -> BlockWrite:
            assert old is not None  # must_exist
            self._writable(old)
            value = f"{old.value}\n{text}" if old.value else text
            return self._rewrite(old, self._checked(name, value, old.char_limit), "append", actor)

        return self._edit(scope.namespace, name, change, must_exist=True)

    @scoped
    def replace(
        self,
        label: str,
        old_content: str,
        new_content: str,
        *,
        actor: str | None = "agent",
        **who: Unpack[OwnerArgs],
    ) -> CoreBlock:
        """The ``core_memory_replace`` tool: replace every occurrence of ``old_content``
        with ``new_content`` (empty deletes it); refused when ``old_content`` is not in
        the block, past its limit, or on a read-only block."""
        core = self._core
        scope = core.open_scope(**who)
        name = label_value(label)
        old_text = _text("old_content", old_content)
        new_text = _text("new_content", new_content)
        if not old_text:
            raise InvalidInputError("old_content must not be empty: say which text to replace")

        def change(old: CoreBlock | None) -> BlockWrite:
            assert old is not None  # must_exist
            self._writable(old)
            if old_text not in old.value:
                raise InvalidInputError(
                    f"old_content is not in core block {shown(name)}; read the block and pass "
                    "text exactly as it appears there"
                )
            value = old.value.replace(old_text, new_text)
            return self._rewrite(old, self._checked(name, value, old.char_limit), "replace", actor)

        return self._edit(scope.namespace, name, change, must_exist=True)

    @scoped
    def delete(
        self,
        label: str,
        *,
        actor: str | None = "user",
        by_agent: bool = False,
        **who: Unpack[OwnerArgs],
    ) -> CoreBlock:
        """Remove the block (its history stays, ending with a ``delete`` row);
        ``by_agent`` may not remove a read-only one."""
        core = self._core
        scope = core.open_scope(**who)
        name = label_value(label)
        if by_agent:
            self._writable(self.get(name, namespace=scope.namespace))
        removed = core.store.blocks.delete(scope.namespace, name, actor=actor, now=self.clock())
        if removed is None:
            raise NotFoundError(
                f"no core block {shown(name)} in namespace {shown(scope.namespace)}"
            )
        return removed

    # -- helpers --------------------------------------------------------------------
    def _edit(
        self,
        namespace: str,
        label: str,
        change: Callable[[CoreBlock | None], BlockWrite],
        *,
        must_exist: bool,
    ) -> CoreBlock:
        store = self._core.store.blocks
        for _ in range(_RETRIES):
            old = store.get(namespace, label)
            if old is None and must_exist:
                raise NotFoundError(
                    f"no core block {shown(label)} in namespace {shown(namespace)}; an agent "
                    f"edits only blocks that exist, so a person creates it first: {_how(label)}"
                )
            written = store.write(
                namespace,
                change(old),
                expect_version=0 if old is None else old.version,
                now=self.clock(),
            )
            if written is not None:
                return written
        raise StoreError(f"core block {shown(label)} kept changing under this edit; try again")

    def _checked(self, label: str, value: str, limit: int) -> str:
        if len(value) > limit:
            raise InvalidInputError(
                f"core block {shown(label)} would hold {len(value)} characters; its limit is "
                f"{limit}. Shorten or replace existing text (core_memory_replace) first, "
                "or move detail to archival memory (archival_memory_insert)"
            )
        self._core.scan_text(value)  # seed 000's injection scan: raises in block mode
        return value

    @staticmethod
    def _writable(block: CoreBlock) -> None:
        if block.read_only:
            raise PermissionDeniedError(
                f"core block {shown(block.label)} is read-only: an agent may not edit it (a "
                "person can, with blocks.set)"
            )

    @staticmethod
    def _rewrite(old: CoreBlock, value: str, op: str, actor: str | None) -> BlockWrite:
        return BlockWrite(
            label=old.label,
            value=value,
            op=op,
            char_limit=old.char_limit,
            description=old.description,
            read_only=old.read_only,
            actor=actor,
        )

    # Last in the class: a method named ``list`` would shadow the builtin in the
    # annotations of every method after it.
    @scoped
    def list(self, **who: Unpack[OwnerArgs]) -> list[CoreBlock]:
        """The namespace's blocks, by label."""
        core = self._core
        scope = core.open_scope(**who)
        return core.store.blocks.blocks(scope.namespace)


def render_blocks(core: Core, blocks: list[CoreBlock]) -> str:
    """seed 002: "Core memory is always in context": the blocks as one
    ``<core_memory>`` block. A value the injection scan flags (stored in flag mode) is
    wrapped in the untrusted marker; every other value has its angle brackets escaped."""
    if not blocks:
        return ""
    check = InjectionMode(core.config.injection_mode) is not InjectionMode.OFF
    parts = []
    for b in blocks:
        found = enforce(b.value, InjectionMode.FLAG) if check else None
        value = untrusted(b.value, found.reasons) if found and found.flagged else _escaped(b.value)
        about = f"\n<description>{_escaped(b.description)}</description>" if b.description else ""
        mode = " read_only" if b.read_only else ""
        parts.append(
            f'<{b.label} chars="{len(b.value)}/{b.char_limit}"{mode}>{about}\n{value}\n</{b.label}>'
        )
    body = "\n".join(parts)
    return f"<core_memory>\n{body}\n</core_memory>"
