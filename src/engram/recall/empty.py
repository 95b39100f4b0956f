"""Why a recall came back empty (issue 24): an empty answer always says why.

When no memory reaches the context, the pipeline explains it with an ``EmptyAnswer``: a
reason code for programs (``EmptyReason``), the numbers behind it (the tokens the best
hit needs, the best score, the namespaces with a near name...) and a message. The
message names the settings that would change the answer, and each surface words it
with its own names for them (``Wording``): the library's keyword arguments
(``budget_tokens=57``), the CLI's flags (``--budget 57``), the HTTP API's JSON fields
(``"budget_tokens": 57``).

The explanation costs nothing on a recall that found something: it is built only for
an empty one, and only the empty-namespace case reads the store again (a count, and the
namespace names when that count is 0).
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher
from enum import StrEnum
from typing import Any, Literal

from engram.config import RecallConfig
from engram.recall import format as fmt
from engram.recall.request import RecallRequest
from engram.records import Hit, RecallMode
from engram.scoping import SCOPE_IDS
from engram.store.protocols import MemoryStore

#: A namespace whose name (or id after ``user:``/``agent:``/``run:``) is at least this
#: similar to the one asked for is suggested ("did you mean").
NEAR = 0.6
#: At most this many suggestions.
SUGGESTIONS = 3
_OWNER = re.compile(r"^(user|agent|run):([^/]+)$")
#: The abstain decision's own advice names the library's settings; each surface gives
#: its own instead, so a trailing "; pass ... anyway" clause is dropped from its reason.
_ADVICE = re.compile(r";\s*pass\b[^;]*$")


class EmptyReason(StrEnum):
    """Why no memory reached the context."""

    EMPTY_NAMESPACE = "empty_namespace"
    """The namespace holds no memories (a new or mistyped namespace or user)."""
    NO_MATCH = "no_match"
    """The namespace holds memories, but the query matched none of them."""
    FILTERED = "filtered"
    """The filters (type, tags, metadata, a narrower user/agent/run id, a palace wing or
    room) excluded every memory the query found."""
    MIN_RELEVANCE = "min_relevance"
    """Every hit scored below the relevance floor (``min_relevance``)."""
    ABSTAINED = "abstained"
    """The abstain decision judged that nothing stored is related (``abstain_reason``)."""
    BUDGET = "budget"
    """The token budget cannot hold even the best hit."""
    FLAGGED = "flagged"
    """Every hit was flagged by the injection scan and left out of the context."""


@dataclass(frozen=True, slots=True)
class Wording:
    """How one surface writes recall's settings in a message.

    ``names`` maps a library keyword (``budget_tokens``) to the surface's own name
    (``--budget``); a keyword left out keeps its library name, and None means the
    surface has no such setting (the message then gives no advice about it). ``style``
    writes a setting with a value: ``python`` (``budget_tokens=57``), ``flag`` (``--budget
    57``; a boolean is the flag alone) or ``json`` (``"budget_tokens": 57``).
    ``filter_key`` names one key of ``filters`` (``{}`` is the key).
    """

    names: Mapping[str, str | None] = field(default_factory=dict)
    style: Literal["python", "flag", "json"] = "python"
    filter_key: str = "filters[{!r}]"

    def name(self, key: str) -> str | None:
        """This surface's name for the library keyword ``key`` (None: it has none)."""
        return self.names.get(key, key)

    def setting(self, key: str, value: object) -> str | None:
        """``key`` set to ``value``, as this surface writes it (None: no such setting)."""
        name = self.name(key)
        if name is None:
            return None
        if self.style == "flag":
            return name if isinstance(value, bool) else f"{name} {shlex.quote(str(value))}"
        if self.style == "json":
            return f'"{name}": {json.dumps(value)}'
        return f"{name}={value!r}"

    def filter(self, token: str) -> str:
        """A filter the recall applied (``filters.<key>``, a scope id, ``wing``...)."""
        if token.startswith("filters."):
            return self.filter_key.format(token.removeprefix("filters."))
        return self.name(token) or token

    def namespace(self, namespace: str) -> str | None:
        """How to ask for ``namespace`` here: by its owner's id when it is ``user:<id>``
        (``--user alice``), else by name; None when the surface cannot choose one."""
        owner = _OWNER.match(namespace)
        if owner is not None:
            chosen = self.setting(f"{owner.group(1)}_id", owner.group(2))
            if chosen is not None:
                return chosen
        return self.setting("namespace", namespace)


#: The library's own names (``Memory.recall``'s keyword arguments; the Python client's).
LIBRARY = Wording()


