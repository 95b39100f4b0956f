"""``mem.org``: organisational memory (seed 002's "Shared Organizational Memory";
FEATURES S4).

Company-wide knowledge every agent can read — core policies, ADRs, procedures,
conventions, coding standards — kept apart from any one agent's memories. It follows
seed 002's default backend, "Hybrid Prompt + Retrieval": the active core policies head
every recall context (``Memory.recall(...).context`` and ``get_context``, within
``[org] policy_budget_tokens``), and the rest is retrieved on demand by ``query``.

Writes are checked against seed 002's write access (policies: humans only; ADRs and
procedures: humans and senior-and-up agents; see ``engram.org.access``), refused writes
raise ``PermissionDeniedError`` naming the rule, and everything is append-only: a change
is a new version that supersedes the last, a retraction is a new version marked
retracted, and every write and refusal lands in an audit trail no API deletes.

Time comes from ``self.clock`` (UTC ``datetime``), so tests set it by hand.
"""

from __future__ import annotations

import builtins
import logging
from collections.abc import Callable, Sequence
from datetime import datetime

from engram.core import Core, Part
from engram.errors import InvalidInputError, NotFoundError, shown
from engram.ids import resolve_prefix
from engram.org import retrieval
from engram.org.access import (
    WRITE_ACCESS,
    author_value,
    category_value,
    check_write,
    rule,
    seniority_value,
)
from engram.org.policies import policy_block
from engram.records import ApiKey, new_id, utcnow
from engram.safety import InjectionMode, scan
from engram.store.protocols.org import (
    CATEGORIES,
    SENIORITY,
    NewOrgFact,
    OrgAuditEntry,
    OrgFact,
    OrgFactAuthor,
)
from engram.validate import (
    name_value,
    no_nul,
    optional_str,
    positive_int,
    query_text,
    string_list,
    type_name,
)

__all__ = [
    "CATEGORIES",
    "SENIORITY",
    "WRITE_ACCESS",
    "CreateKey",
    "Org",
    "OrgAuditEntry",
    "OrgFact",
    "OrgFactAuthor",
]

log = logging.getLogger("engram.org")

#: How ``Org`` creates an API key: ``mem.keys.create`` (user, name=...), handed in by
#: ``Memory`` so the two parts stay apart.
CreateKey = Callable[..., tuple[ApiKey, str]]

#: Characters of one org fact (seed 002's rules are one line; an ADR is a page or two).
MAX_FACT_CHARS = 20_000
#: Characters of a reason.
MAX_REASON_CHARS = 2_000


#: Where a caller finds the current facts' ids, on each surface (an agent over MCP has no
#: shell, a script over HTTP no CLI: new-user pass, round nine).
LISTED = "`engram org list`, `GET /v1/org/facts` or the MCP tool org_query list them"


def _content(content: object) -> str:
    if not isinstance(content, str):
        raise InvalidInputError(f"an org fact must be a non-empty string, got {type_name(content)}")
    if not content.strip():
        raise InvalidInputError(f"an org fact must be a non-empty string, got {shown(content)}")
    text = no_nul("content", content.strip())
    if len(text) > MAX_FACT_CHARS:
        raise InvalidInputError(
            f"an org fact is at most {MAX_FACT_CHARS} characters, got {len(text)}; split it"
        )
    return text


def _reason(reason: object) -> str | None:
    if reason is None:
        return None
    if not isinstance(reason, str):
        raise InvalidInputError(f"reason must be a string, got {type_name(reason)}")
    text = no_nul("reason", reason.strip())
    if len(text) > MAX_REASON_CHARS:
        raise InvalidInputError(f"reason is at most {MAX_REASON_CHARS} characters")
    return text or None


def _fact_id(fact_id: object) -> str:
    return name_value("fact_id", fact_id)


def human(id: str) -> OrgFactAuthor:
    """A human author."""
    return OrgFactAuthor("human", id)


def agent(id: str, seniority: str) -> OrgFactAuthor:
    """An agent author of ``seniority`` (``SENIORITY``)."""
    return OrgFactAuthor("agent", id, seniority)


