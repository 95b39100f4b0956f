"""The scope keywords, written once: ``**who: Unpack[ScopeArgs]`` (PEP 692).

Almost every verb of ``Memory``, of its parts and of the HTTP client takes the same four
keywords, ``namespace``, ``user_id``, ``agent_id`` and ``run_id`` (who the call is for,
FEATURES C2). A verb declares them as ``**who: Unpack[ScopeArgs]`` and hands ``who``
on (``core.open_scope(**who)``, or to another verb) instead of restating and forwarding
four parameters. Callers call exactly as before (``m.get(id, user_id="u")``); mypy checks
the keywords against ``ScopeArgs``, and ``@scoped`` keeps the rest as it was:

- a misspelt keyword is the ``TypeError`` Python raises for a named parameter
  (``Memory.get() got an unexpected keyword argument 'usr_id'``), before the verb runs;
- ``inspect.signature`` and ``help()`` list the four keywords where the verb used to
  declare them (first among its keyword-only parameters), so the parameters a caller can
  pass stay visible, and whatever is built from a signature (the client's verbs, the
  async twins, the docs and fuzz tests) sees what it saw before.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from typing import Any, TypedDict, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class OwnerArgs(TypedDict, total=False):
    """Who a call is for, as keywords; None is the same as not given. An explicit
    ``namespace`` wins; otherwise the widest id names it (``user:<user_id>``, else
    ``agent:<agent_id>``, else ``run:<run_id>``), else the configured default. The verbs
    whose own subject is a run (``mem.runs``, sessions, blocks...) take these three."""

    namespace: str | None
    user_id: str | None
    agent_id: str | None


class ScopeArgs(OwnerArgs, total=False):
    """``OwnerArgs`` and ``run_id``: the scope of the everyday verbs."""

    run_id: str | None


class ScopeIds(TypedDict, total=False):
    """The ids narrower than a namespace, for the resolvers that take ``namespace`` as
    their first parameter (``Memory.scope``): stored on records, filtering within it."""

    user_id: str | None
    agent_id: str | None
    run_id: str | None


#: The keywords of ``ScopeArgs``, in the order signatures list them.
SCOPE_KEYS: tuple[str, ...] = tuple(ScopeArgs.__annotations__)
#: The ids narrower than a namespace (``ScopeIds``' keywords).
SCOPE_IDS: tuple[str, ...] = tuple(ScopeIds.__annotations__)
#: What ``**who: Unpack[...]`` may name, by the annotation's name.
_KEYS = {
    "ScopeArgs": SCOPE_KEYS,
    "OwnerArgs": tuple(OwnerArgs.__annotations__),
    "ScopeIds": SCOPE_IDS,
}


def unexpected(where: str, names: Iterable[str], keys: tuple[str, ...] = SCOPE_KEYS) -> None:
    """Python's own ``TypeError`` for the first of ``names`` that is not in ``keys``
    (a ``TypedDict`` is not checked at run time)."""
    for name in names:
        if name not in keys:
            raise TypeError(f"{where}() got an unexpected keyword argument {name!r}")


def _keys(signature: inspect.Signature) -> tuple[str, ...]:
    """The keywords ``**who`` takes, read off its annotation (``Unpack[ScopeArgs]``)."""
    for p in signature.parameters.values():
        if p.kind is p.VAR_KEYWORD:
            for name, keys in _KEYS.items():
                if f"Unpack[{name}]" in str(p.annotation):
                    return keys
    raise TypeError("@scoped wants a verb with **who: Unpack[ScopeArgs], OwnerArgs or ScopeIds")


def _shown(signature: inspect.Signature, keys: tuple[str, ...]) -> inspect.Signature:
    """``signature`` with ``**who`` shown as the scope keywords ``keys`` it does not name
    itself, keyword-only, first among the keyword-only parameters."""
    params = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    at = next((i for i, p in enumerate(params) if p.kind is p.KEYWORD_ONLY), len(params))
    keyword = inspect.Parameter.KEYWORD_ONLY
    ids = [
        inspect.Parameter(name, keyword, default=None, annotation="str | None")
        for name in keys
        if name not in signature.parameters
    ]
    return signature.replace(parameters=[*params[:at], *ids, *params[at:]])


def scoped(function: F) -> F:
    """A verb declared with ``**who: Unpack[ScopeArgs]`` (or ``OwnerArgs``): misspelt
    keywords are refused as Python refuses them, and its signature lists the scope
    keywords (see above)."""
    signature = inspect.signature(function)
    keys = _keys(signature)
    named = {
        p.name
        for p in signature.parameters.values()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    }
    allowed = named | set(keys)

    @functools.wraps(function)
    def verb(*args: Any, **kwargs: Any) -> Any:
        if not kwargs.keys() <= allowed:  # one set test on the way in: verbs run often
            unexpected(function.__qualname__, (k for k in kwargs if k not in named), keys)
        return function(*args, **kwargs)

    verb.__signature__ = _shown(signature, keys)  # type: ignore[attr-defined]
    return verb  # type: ignore[return-value]
