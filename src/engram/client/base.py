"""The one core of ``EngramClient`` and ``AsyncEngramClient``: their verbs and parts.

Like httpx's ``BaseClient`` (STYLE 7), everything that does not depend on how a request
is sent lives here once: each verb is a ``Verb`` made from its ``Call`` builder
(``engram.client.verbs``, ``part_verbs``, ``graph_verbs``), and the parts (``client.jobs``,
``client.graph``...) are one class each. ``EngramClient`` (``sync.py``) and
``AsyncEngramClient`` (``aio.py``) only send, sleep and close; a verb read from a blocking
client returns the answer, read from an async one it returns a coroutine.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Coroutine
from types import MethodType
from typing import Any, Generic, ParamSpec, TypeVar, overload

from engram.client import graph_verbs as gv
from engram.client import part_verbs as pv
from engram.client import verbs
from engram.client.call import Call
from engram.client.transport import Settings

P = ParamSpec("P")
T = TypeVar("T")
#: How the client sends: ``Blocking`` or ``Awaiting``.
M = TypeVar("M")


class Blocking:
    """The mode of ``EngramClient``: a verb waits and returns the decoded answer."""


class Awaiting:
    """The mode of ``AsyncEngramClient``: a verb is a coroutine."""


class Sends(Generic[M]):
    """A client or one of its parts: its verbs send ``Call``s through the client."""

    #: True where verbs are coroutines: a client's class says, a part takes its client's.
    _awaits: bool

    def _send(self, call: Call[T]) -> Any:
        """The answer to ``call`` (from an async client: a coroutine of it)."""
        raise NotImplementedError


def _method(builder: Callable[..., Call[Any]], *, awaits: bool) -> Callable[..., Any]:
    """The function behind a verb: it sends what ``builder`` makes. It has the builder's
    name, docstring and signature with ``self`` first, for ``help()`` and ``inspect``."""

    def blocking(self: Sends[Any], *args: Any, **kwargs: Any) -> Any:
        return self._send(builder(*args, **kwargs))

    async def awaiting(self: Sends[Any], *args: Any, **kwargs: Any) -> Any:
        return await self._send(builder(*args, **kwargs))

    method = functools.update_wrapper(awaiting if awaits else blocking, builder)
    signature = inspect.signature(builder)
    own = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    method.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[own, *signature.parameters.values()]
    )
    return method


class Verb(Generic[P, T]):
    """A verb written once as its ``Call`` builder: the same parameters, and the decoded
    answer (a coroutine of it on an async client)."""

    def __init__(self, builder: Callable[P, Call[T]]) -> None:
        self.__doc__ = builder.__doc__
        self._blocking = _method(builder, awaits=False)
        self._awaiting = _method(builder, awaits=True)

    @overload
    def __get__(self, obj: None, owner: type[Any]) -> Any: ...
    @overload
    def __get__(self, obj: Sends[Blocking], owner: type[Any]) -> Callable[P, T]: ...
    @overload
    def __get__(
        self, obj: Sends[Awaiting], owner: type[Any]
    ) -> Callable[P, Coroutine[Any, Any, T]]: ...
    def __get__(self, obj: Sends[Any] | None, owner: type[Any]) -> Any:
        awaits: bool | None = getattr(owner if obj is None else obj, "_awaits", None)
        if awaits is None:  # read from a part's class, which serves both modes
            return self
        method = self._awaiting if awaits else self._blocking
        return method if obj is None else MethodType(method, obj)


class Part(Sends[M]):
    """A part of the client (``client.jobs``...): its verbs go through the client."""

    def __init__(self, client: Sends[M]) -> None:
        self._client = client
        self._awaits = client._awaits

    def _send(self, call: Call[T]) -> Any:
        return self._client._send(call)


class Jobs(Part[M]):
    """``client.jobs``: the job queue (``mem.jobs``)."""

    list = Verb(pv.jobs_list)
    get = Verb(pv.jobs_get)
    retry = Verb(pv.jobs_retry)
    status = Verb(pv.jobs_status)


class Review(Part[M]):
    """``client.review``: proposals held back for a person (``mem.review``)."""

    list = Verb(pv.review_list)
    count = Verb(pv.review_count)
    get = Verb(pv.review_get)
    approve = Verb(pv.review_approve)
    reject = Verb(pv.review_reject)


class Documents(Part[M]):
    """``client.documents``: document ingest (``mem.documents``)."""

    ingest = Verb(pv.documents_ingest)
    get = Verb(pv.documents_get)
    list = Verb(pv.documents_list)
    count = Verb(pv.documents_count)
    delete = Verb(pv.documents_delete)


class Graph(Part[M]):
    """``client.graph``: the knowledge graph (``mem.graph``), as the API's models."""

    entities = Verb(gv.graph_entities)
    entity = Verb(gv.graph_entity)
    relations = Verb(gv.graph_relations)
    timeline = Verb(gv.graph_timeline)
    neighbors = Verb(gv.graph_neighbors)
    merge = Verb(gv.graph_merge)
    split = Verb(gv.graph_split)
    invalidate = Verb(gv.graph_invalidate)
    dedupe = Verb(gv.graph_dedupe)
    decay_aspects = Verb(gv.graph_decay_aspects)


class Palace(Part[M]):
    """``client.palace``: wings, rooms and drawers (``mem.palace``)."""

    tree = Verb(gv.palace_tree)
    mine_conversation = Verb(gv.palace_mine_conversation)
    resolve = Verb(gv.palace_resolve)


class Transcripts(Part[M]):
    """``client.transcripts``: raw session transcripts (``mem.transcripts``)."""

    add = Verb(verbs.add_transcript)


class Admin(Part[M]):
    """``client.admin``: housekeeping over HTTP (purge, reindex, doctor: admin keys)."""

    feedback_log = Verb(verbs.feedback_log)
    purge = Verb(verbs.purge)
    reindex = Verb(verbs.reindex)
    doctor = Verb(verbs.doctor)


class BaseClient(Sends[M]):
    """What ``EngramClient`` and ``AsyncEngramClient`` share: settings, verbs, parts."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self.jobs: Jobs[M] = Jobs(self)
        self.review: Review[M] = Review(self)
        self.documents: Documents[M] = Documents(self)
        self.graph: Graph[M] = Graph(self)
        self.palace: Palace[M] = Palace(self)
        self.transcripts: Transcripts[M] = Transcripts(self)
        self.admin: Admin[M] = Admin(self)

    add = Verb(verbs.add)
    add_many = Verb(verbs.add_many)
    search = Verb(verbs.search)
    recall = Verb(verbs.recall)
    get = Verb(verbs.get)
    get_all = Verb(verbs.get_all)
    update = Verb(verbs.update)
    delete = Verb(verbs.delete)
    history = Verb(verbs.history)
    feedback = Verb(verbs.feedback)
    add_transcript = Verb(verbs.add_transcript)
    feedback_log = Verb(verbs.feedback_log)
    purge = Verb(verbs.purge)
    reindex = Verb(verbs.reindex)
    doctor = Verb(verbs.doctor)
    health = Verb(verbs.health)