@dataclass(frozen=True, slots=True)
class EmptyAnswer:
    """Why a recall's context holds no memory, with the numbers behind it."""

    reason: EmptyReason
    namespace: str
    candidates: int = 0
    """How many memories the stage that emptied the answer started from."""
    similar_namespaces: tuple[str, ...] = ()
    """For ``empty_namespace``: namespaces holding memories whose name is near."""
    filters: tuple[str, ...] = ()
    """For ``filtered``: the filters applied (``filters.<key>``, ``user_id``, ``wing``...)."""
    best_score: float | None = None
    """For ``min_relevance``: the best hit's score."""
    min_relevance: float | None = None
    """For ``min_relevance``: the floor it fell below."""
    budget_tokens: int | None = None
    """For ``budget``: the budget asked for."""
    needed_tokens: int | None = None
    """For ``budget``: the tokens the best hit needs."""
    detail: str | None = None
    """For ``abstained``: the decision's reason; for ``no_match``: how recall searched."""

    def message(self, wording: Wording = LIBRARY) -> str:
        """One line saying why, naming the settings as ``wording`` writes them."""
        return _MESSAGES[self.reason](self, wording)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the numbers (the reason code as a string)."""
        out = {name: getattr(self, name) for name in self.__dataclass_fields__}
        out["reason"] = self.reason.value
        out["similar_namespaces"] = list(self.similar_namespaces)
        out["filters"] = list(self.filters)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EmptyAnswer:
        """The answer :meth:`to_dict` wrote."""
        fields = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        fields["reason"] = EmptyReason(fields["reason"])
        fields["similar_namespaces"] = tuple(fields.get("similar_namespaces") or ())
        fields["filters"] = tuple(fields.get("filters") or ())
        return cls(**fields)

    def reachable(self, allowed: Any) -> EmptyAnswer:
        """This answer suggesting only namespaces ``allowed(name)`` lets the caller see
        (an HTTP key never learns the names of other users' namespaces)."""
        kept = tuple(n for n in self.similar_namespaces if allowed(n))
        return replace(self, similar_namespaces=kept)


def _all(n: int, one: str, many: str) -> str:
    """``the only memory`` or ``all 3 memories``."""
    return f"the only {one}" if n == 1 else f"all {n} {many}"


def _either(options: Sequence[str]) -> str:
    return options[0] if len(options) == 1 else f"{', '.join(options[:-1])} or {options[-1]}"


def _empty_namespace(a: EmptyAnswer, w: Wording) -> str:
    text = f"namespace {a.namespace!r} holds no memories"
    hints = [h for h in (w.namespace(n) for n in a.similar_namespaces) if h is not None]
    return f"{text}; did you mean {_either(hints)}?" if hints else text


def _no_match(a: EmptyAnswer, w: Wording) -> str:
    text = f"no memory of namespace {a.namespace!r} matched the query"
    return f"{text} ({a.detail})" if a.detail else text


def _filtered(a: EmptyAnswer, w: Wording) -> str:
    names = ", ".join(dict.fromkeys(w.filter(f) for f in a.filters))
    found = _all(a.candidates, "memory", "memories")
    text = f"the filters ({names or 'filters'}) excluded {found} the query found"
    # New-user pass, round two: `namespace` with `user_id` read as "search alice's
    # memories in team", and the answer did not say the id only narrows within it.
    ids = [w.filter(f) for f in a.filters if f in SCOPE_IDS]
    if not ids:
        return text
    one = len(ids) == 1
    return (
        f"{text}; {_either(ids)} {'narrows' if one else 'narrow'} namespace {a.namespace!r}"
        f" to the memories stored with {'that id' if one else 'those ids'}: leave"
        f" {'it' if one else 'them'} out to search the whole namespace"
    )


def _min_relevance(a: EmptyAnswer, w: Wording) -> str:
    floor = w.setting("min_relevance", a.min_relevance)
    where = floor if floor is not None else f"the [recall] min_relevance = {a.min_relevance}"
    best = "" if a.best_score is None else f"; the best scored {a.best_score:.3f}"
    text = f"{_all(a.candidates, 'hit', 'hits')} scored below the relevance floor ({where}){best}"
    zero = w.setting("min_relevance", 0)
    return f"{text}: try {zero}" if zero is not None else text


def _abstained(a: EmptyAnswer, w: Wording) -> str:
    detail = _ADVICE.sub("", a.detail or "nothing stored looks related")
    text = f"nothing matched: {detail}"
    off = w.setting("abstain", False)
    return f"{text}; try {off} to get the nearest memories anyway" if off is not None else text


def _budget(a: EmptyAnswer, w: Wording) -> str:
    budget = w.setting("budget_tokens", a.budget_tokens) or f"{a.budget_tokens} tokens"
    text = (
        f"the token budget ({budget}) is too small for even the best hit, which needs "
        f"{a.needed_tokens} tokens"
    )
    more = w.setting("budget_tokens", a.needed_tokens)
    return f"{text}: try {more} or more" if more is not None else text


def _flagged(a: EmptyAnswer, w: Wording) -> str:
    return (
        f"{_all(a.candidates, 'hit was', 'hits were')} flagged by the injection scan and left "
        'out of the context (recall.flagged_context = "omit"; the hits keep their flags in '
        "metadata['injection_flags'])"
    )


_MESSAGES = {
    EmptyReason.EMPTY_NAMESPACE: _empty_namespace,
    EmptyReason.NO_MATCH: _no_match,
    EmptyReason.FILTERED: _filtered,
    EmptyReason.MIN_RELEVANCE: _min_relevance,
    EmptyReason.ABSTAINED: _abstained,
    EmptyReason.BUDGET: _budget,
    EmptyReason.FLAGGED: _flagged,
}


def near_namespaces(namespace: str, names: Iterable[str]) -> tuple[str, ...]:
    """The names in ``names`` closest to ``namespace`` (whole, or the id after
    ``user:``/``agent:``/``run:``, ignoring case), best first, at most ``SUGGESTIONS``."""
    want = namespace.casefold()
    want_id = _owner_id(want)
    scored: list[tuple[float, str]] = []
    for name in names:
        if name == namespace:
            continue
        have = name.casefold()
        score = max(
            SequenceMatcher(None, want, have).ratio(),
            SequenceMatcher(None, want_id, _owner_id(have)).ratio(),
        )
        if score >= NEAR:
            scored.append((-score, name))
    return tuple(name for _, name in sorted(scored)[:SUGGESTIONS])


def _owner_id(namespace: str) -> str:
    owner = _OWNER.match(namespace)
    return owner.group(2) if owner is not None else namespace


@dataclass(frozen=True, slots=True)
class Stages:
    """What each stage of one recall left: read only when it came back empty."""

    found: int
    """Candidates before the caller's filters (0 when the recall is not filtered)."""
    ranked: Sequence[Hit]
    """Ranked and deduplicated, before the floor."""
    fitted: Sequence[Hit]
    """After the floor (``min_relevance`` or the abstain decision) and ``limit``, before
    the token budget."""
    packed: Sequence[Hit]
    """After the token budget: the recall's hits."""
    shown: Sequence[Hit]
    """What reached the context (flagged memories may be left out)."""


def explain(
    request: RecallRequest,
    cfg: RecallConfig,
    stages: Stages,
    mode: RecallMode,
    abstained: str | None,
    memories: MemoryStore,
) -> EmptyAnswer | None:
    """Why no memory reached the context; None when one did."""
    ns = request.namespace
    if stages.shown:
        return None
    if stages.packed:
        return EmptyAnswer(EmptyReason.FLAGGED, ns, candidates=len(stages.packed))
    if stages.fitted:
        needed = fmt.hit_cost(cfg.context_style)(stages.fitted[0])
        return EmptyAnswer(
            EmptyReason.BUDGET,
            ns,
            candidates=len(stages.fitted),
            budget_tokens=request.budget_tokens,
            needed_tokens=needed,
        )
    if stages.ranked:
        if abstained is not None:
            return EmptyAnswer(
                EmptyReason.ABSTAINED, ns, candidates=len(stages.ranked), detail=abstained
            )
        return EmptyAnswer(
            EmptyReason.MIN_RELEVANCE,
            ns,
            candidates=len(stages.ranked),
            best_score=round(max(h.score for h in stages.ranked), 4),
            min_relevance=cfg.min_relevance,
        )
    if memories.count(ns) == 0:
        similar = near_namespaces(ns, memories.namespaces())
        return EmptyAnswer(EmptyReason.EMPTY_NAMESPACE, ns, similar_namespaces=similar)
    if request.filtered and stages.found:
        return EmptyAnswer(
            EmptyReason.FILTERED, ns, candidates=stages.found, filters=request.filter_names
        )
    detail = (
        "keyword search only, and none of its memories shares a word with the query"
        if mode is RecallMode.KEYWORD
        else None
    )
    return EmptyAnswer(EmptyReason.NO_MATCH, ns, detail=detail)
