"""Organisational memory over HTTP (seed 002; FEATURES S4).

Org facts belong to the organisation, not a namespace: every key reads the same core
policies and extended store. Writes act as the key's holder — an agent key (``engram
keys create --agent NAME --seniority LEVEL``) writes as that agent, any other key as
the human who owns it — and ``mem.org`` checks seed 002's write access, so a refused
write is 403 naming the rule (and is audited). Reading the audit trail and creating
agent keys need an admin key.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Path, Query
from pydantic import BaseModel, Field

from engram.api.auth import Caller, ServerState, State
from engram.api.models import STRICT
from engram.api.routes import _ERRORS
from engram.keys import Principal
from engram.org import OrgFactAuthor

#: Org fact ids, unlike memory ids, take a unique prefix on every surface (docs/http.md#ids).
FACT_ID = "The fact's id, or a unique prefix of it (8 or more characters)."
FactId = Annotated[str, Path(min_length=1, max_length=200, description=FACT_ID)]
Category = Literal["policy", "adr", "procedure", "convention", "coding_standard"]
Seniority = Literal["junior", "mid", "senior", "lead", "c_suite"]
Tags = Annotated[list[Annotated[str, Field(min_length=1, max_length=200)]], Field(max_length=50)]

router = APIRouter(responses=_ERRORS, tags=["org"])


class AuthorOut(BaseModel):
    """Who wrote it: a human, or an agent of some seniority."""

    kind: Literal["human", "agent"]
    id: str
    seniority: str | None
    role: str = Field(description="human, or the agent's seniority.")


class FactOut(BaseModel):
    """One version of an org fact."""

    fact_id: str
    version: int
    category: str
    content: str
    tags: list[str]
    author: AuthorOut
    reason: str | None
    retracted: bool
    supersedes: int | None
    created_at: str


class FactList(BaseModel):
    """Org facts (or a fact's versions), oldest first."""

    items: list[FactOut]


class AuditOut(BaseModel):
    """One audit row: who, in what role, when, did what, and why."""

    id: int
    at: str
    action: Literal["write", "supersede", "retract", "denied"]
    actor: AuthorOut
    category: str
    fact_id: str | None
    version: int | None
    reason: str | None
    detail: str | None = Field(description="For a refusal, the rule that refused it.")


class AuditList(BaseModel):
    """Audit rows, newest first."""

    items: list[AuditOut]


class WriteIn(BaseModel):
    """A fact to write, or the next version of ``fact_id``."""

    model_config = STRICT

    content: str = Field(min_length=1, max_length=20_000)
    category: Category
    fact_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description=f"To write the next version of a fact. {FACT_ID}",
    )
    tags: Tags | None = None
    reason: str | None = Field(default=None, max_length=2_000, description="Why (audited).")


class OrgRetractIn(BaseModel):
    """Why the fact is retracted."""

    model_config = STRICT

    reason: str | None = Field(default=None, max_length=2_000)


class QueryIn(BaseModel):
    """What to look up in the extended store."""

    model_config = STRICT

    text: str = Field(min_length=1, max_length=10_000)
    categories: list[Category] | None = None
    tags: Tags | None = Field(default=None, description="Only facts with all these tags.")
    limit: int | None = Field(default=None, ge=1, le=100)


class FactsQuery(BaseModel):
    """Which facts to list."""

    model_config = STRICT

    category: list[Category] | None = None
    include_retracted: bool = False


class AuditQuery(BaseModel):
    """Which audit rows to read."""

    model_config = STRICT

    fact_id: str | None = Field(
        default=None, min_length=1, max_length=200, description=f"One fact's rows. {FACT_ID}"
    )
    actor: str | None = Field(default=None, min_length=1, max_length=200)
    limit: int = Field(default=100, ge=1, le=10_000)