class Org(Part):
    """Organisational memory: core policies, the extended store, roles and audit."""

    def __init__(self, core: Core, create_key: CreateKey) -> None:
        super().__init__(core)
        self._create_key = create_key
        self.clock: Callable[[], datetime] = utcnow
        """Where the time comes from: UTC now, or a test's hand-set clock."""
        core.retriever.preamble = self.policy_block  # seed 002: in every context

    # -- writes ---------------------------------------------------------------------
    def write(
        self,
        content: str,
        *,
        category: str,
        author: OrgFactAuthor,
        fact_id: str | None = None,
        tags: Sequence[str] | None = None,
        reason: str | None = None,
    ) -> OrgFact:
        """Write a fact, or (with the ``fact_id`` of an existing one) its next version.

        ``category`` is one of ``CATEGORIES``; ``author`` says who writes, and must
        hold seed 002's role for the category (``PermissionDeniedError`` names the
        rule, and the refusal is audited). A fact keeps its category for life.
        """
        self._core.check_open()
        who = author_value(author)
        kind = category_value(category)
        text = _content(content)
        why = _reason(reason)
        if fact_id is None:
            ident, previous = new_id(), []
        else:
            # A mistyped id would otherwise start a second fact under it, beside the one
            # the caller meant to give a new version (new-user pass, round nine).
            try:
                ident = self.resolve(fact_id)
            except NotFoundError as exc:
                raise NotFoundError(f"{exc}; leave out fact_id to write a new fact") from None
            previous = self._core.store.org.versions(ident)
        # A new version keeps the tags of the one it replaces unless it names its own.
        labels = previous[-1].tags if tags is None and previous else string_list("tags", tags)
        if previous and previous[-1].category != kind:
            raise InvalidInputError(
                f"org fact {shown(ident)} is a {previous[-1].category}; a fact keeps its "
                "category: retract it and write a new one"
            )
        self._check(who, kind, ident if previous else None, why, "write")
        # Issue 26: a policy heads every user's context, so an org fact passes the same
        # injection scan as a memory (raises InjectionBlocked in block mode).
        self._core.scan_text(text)
        fact = self._core.store.org.append(
            NewOrgFact(ident, kind, text, labels, why), who, now=self.clock()
        )
        self._embed(fact)
        return fact

    def retract(self, fact_id: str, *, author: OrgFactAuthor, reason: str | None = None) -> OrgFact:
        """Retract a fact: a new version marked retracted, which leaves policies and
        queries; its history keeps every version. Needs the role that writes it."""
        self._core.check_open()
        who = author_value(author)
        why = _reason(reason)
        last = self.get(fact_id)
        if last.retracted:
            raise InvalidInputError(f"org fact {shown(last.fact_id)} is already retracted")
        self._check(who, last.category, last.fact_id, why, "retract")
        return self._core.store.org.append(
            NewOrgFact(last.fact_id, last.category, last.content, last.tags, why, True),
            who,
            now=self.clock(),
        )

    def _check(
        self, who: OrgFactAuthor, category: str, fact_id: str | None, why: str | None, verb: str
    ) -> None:
        try:
            check_write(who, category, verb)
        except Exception:
            self._core.store.org.record_denied(
                who,
                category=category,
                fact_id=fact_id,
                reason=why,
                rule=rule(category),
                now=self.clock(),
            )
            raise

    def _embed(self, fact: OrgFact) -> None:
        embedder = self._core.embedder
        if embedder is None:
            return
        try:  # raw-first: the fact is stored; a missing vector is made at the next query
            row = embedder.embed_batch([fact.content])[0]
            self._core.store.org.set_vector(fact.seq, embedder.name, [float(x) for x in row])
        except Exception as exc:
            log.warning("embedding org fact %s failed: %s", fact.fact_id, exc)

    # -- reads ----------------------------------------------------------------------
    def list_policies(self) -> builtins.list[OrgFact]:
        """seed 002's ``list_policies``: the active core policies, oldest first."""
        self._core.check_open()
        return self._core.store.org.current(categories=["policy"])

    def facts(
        self, *, categories: Sequence[str] | None = None, include_retracted: bool = False
    ) -> builtins.list[OrgFact]:
        """The current version of every fact (of these categories), oldest first."""
        self._core.check_open()
        kinds = None
        if categories is not None:
            kinds = [category_value(c) for c in string_list("categories", categories)]
        return self._core.store.org.current(categories=kinds, include_retracted=include_retracted)

    def query(
        self,
        text: str,
        *,
        categories: Sequence[str] | None = None,
        tags: Sequence[str] | None = None,
        limit: int | None = None,
    ) -> builtins.list[OrgFact]:
        """seed 002's ``query``: the active facts most related to ``text``, best first
        (keyword and vector search fused by RRF). ``tags`` keeps only facts carrying all
        of them, matched exactly (FEATURES S6); ``limit`` defaults to
        ``[org] max_retrieved_per_query`` (seed 002: 5)."""
        core = self._core
        core.check_open()
        words = query_text(text, "text")  # the argument's name on every surface
        k = positive_int(
            "limit", limit if limit is not None else core.config.org.max_retrieved_per_query
        )
        wanted = set(string_list("tags", tags))
        facts = self.facts(categories=categories)
        facts = [f for f in facts if wanted <= set(f.tags)]
        keyword = retrieval.bm25(words, facts)
        semantic: dict[int, float] = {}
        if core.embedder is not None and facts:
            try:
                vector = core.retriever.query_vectors.embed(core.embedder, words)
            except Exception as exc:  # keyword-only, as recall degrades
                log.warning("embedding the org query failed: %s", exc)
            else:
                stored = retrieval.vectors_for(core.store.org, core.embedder, facts)
                semantic = retrieval.dense([float(x) for x in vector], stored)
        by_seq = {f.seq: f for f in facts}
        return [by_seq[seq] for seq, _ in retrieval.rank(keyword, semantic, k)]

    def resolve(self, fact_id: str) -> str:
        """The full id of the fact ``fact_id`` names: the id itself or a unique prefix of
        at least 8 characters, as memory ids (``engram.ids.resolve_prefix``)."""
        self._core.check_open()
        org = self._core.store.org

        def starting(prefix: str, limit: int) -> list[str]:
            # Org facts are a company's policies and ADRs: hundreds, not millions.
            every = org.current(include_retracted=True)
            return [f.fact_id for f in every if f.fact_id.startswith(prefix)][:limit]

        return resolve_prefix(
            _fact_id(fact_id),
            exact=lambda key: bool(org.versions(key)),
            starting=starting,
            what="org fact",
            where="",
            listed=LISTED,
        )

    def get(self, fact_id: str) -> OrgFact:
        """The latest version of a fact (retracted or not); ``NotFoundError`` if none."""
        return self.history(fact_id)[-1]

    def history(self, fact_id: str) -> builtins.list[OrgFact]:
        """Every version of a fact, oldest first; ``NotFoundError`` if there is none."""
        return self._core.store.org.versions(self.resolve(fact_id))

    def audit(
        self, *, fact_id: str | None = None, actor: str | None = None, limit: int = 100
    ) -> builtins.list[OrgAuditEntry]:
        """The audit trail, newest first: every write, new version, retraction and
        refused write, with who, their role, when and why."""
        self._core.check_open()
        return self._core.store.org.audit(
            fact_id=None if fact_id is None else self.resolve(fact_id),
            actor_id=None if actor is None else _fact_id(actor),
            limit=positive_int("limit", limit),
        )

    def policy_block(self) -> str:
        """The core-policies block that heads every context ("" without policies, or
        with ``[org] inject_policies`` off)."""
        settings = self._core.config.org
        if not settings.inject_policies or self._core.closed:
            return ""
        core = self._core
        check = None
        if InjectionMode(core.config.injection_mode) is not InjectionMode.OFF:
            check = scan
        return policy_block(self.list_policies(), settings.policy_budget_tokens, check)

    # -- roles ----------------------------------------------------------------------
    def create_agent_key(
        self, agent: str, *, seniority: str, name: str | None = None
    ) -> tuple[ApiKey, str]:
        """An API key for an agent of ``seniority``: its calls write org facts as that
        agent (a key without a role, admin or user, is a human's). Returns the key and
        its plaintext, shown once."""
        self._core.check_open()
        level = seniority_value(seniority)
        with self._core.store.transaction():  # the key never exists without its role
            key, plaintext = self._create_key(agent, name=name or f"agent ({level})")
            self._core.store.org.set_key_role(key.id, level)
        return key, plaintext

    def author_for_key(
        self, key_id: str | None, user: str | None, admin: bool = True
    ) -> OrgFactAuthor:
        """Who writes through an API key: the agent of an agent key; else the human who
        owns an admin key (``local`` for a server without keys); else a ``member``, who
        reads organisation memory but may not write it."""
        self._core.check_open()
        key_id = optional_str("key_id", key_id)
        level = None if key_id is None else self._core.store.org.key_role(key_id)
        ident = optional_str("user", user) or "local"
        if level is not None:
            return agent(ident, level)
        return OrgFactAuthor("human" if admin or key_id is None else "member", ident)
