"""The organisation part of a store: org facts as an append-only ledger, their audit
trail, and the roles of agent API keys (seed 002's "Shared Organizational Memory";
FEATURES S4).

Nothing here ever changes or deletes a stored fact or audit row: a change is a new
version row that supersedes the one before, a retraction is a new row with the
retraction marker, and both backends refuse ``UPDATE`` and ``DELETE`` on the two tables
with a trigger. Org facts are the organisation's, not a namespace's: every caller of the
store reads the same ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

from engram.store.protocols.record import Record

#: seed 002: "policies, conventions, architecture decision records (ADRs), coding
#: standards, and operational procedures".
CATEGORIES = ("policy", "adr", "procedure", "convention", "coding_standard")

#: Agent seniority, lowest first. seed 002's write access names ``senior``, ``lead`` and
#: ``c_suite``; ``junior`` and ``mid`` are engram's names for the levels below.
SENIORITY = ("junior", "mid", "senior", "lead", "c_suite")

#: Who wrote a fact: a person, or an agent with a seniority.
#: ``member``: a person whose user key reaches only their own namespaces; on a shared
#: server they read organisation memory but may not write it (org facts reach every
#: namespace's context, so writing them is an admin's or an agent key's act).
AUTHOR_KINDS = ("human", "agent", "member")

#: What an audit row records: a first version, a later one, a retraction, or a refusal.
AUDIT_ACTIONS = ("write", "supersede", "retract", "denied")


@dataclass(frozen=True, slots=True)
class OrgFactAuthor(Record):
    """seed 002's ``OrgFactAuthor``: a human, or an agent of some seniority."""

    kind: str
    id: str
    seniority: str | None = None
    """An agent's level (``SENIORITY``); None for a human."""

    @property
    def role(self) -> str:
        """``human``, or the agent's seniority: the names of seed 002's write access."""
        if self.kind in ("human", "member"):
            return self.kind
        return self.seniority or "junior"

    _extra = ("role",)


@dataclass(frozen=True, slots=True)
class OrgFact(Record):
    """seed 002's ``OrgFact``: one version of a fact of the organisation."""

    fact_id: str
    version: int
    seq: int
    """The ledger row's id, increasing with every write of any fact."""
    category: str
    content: str
    tags: tuple[str, ...]
    author: OrgFactAuthor
    reason: str | None
    """Why it was written, changed or retracted (the audit's "why")."""
    created_at: datetime
    retracted: bool = False
    supersedes: int | None = None
    """The ``seq`` of the version this one replaced; None for a first version."""

    _hidden = ("seq",)


@dataclass(frozen=True, slots=True)
class NewOrgFact:
    """seed 002's ``OrgFactWriteRequest``, checked: what the ledger appends."""

    fact_id: str
    category: str
    content: str
    tags: tuple[str, ...] = ()
    reason: str | None = None
    retracted: bool = False


@dataclass(frozen=True, slots=True)
class OrgAuditEntry(Record):
    """One row of the audit trail: who, in what role, when, did what, and why."""

    id: int
    at: datetime
    action: str
    actor: OrgFactAuthor
    category: str
    fact_id: str | None
    version: int | None
    reason: str | None
    detail: str | None = None
    """For a refusal, the rule that refused it."""


@runtime_checkable
class OrgStore(Protocol):
    """The org ledger, its audit trail, vectors for retrieval and agent-key roles."""

    def append(self, fact: NewOrgFact, author: OrgFactAuthor, *, now: datetime) -> OrgFact:
        """Append the next version of ``fact.fact_id`` (version 1 for a new id) and its
        audit row, in one transaction."""
        ...

    def current(
        self, *, categories: Sequence[str] | None = None, include_retracted: bool = False
    ) -> list[OrgFact]:
        """The latest version of every fact (retracted ones only if asked), oldest
        fact first."""
        ...

    def versions(self, fact_id: str) -> list[OrgFact]:
        """Every version of a fact, oldest first; [] if there is no such fact."""
        ...

    def record_denied(
        self,
        author: OrgFactAuthor,
        *,
        category: str,
        fact_id: str | None,
        reason: str | None,
        rule: str,
        now: datetime,
    ) -> OrgAuditEntry:
        """Add a refused write to the audit trail."""
        ...

    def audit(
        self, *, fact_id: str | None = None, actor_id: str | None = None, limit: int = 100
    ) -> list[OrgAuditEntry]:
        """Audit rows, newest first, optionally of one fact or one actor."""
        ...

    def set_vector(self, seq: int, model: str, vector: Sequence[float]) -> None:
        """Store (or replace) the embedding of one ledger row for retrieval."""
        ...

    def vectors(self, seqs: Sequence[int], model: str) -> dict[int, list[float]]:
        """The stored embeddings of these rows made by ``model``."""
        ...

    def set_key_role(self, key_id: str, seniority: str) -> None:
        """Mark an API key as an agent's, of this seniority (a key without a role is a
        human's)."""
        ...

    def key_role(self, key_id: str) -> str | None:
        """The seniority of an agent key, or None for a human's key."""
        ...
