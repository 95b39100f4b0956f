"""What every part of a ``Memory`` shares: settings, the store, the embedder, the dense
search and the retriever, and the few steps every write path takes.

``Memory`` and its parts (``mem.keys``, ``mem.transcripts``, ``mem.admin``, and later
``mem.jobs``, ``mem.graph`` ...) each hold the same ``Core``, so they see one store, one
vector index and one closed flag.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Unpack

import numpy as np

from engram import injection_detector, safety_wishes
from engram.config import Config
from engram.embed import Embedder
from engram.errors import (
    DimensionMismatchError,
    EngramError,
    NotFoundError,
    StoreClosedError,
    shown,
)
from engram.ids import no_memory
from engram.llm import LlmProvider, create_provider
from engram.recall import calibrations
from engram.recall.chunks import store_chunks
from engram.recall.conditions import store_conditions
from engram.recall.doc_windows import store_windows
from engram.recall.format import untrusted
from engram.recall.pipeline import Retriever
from engram.recall.standing import Standings
from engram.recall.standing_items import store_standing
from engram.records import MemoryRecord
from engram.safety import InjectionMode, ScanResult, enforce
from engram.scoping import ScopeIds
from engram.store.protocols import Store, VectorRow, VectorSearch
from engram.store.protocols.graph import Statement, Triple
from engram.store.protocols.keyword import KeywordSettings
from engram.store.protocols.vectors import AnnSettings
from engram.validate import memory_id_value, namespace_for

log = logging.getLogger("engram")

#: The inline entity linker (FEATURES G3): a memory's text -> (triples, entity name ->
#: type) for ``GraphStore.record``. It lives in the pipeline package, above this
#: layer, so ``Memory`` hands it in (``Core.linker``); None links nothing.
Linker = Callable[[str], tuple[Sequence[Triple], Mapping[str, str]]]
#: issue 28 (FEATURES G2): (store, namespace, the memory's text, what it states)
#: -> the statement to record, its relations canonical and the types it closes decided
#: (``engram.pipeline.closing.plan``, handed in by ``Memory`` like the linker).
Closer = Callable[[Store, str, str, Statement], Statement]
#: seed 004's decision auto-protection at write time (FEATURES P9): a memory's text ->
#: (its decision clauses, their importance) when it holds decision language, else None.
#: The inline linker writes them as ``constraint`` attributes of the entities the memory
#: names, in the memory's transaction (``Core.protector``, handed in like the linker).
Protector = Callable[[str], tuple[str, float] | None]
#: mined38: (an assistant's reply, the user's turn before it) -> the change the reply
#: confirms, said as the user's ("The budget is now 11k."), or None (``Core.confirmer``).
Confirmer = Callable[[str, str], str | None]
#: batch40: a memory's text -> whether it states a change of something ("The cat eats
#: Royal Canin now."): in a batch, what its earlier memories read is recorded before it
#: is planned (``Core.changes``, ``engram.pipeline.change_named.stated_change``).
ChangeSaid = Callable[[str], object]
#: A policy every new memory passes before it is written (FEATURES S2's memory levels,
#: ``mem.agents``): given the record and whether the caller named its namespace, it
#: returns the record to write (maybe moved to another namespace) or raises
#: ``WriteRefusedError``. Parts register theirs in ``Core.write_checks``.
WriteCheck = Callable[[MemoryRecord, bool], MemoryRecord]


#: Who the current call acts for, as the history rows it writes record it: a surface
#: sets a function that names the actor (``engram serve``: ``key:<id>`` of the request's
#: API key, known once authentication ran), and the write path reads it.
current_actor: contextvars.ContextVar[Callable[[], str | None] | None] = contextvars.ContextVar(
    "engram_actor", default=None
)


def acting() -> str | None:
    """The actor of the current call, if a surface set one."""
    who = current_actor.get()
    return None if who is None else who()


@dataclass(frozen=True, slots=True)
class Scope:
    """Who a call is for: the namespace and the narrower ids stored on records."""

    namespace: str
    user_id: str | None = None
    agent_id: str | None = None
    run_id: str | None = None


def narrowing_agent(scope: Scope) -> str | None:
    """The agent a listing of runs or sessions keeps: an ``agent_id`` narrower than the
    namespace (``user_id="dana", agent_id="coder"``). In the agent's own namespace
    (``agent:coder``, from ``agent_id`` alone) everything is the agent's, also what was
    recorded before runs and checkpoints carried their agent."""
    if scope.agent_id is None or scope.namespace == f"agent:{scope.agent_id}":
        return None
    return scope.agent_id


class Core:
    """The state a ``Memory`` and its parts share, and the steps they share."""

    def __init__(
        self,
        config: Config,
        store: Store,
        embedder: Embedder | None,
        *,
        allow_dimension_mismatch: bool = False,
    ) -> None:
        self.config = config
        self.store = store
        self.embedder = embedder
        # Dense top-k: a derived in-memory index (SQLite) or the database (PostgreSQL).
        self.index: VectorSearch | None = (
            store.vectors.index(
                embedder.name,
                embedder.dimension,
                ann=AnnSettings(
                    min_vectors=config.recall.ann_min_vectors,
                    ef_search=config.recall.ann_ef_search,
                    ef_growth=config.recall.ann_ef_growth,
                    ef_construction_rows=config.recall.ann_ef_construction_rows,
                    retry_below=config.recall.ann_retry_below,
                    retry_factor=config.recall.ann_retry_factor,
                    background=config.recall.ann_background,
                ),
            )
            if embedder is not None
            else None
        )
        store.keyword.configure(
            KeywordSettings(
                min_memories=config.recall.keyword_index_min,
                background=config.recall.keyword_index_background,
            )
        )
        # issue 24, round 5: each namespace's profile for the abstain decision's store
        # standing, computed off recall's wait; the label vectors kept beside the
        # calibrations (``engram.recall.standing``).
        self.standings = (
            None
            if self.index is None or embedder is None
            else Standings(
                store.vectors, self.index, embedder, cache=config.home_path / calibrations.FOLDER
            )
        )
        self.retriever = Retriever(
            store.memories,
            store.keyword,
            store.vectors,
            config.recall,
            embedder,
            self.index,
            llm=self.llm,
            hints=store.hints,
            graph=store.graph,
            chunks=store.chunks,  # issue 13: chunk vectors of long memories
            # seed 004's hub dampening reads the linker's entity mention counts.
            entity_mentions=store.graph_counts.hub_mentions,
            stale=store.graph_counts.stale_memories,  # issue 28: facts since closed
            retimed=store.graph_counts.retimed_memories,  # round 22: only a time closed
            standings=self.standings,
            # The user's abstain calibration for this embedder, if one was fitted.
            calibration=calibrations.for_embedder(
                config.home_path, embedder.name if embedder is not None else None
            ),
            # A PostgreSQL read is a round trip to the server: recall runs the ones
            # that do not depend on each other side by side (issue 29, round 8).
            overlap_reads=store.backend_name == "postgresql",
        )
        self.linker: Linker | None = None
        self.closer: Closer | None = None
        self.protector: Protector | None = None
        self.confirmer: Confirmer | None = None
        self.changes: ChangeSaid | None = None
        self.write_checks: list[WriteCheck] = []
        self.closed = False
        self.embed_failures = 0
        self._llm: LlmProvider | None = None
        self._llm_made = False
        if not allow_dimension_mismatch:
            self._check_dimensions()

    def _check_dimensions(self) -> None:
        if self.embedder is None:
            return
        for model, dim in self.store.vectors.dimensions().items():
            if dim != self.embedder.dimension:
                self.store.close()
                raise DimensionMismatchError(
                    f"this store holds {dim}-dimension vectors from {shown(model)} but the "
                    f"configured embedder {shown(self.embedder.name)} makes "
                    f"{self.embedder.dimension}-dimension vectors; run `engram reindex` to "
                    f"re-embed everything with {shown(self.embedder.name)}, or configure the "
                    f"embedder that made them"
                )

    def llm(self) -> LlmProvider | None:
        """The configured LLM provider (``[llm]``), made on first use; None offline."""
        if not self._llm_made:
            self._llm = create_provider(self.config.llm)
            self._llm_made = True
        return self._llm

    def check_open(self) -> None:
        """``StoreClosedError`` once the ``Memory`` is closed."""
        if self.closed:
            raise StoreClosedError("this Memory is closed; open a new one to keep working")

    def bounded(self, wait: float | None) -> AbstractContextManager[None]:
        """``store.bounded_wait(wait)``: calls on this thread inside it wait at most
        ``wait`` seconds for a connection the unreachable database cannot give; nothing
        when ``wait`` is None (``mem.health.ready(wait=...)``, ``mem.keys.verify``)."""
        return nullcontext() if wait is None else self.store.bounded_wait(wait)

    def close(self) -> None:
        """Stop recall's worker thread and close the store; idempotent."""
        if not self.closed:
            self.closed = True
            self.retriever.close()
            if self.standings is not None:  # its worker searches the store
                self.standings.close()
            self.store.close()

    def scope(self, namespace: str | None = None, **ids: Unpack[ScopeIds]) -> Scope:
        """Resolve the namespace rule (see ``engram.validate.namespace_for``)."""
        user, agent, run = ids.get("user_id"), ids.get("agent_id"), ids.get("run_id")
        ns = namespace_for(
            namespace, user, agent, run, self.config.default_namespace, held=self._holds
        )
        return Scope(ns, user, agent, run)

    def _holds(self, namespace: str) -> bool:
        """True when the store holds memories (tombstoned ones too) of ``namespace``: a
        name the namespace rule refuses that was written before the rule."""
        try:
            return self.store.memories.count(namespace, include_deleted=True) > 0
        except EngramError:  # closed: the call's own check says so
            return False

    def open_scope(self, namespace: str | None = None, **ids: Unpack[ScopeIds]) -> Scope:
        """``scope`` for a call that reads or writes: ``StoreClosedError`` first if the
        ``Memory`` is closed (every public call checks this before it resolves its
        scope)."""
        self.check_open()
        return self.scope(namespace, **ids)

    def get(self, scope: Scope, memory_id: object) -> MemoryRecord:
        """A live memory of ``scope``; ``NotFoundError`` if it is not there."""
        record = self.store.memories.get(scope.namespace, memory_id_value(memory_id))
        if record is None:
            raise NotFoundError(no_memory(memory_id, scope.namespace))
        return record

    def scan(self, record: MemoryRecord, *, flag: bool = False) -> MemoryRecord:
        """The injection scan (seed 000) over every text field of ``record``: raises in
        block mode, marks ``metadata["injection_flags"]`` in flag mode. ``flag`` turns
        block mode into flag mode for this record (``add_many(on_blocked="flag")``);
        it never turns a scan on or off."""
        text = "\n".join(
            p for p in (record.title, record.content, record.narrative, *record.facts) if p
        )
        mode = InjectionMode(self.config.injection_mode)
        if flag and mode is InjectionMode.BLOCK:
            mode = InjectionMode.FLAG
        result = enforce(text, mode)
        if result.flagged:
            meta = dict(record.metadata)
            meta["injection_flags"] = list(result.reasons)
            return record.with_changes(metadata=meta)
        return record

    def scan_text(self, text: str) -> ScanResult:
        """The injection scan of one text in the configured mode (raises in block mode)."""
        return enforce(text, InjectionMode(self.config.injection_mode))

    def guarded_transcript(self, content: str) -> str:
        """A transcript as recall hands it out: inside an untrusted marker when the scan
        flags it (a transcript stored in flag mode, or imported as trusted)."""
        if InjectionMode(self.config.injection_mode) is InjectionMode.OFF:
            return content
        found = enforce(content, InjectionMode.FLAG)
        return untrusted(content, found.reasons) if found.flagged else content

    def embed_and_store(
        self,
        records: Sequence[MemoryRecord],
        screened: list[MemoryRecord] | None = None,
        made: Callable[[], np.ndarray] | None = None,
        read: injection_detector.Read | None = None,
    ) -> str | None:
        """Embed outside any transaction; a failure leaves the memory stored, unembedded.

        Returns the embedding model's name when the vectors were stored, else None.
        With ``screened`` (new writes pass a list), the learned injection detector reads
        the new vectors and the memories it quarantines are appended to it as stored
        now (``engram.injection_detector``). ``made`` returns vectors of ``records``'
        ``embedding_text`` computed elsewhere (``add_many`` embeds on a worker thread);
        its failure counts as the embedder's. ``read`` is the detector's reading of
        ``records``' contents made meanwhile (``detector().read``), so it is not redone.
        """
        if not records or self.embedder is None:
            return None
        try:
            if made is not None:
                vectors = made()
            else:
                vectors = self.embedder.embed_batch([r.embedding_text() for r in records])
        except Exception as exc:  # raw-first: the memory is stored; reindex fills it later
            self.embed_failures += len(records)
            log.warning(
                "embedding failed, %d memories stored without vectors: %s", len(records), exc
            )
            return None
        rows = [
            VectorRow(r.id, self.embedder.name, np.asarray(v, np.float32), r.content_hash)
            for r, v in zip(records, vectors, strict=True)
        ]
        epoch = self.store.vectors.put(rows)
        if screened is not None:
            screened.extend(self._quarantine(records, np.asarray(vectors, np.float32), read))
        if self.index is not None:
            by_ns: dict[str, list[int]] = {}
            for i, r in enumerate(records):
                by_ns.setdefault(r.namespace, []).append(i)
            if len(by_ns) == 1:
                ns, idx = next(iter(by_ns.items()))
                self.index.added(ns, [records[i].id for i in idx], vectors[idx], epoch)
                if self.standings is not None:  # the labels' best cosines only grow
                    self.standings.added(ns, vectors[idx], epoch)
            else:
                self.index.invalidate()
        # Long memories also get a vector per window past the head (issue 13).
        store_chunks(self.embedder, self.store.chunks, records, self.config.recall)
        # Standing instructions also get a vector for their condition (issue 24).
        store_conditions(
            self.embedder,
            self.store.chunks,
            records,
            self.config.recall,
            self.retriever.conditioned,
        )
        # Document chunks also get a vector per window the embedder cannot read.
        store_windows(self.embedder, self.store.chunks, records, self.retriever.windowed)
        # So do the user's standing instructions and preferences (issue 24, beam30).
        own = np.asarray(vectors, np.float32)
        store_standing(self.embedder, self.store.chunks, records, own, self.config.recall)
        return self.embedder.name

    def detector(self) -> injection_detector.Detector | None:
        """The learned injection detector new writes pass: none when the scan is off or
        the embedder is not the one its weights were fitted on."""
        if InjectionMode(self.config.injection_mode) is InjectionMode.OFF:
            return None
        return injection_detector.for_model(self.embedder.name if self.embedder else None)

    def _quarantine(
        self,
        records: Sequence[MemoryRecord],
        vectors: np.ndarray,
        read: injection_detector.Read | None = None,
    ) -> list[MemoryRecord]:
        """Flag what the learned detector fires on among new memories: it never refuses
        a write (the memory is already stored), it keeps it out of every context as flag
        mode does, and the change is in the memory's history."""
        detector = self.detector()
        if detector is None:
            return []
        out = []
        embed = self.embedder.embed_batch if self.embedder else None  # the sentence view
        found = injection_detector.quarantined(detector, records, vectors, embed, read)
        for record, reason in found:
            if safety_wishes.wish(record.content):  # the user's own wish (round thirty-one)
                continue
            meta = {**record.metadata, injection_detector.FLAGS: [reason]}
            _, after = self.store.memories.update(
                record.namespace,
                record.id,
                {"metadata": meta},
                event="quarantine",
                actor=injection_detector.CODE,
                reason=reason,
            )
            out.append(after)
        return out


class Part:
    """A named part of ``Memory`` (``mem.keys``, ``mem.admin`` ...): it shares the core."""

    def __init__(self, core: Core) -> None:
        self._core = core


#: ``mem.sessions.injected`` as the parts that build contexts call it: (session key,
#: memory ids in rank order, namespace). ``engram.parts`` hands it in, so a context
#: given a session records what it injected itself (FEATURES S13).
RecordInjected = Callable[[str, Sequence[str], str], object]
