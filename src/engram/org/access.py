"""Who may write what in organisational memory (seed 002's ``write_access``).

seed 002::

    write_access:
      policies: ["human"]                                # only humans write core policies
      adrs: ["human", "senior", "lead", "c_suite"]
      procedures: ["human", "senior", "lead", "c_suite"]

"Core policies are human-only. ADRs and procedures can be written by senior+ agents."
The seed names no rule for conventions and coding standards; engram gives them the ADR
rule, so every write below a core policy needs a human or a senior-and-up agent.
Retracting a fact needs the same role as writing it.
"""

from __future__ import annotations

import re

from engram.errors import InvalidInputError, PermissionDeniedError, shown
from engram.store.protocols.org import AUTHOR_KINDS, CATEGORIES, SENIORITY, OrgFactAuthor
from engram.validate import choice, type_name

_SENIOR_AND_UP = ("human", "senior", "lead", "c_suite")

#: category -> the roles that may write it (seed 002's ``write_access``).
WRITE_ACCESS: dict[str, tuple[str, ...]] = {
    "policy": ("human",),  # seed 002: policies: ["human"]
    "adr": _SENIOR_AND_UP,  # seed 002: adrs
    "procedure": _SENIOR_AND_UP,  # seed 002: procedures
    "convention": _SENIOR_AND_UP,  # engram: the seed names no rule; the ADR one
    "coding_standard": _SENIOR_AND_UP,
}

_ID = re.compile(r"^[A-Za-z0-9_.@+:/-]{1,200}$")


def category_value(category: object) -> str:
    """One of ``CATEGORIES``."""
    return choice("category", category, CATEGORIES)


def seniority_value(seniority: object) -> str:
    """One of ``SENIORITY``."""
    return choice("seniority", seniority, SENIORITY)


def author_value(author: object) -> OrgFactAuthor:
    """A checked author: a human (no seniority) or an agent with a seniority."""
    if not isinstance(author, OrgFactAuthor):
        raise InvalidInputError(
            f"author must be an OrgFactAuthor (kind human or agent, id, seniority), got "
            f"{type_name(author)}"
        )
    if author.kind not in AUTHOR_KINDS:
        raise InvalidInputError(f"author kind must be human or agent, got {shown(author.kind)}")
    if not isinstance(author.id, str) or not _ID.match(author.id):
        raise InvalidInputError(
            f"author id must be 1-200 letters, digits or _ . @ + : / -, got {shown(author.id)}"
        )
    if author.kind in ("human", "member"):
        if author.seniority is not None:
            raise InvalidInputError(f"a {author.kind} author has no seniority; leave it out")
        return author
    return OrgFactAuthor("agent", author.id, seniority_value(author.seniority))


def check_write(author: OrgFactAuthor, category: str, verb: str = "write") -> None:
    """``PermissionDeniedError`` naming seed 002's rule unless ``author`` may ``verb``
    facts of ``category``."""
    allowed = WRITE_ACCESS[category]
    if author.role in allowed:
        return
    if author.kind == "member":
        raise PermissionDeniedError(
            f"{rule(category)}: a user key reads organisation memory but may not {verb} it "
            f"(its facts reach every namespace); use an admin key, or an agent key made by "
            f"`engram keys create --agent NAME --seniority LEVEL`"
        )
    who = "humans" if allowed == ("human",) else "humans and senior, lead or c_suite agents"
    raise PermissionDeniedError(
        f"{rule(category)}: only {who} may {verb} {category} facts; "
        f"{author.kind} {shown(author.id)} ({author.role}) may not"
    )


def rule(category: str) -> str:
    """The write-access rule of ``category``, as the audit records it."""
    return f"write_access.{category}: {', '.join(WRITE_ACCESS[category])}"