class AgentKeyIn(BaseModel):
    """An API key for an agent of a seniority."""

    model_config = STRICT

    agent: str = Field(pattern=r"^[A-Za-z0-9_.@+-]{1,100}$")
    seniority: Seniority
    name: str | None = Field(default=None, max_length=200)


class AgentKeyOut(BaseModel):
    """The new key: its plaintext is shown this once."""

    id: str
    agent: str
    seniority: str
    key: str


def _who(caller: Principal, state: ServerState) -> OrgFactAuthor:
    return state.memory.org.author_for_key(caller.key_id, caller.user, caller.admin)


@router.get("/v1/org/policies", response_model=FactList, summary="Core policies")
def policies(caller: Caller, state: State) -> dict[str, Any]:
    """The active core policies, oldest first: what heads every recall context."""
    return {"items": [f.to_dict() for f in state.memory.org.list_policies()]}


@router.get("/v1/org/facts", response_model=FactList, summary="Org facts")
def facts(query: Annotated[FactsQuery, Query()], caller: Caller, state: State) -> dict[str, Any]:
    """The current version of every fact, oldest first."""
    found = state.memory.org.facts(
        categories=query.category, include_retracted=query.include_retracted
    )
    return {"items": [f.to_dict() for f in found]}


@router.post("/v1/org/facts", response_model=FactOut, status_code=201, summary="Write")
def write(body: WriteIn, caller: Caller, state: State) -> dict[str, Any]:
    """Write a fact (or the next version of ``fact_id``) as the key's holder; 403
    names seed 002's rule when the role may not write the category."""
    fact = state.memory.org.write(
        body.content,
        category=body.category,
        author=_who(caller, state),
        fact_id=body.fact_id,
        tags=body.tags,
        reason=body.reason,
    )
    return fact.to_dict()


@router.get("/v1/org/facts/{fact_id}", response_model=FactList, summary="History")
def history(fact_id: FactId, caller: Caller, state: State) -> dict[str, Any]:
    """Every version of a fact, oldest first."""
    return {"items": [f.to_dict() for f in state.memory.org.history(fact_id)]}


@router.post("/v1/org/facts/{fact_id}/retract", response_model=FactOut, summary="Retract")
def retract(
    fact_id: FactId,
    caller: Caller,
    state: State,
    body: Annotated[OrgRetractIn | None, Body()] = None,
) -> dict[str, Any]:
    """Retract a fact (a new, retracted version); needs the role that writes it."""
    reason = None if body is None else body.reason
    return state.memory.org.retract(fact_id, author=_who(caller, state), reason=reason).to_dict()


@router.post("/v1/org/query", response_model=FactList, summary="Query")
def query(body: QueryIn, caller: Caller, state: State) -> dict[str, Any]:
    """The extended store on demand: the facts most related to ``text``, best first."""
    found = state.memory.org.query(
        body.text, categories=body.categories, tags=body.tags, limit=body.limit
    )
    return {"items": [f.to_dict() for f in found]}


@router.get("/v1/org/audit", response_model=AuditList, summary="Audit trail")
def audit(query: Annotated[AuditQuery, Query()], caller: Caller, state: State) -> dict[str, Any]:
    """Every write, new version, retraction and refused write, newest first (admin
    keys only)."""
    caller.require_admin("reading the org audit")
    rows = state.memory.org.audit(fact_id=query.fact_id, actor=query.actor, limit=query.limit)
    return {"items": [e.to_dict() for e in rows]}


@router.post("/v1/org/agent-keys", response_model=AgentKeyOut, status_code=201, summary="Agent key")
def agent_key(body: AgentKeyIn, caller: Caller, state: State) -> dict[str, Any]:
    """Create an API key for an agent of a seniority (admin keys only); the plaintext
    is in this response only."""
    caller.require_admin("creating an agent key")
    key, plaintext = state.memory.org.create_agent_key(
        body.agent, seniority=body.seniority, name=body.name
    )
    return {"id": key.id, "agent": key.user, "seniority": body.seniority, "key": plaintext}
