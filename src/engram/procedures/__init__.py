"""``mem.procedures``: procedural memory from failures (seed 002; FEATURES S7).

``propose(failure)`` hands a failed task's payload (task, error, the steps it tried, a
trace, retry and turn counts; secrets redacted first) to a separate proposer — the LLM
of ``[llm]`` (or ``[procedural] model``) with its own prompt, or the offline template
— which returns a procedure in three tiers: discovery, activation (condition, action,
rationale) and execution (steps). A proposal under ``[procedural] min_confidence``
(seed default 0.5) is discarded; one at or over it is stored as a ``procedural``
memory tagged ``non-inferable`` and ``procedure`` (so recall and the non-inferable
filter find it), and written as ``<name>/SKILL.md`` when a directory is configured or
given. ``write_skill`` writes the file of a stored procedure later.

Time comes from ``self.clock`` (UTC ``datetime``), so tests move it by hand.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any, Unpack

from engram import write
from engram.core import Core, Part
from engram.errors import CapabilityError, InvalidInputError, NotFoundError, shown
from engram.filters import list_query
from engram.llm import LlmProvider, create_provider
from engram.procedures import proposer
from engram.procedures.proposer import Failure, Procedure
from engram.procedures.skill import skill_markdown, write_skill
from engram.records import MemoryRecord, utcnow
from engram.scoping import OwnerArgs, scoped
from engram.validate import memory_id_value, positive_int

__all__ = ["PROCEDURE_TAGS", "Failure", "Procedure", "Procedures", "skill_markdown"]

#: seed 002: stored "with 'non-inferable' tag for retrieval filtering"; ``procedure``
#: tells proposed procedures from other procedural memories.
PROCEDURE_TAGS = ("non-inferable", "procedure")

#: Secret redaction of the payload, handed in by ``Memory`` (the sessions' scrubber).
Scrub = Callable[[str], str]


def _content(p: Procedure) -> str:
    """The stored memory's text: all three tiers, so recall matches on any of them."""
    steps = "\n".join(f"{n}. {s}" for n, s in enumerate(p.steps, 1))
    return (
        f"{p.discovery}\nWhen: {p.condition}\nDo: {p.action}\nWhy: {p.rationale}\nSteps:\n{steps}"
    )


def _from_record(record: MemoryRecord) -> Procedure:
    data = record.metadata.get("procedure")
    if not isinstance(data, Mapping) or "procedure" not in record.tags:
        raise NotFoundError(f"memory {shown(record.id)} is not a proposed procedure")
    activation = data.get("activation") or {}
    return Procedure(
        name=str(data.get("name") or "procedure"),
        discovery=str(data.get("discovery") or ""),
        condition=str(activation.get("condition") or ""),
        action=str(activation.get("action") or ""),
        rationale=str(activation.get("rationale") or ""),
        steps=tuple(str(s) for s in data.get("execution") or ()),
        confidence=float(data.get("confidence") or 0.0),
        method=str(data.get("method") or ""),
        memory_id=record.id,
        skill_path=data.get("skill_path") if isinstance(data.get("skill_path"), str) else None,
    )


class Procedures(Part):
    """Procedures proposed from failures, stored as procedural memories."""

    def __init__(self, core: Core, scrub: Scrub) -> None:
        super().__init__(core)
        self._scrub = scrub
        self._llm: LlmProvider | None = None
        self._llm_made = False
        self.clock: Callable[[], datetime] = utcnow
        """Where the time comes from: UTC now, or a test's hand-moved clock."""

    @scoped
    def propose(
        self,
        failure: Failure | Mapping[str, Any],
        *,
        store: bool = True,
        skill_dir: str | os.PathLike[str] | None = None,
        **who: Unpack[OwnerArgs],
    ) -> Procedure:
        """Propose a procedure from ``failure``. Stored (``memory_id`` set) when
        ``store`` and its confidence reaches ``min_confidence``; then written as
        SKILL.md under ``skill_dir`` or ``[procedural] skill_md_directory`` if either is
        set (``skill_path``). A discarded proposal is returned with neither."""
        core = self._core
        core.check_open()
        settings = core.config.procedural
        if not settings.enabled:
            raise CapabilityError(
                "procedural memory is off ([procedural] enabled = false); turn it on to "
                "propose procedures"
            )
        scope = core.scope(**who)
        payload = proposer.failure_value(failure, self._scrub)
        procedure = proposer.propose(self._provider(), payload)
        if not store or procedure.confidence < settings.min_confidence:
            return procedure
        item = {
            "content": _content(procedure),
            "title": procedure.discovery[:80],
            "type": "procedural",
            "category": "procedural",
            "tags": list(PROCEDURE_TAGS),
            "confidence": procedure.confidence,
            "user_id": scope.user_id,
            "agent_id": scope.agent_id,
            "created_at": self.clock(),
            "metadata": {
                "procedure": procedure.to_dict(),
                "failure": {"task": payload.task, "error": payload.error},
            },
        }
        batch = write.add_batch(core, [item], namespace=scope.namespace, on_blocked="raise")
        procedure = replace(procedure, memory_id=batch[0].id)
        directory = skill_dir if skill_dir is not None else settings.skill_md_directory
        if directory:
            path = write_skill(procedure, directory)
            procedure = replace(procedure, skill_path=str(path))
        return procedure

    @scoped
    def get(self, memory_id: str, **who: Unpack[OwnerArgs]) -> Procedure:
        """A stored procedure by its memory id."""
        core = self._core
        scope = core.open_scope(**who)
        return _from_record(core.get(scope, memory_id_value(memory_id)))

    @scoped
    def write_skill(
        self,
        procedure: Procedure | str,
        directory: str | os.PathLike[str],
        **who: Unpack[OwnerArgs],
    ) -> Path:
        """Write ``<directory>/<name>/SKILL.md`` for a procedure (or the memory id of a
        stored one) and return the path."""
        self._core.check_open()
        if isinstance(procedure, str):
            procedure = self.get(procedure, **who)
        if not isinstance(procedure, Procedure):
            raise InvalidInputError("procedure must be a Procedure or a stored one's memory id")
        if not isinstance(directory, str | os.PathLike) or not os.fspath(directory):
            raise InvalidInputError("directory must be a path to write SKILL.md files under")
        return write_skill(procedure, directory)

    def _provider(self) -> LlmProvider | None:
        if not self._llm_made:
            model = self._core.config.procedural.model
            llm = self._core.config.llm
            self._llm = create_provider(replace(llm, model=model)) if model else self._core.llm()
            self._llm_made = True
        return self._llm

    # Last in the class: a method named ``list`` would shadow the builtin in the
    # annotations of every method after it.
    @scoped
    def list(self, *, limit: int = 50, **who: Unpack[OwnerArgs]) -> list[Procedure]:
        """The namespace's stored procedures, newest first."""
        core = self._core
        scope = core.open_scope(**who)
        query = list_query(scope, {"tags": ["procedure"]}, positive_int("limit", limit), 0, False)
        records = core.store.memories.select(scope.namespace, query)
        return [
            _from_record(r) for r in records if isinstance(r.metadata.get("procedure"), Mapping)
        ]
