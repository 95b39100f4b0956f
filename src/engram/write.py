"""The raw-first write path (seed 004) shared by ``add``, ``add_many`` and ``update``.

Every item is validated and scanned before anything is written, then records are
committed ``BATCH`` at a time, then the new ones are embedded outside any transaction
and their vectors stored in a second short one. An embedder that can run beside the
caller (``embed.base.runs_beside``: engram's MiniLM) embeds a group's texts on a worker
thread while the group is being written, so the model and the writes overlap.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from engram import injection_detector
from engram.core import Core, acting
from engram.dedupe import merge_duplicates, merges
from engram.embed.base import runs_beside
from engram.errors import InjectionBlocked, InvalidInputError, StoreError, shown
from engram.records import (
    PIPELINE_WHO,
    BatchResult,
    ItemResult,
    MemoryRecord,
    MemoryType,
    Merged,
    Outcome,
)
from engram.safety import InjectionMode
from engram.store.protocols import InsertResult
from engram.text import normalize_content
from engram.validate import (
    build_record,
    checked_content,
    memory_category,
    memory_type,
    metadata_dict,
    optional_float,
    optional_str,
    string_list,
    type_name,
)
from engram.write_link import MAX_PROTECTED as MAX_PROTECTED
from engram.write_link import link
from engram.write_link import linked as linked
from engram.write_link import protect as protect

#: Records per transaction in ``add_many`` and ``reindex``.
BATCH = 256
#: Records ``add_many`` embeds in one call: sorted by length they pad little, and a
#: long import shows progress and holds little in memory.
EMBED_GROUP = 2048

Progress = Callable[[int, int], None]
#: What ``add_many`` does with an item the scan blocks or validation refuses.
OnRefused = Literal["skip", "raise"]
#: What ``add_many`` does with an item the scan blocks: skip, raise, or store it flagged
#: as flag mode does (a record of what was said, a chat log: kept out of context; #27).
OnBlocked = Literal["skip", "raise", "flag"]

#: The fields an item of ``add_many`` may carry.
ITEM_KEYS = frozenset(
    {
        "content",
        "namespace",
        "user_id",
        "agent_id",
        "run_id",
        "session_id",
        "metadata",
        "tags",
        "type",
        "category",
        "importance",
        "score",
        "confidence",
        "title",
        "narrative",
        "facts",
        "created_at",
        "who",
        "why",
        "source_memory_id",
        "document_id",
        "extraction_model",
    }
)

log = logging.getLogger("engram.write")


def admit(
    core: Core,
    item: str | Mapping[str, Any],
    namespace: str | None,
    position: int,
    *,
    checks: bool = True,
) -> MemoryRecord:
    """One item of a batch as a validated record, not yet scanned (nothing is written);
    with ``checks``, it passes every ``core.write_checks`` policy (memory levels). The
    injection scan (``Core.scan``) comes next and changes only its metadata, so the
    record's ``embedding_text`` is final here."""
    if isinstance(item, str):
        item = {"content": item}
    if not isinstance(item, Mapping):
        raise InvalidInputError(
            f"item {position} must be a string or a dict, got {type(item).__name__}"
        )
    unknown = set(item) - ITEM_KEYS
    if unknown:
        names = sorted(k if isinstance(k, str) else shown(k) for k in unknown)
        # No "item N" here: ``_at`` adds it in a batch of several; one ``add`` has none.
        raise InvalidInputError(
            f"unknown field(s) {', '.join(names)}; known: {', '.join(sorted(ITEM_KEYS))}"
        )
    if item.get("content") is None:
        raise InvalidInputError("content is missing; pass the text to remember")
    fields = {k: v for k, v in item.items() if v is not None}
    explicit = fields.get("namespace", namespace) is not None
    scope = core.scope(
        fields.pop("namespace", namespace),
        user_id=fields.get("user_id"),
        agent_id=fields.get("agent_id"),
        run_id=fields.get("run_id"),
    )
    content = fields.pop("content")
    record = build_record(
        content, namespace=scope.namespace, max_chars=core.config.max_content_chars, **fields
    )
    if checks:
        for check in core.write_checks:
            record = check(record, explicit)
    return record


def add_batch(
    core: Core,
    items: Sequence[str | Mapping[str, Any]],
    *,
    namespace: str | None = None,
    progress: Progress | None = None,
    on_blocked: OnBlocked = "skip",
    on_invalid: OnRefused = "raise",
    enqueue: bool = True,
    checks: bool = True,
) -> BatchResult:
    """Validate and scan every item, then store the good ones raw-first; see
    ``Memory.add_many``. Nothing is written before every item has been checked.

    With the pipeline on (``[pipeline] enabled``) and ``enqueue``, each new memory gets
    its pipeline jobs in the same transaction as the memory itself, so a memory is
    never stored without them (the pipeline's own writes pass ``enqueue=False``).
    ``checks=False`` skips the write policies of ``core.write_checks`` (a shared
    publication is not the agent's own memory, so its level does not apply)."""
    core.check_open()
    if isinstance(items, str | bytes) or not isinstance(items, Sequence):
        raise InvalidInputError("items must be a list of strings or dicts")
    if progress is not None and not callable(progress):
        raise InvalidInputError(f"progress must be a callable(done, total), got {shown(progress)}")
    if on_blocked not in ("skip", "raise", "flag"):
        raise InvalidInputError(
            f"on_blocked must be 'skip', 'raise' or 'flag', got {shown(on_blocked)}"
        )
    if on_invalid not in ("skip", "raise"):
        raise InvalidInputError(f"on_invalid must be 'skip' or 'raise', got {shown(on_invalid)}")
    outcomes: dict[int, ItemResult] = {}
    flag = on_blocked == "flag"
    # Every item is validated (and passes the write checks), then scanned, before
    # anything is written. An error that will be raised stops the validation there; the
    # items before it are still scanned first, so the error raised is the first item's,
    # as checking item by item gives.
    admitted: list[tuple[int, MemoryRecord | Exception]] = []
    stopped = False
    for i, item in enumerate(items):
        try:
            admitted.append((i, admit(core, item, namespace, i, checks=checks)))
        except Exception as exc:  # noqa: BLE001 - reported or raised in the scan below
            admitted.append((i, exc))
            if not _reported(exc, on_blocked, on_invalid):
                stopped = True
                break
    # Raw-first (seed 004): records are committed BATCH at a time, then the new ones
    # embedded EMBED_GROUP at a time (length-sorted: little padding) and their vectors
    # stored. An embedder that ``runs_beside`` the caller embeds a group on a worker
    # thread while the group is linked and written (no transaction waits for the model;
    # a model failure leaves every memory stored); its vectors are stored after.
    kinds = pipeline_jobs(core) if enqueue else ()
    aside = core.embedder is not None and runs_beside(core.embedder)
    pool = ThreadPoolExecutor(1, thread_name_prefix="engram-embed") if aside else None
    done = 0
    try:
        # The model starts on the first group once it is known and no error will be
        # raised: when the scan can refuse nothing (flag or off mode, on_blocked="flag"),
        # now, while the items are scanned; in block mode once its last item is scanned
        # (unless a block would raise). Embedding writes nothing; the scan changes no
        # embedding text.
        early = None
        refuses = _scan_refuses(core, flag)
        if not stopped and not refuses:
            valid = [got for _, got in admitted if isinstance(got, MemoryRecord)]
            early = _Ahead.start(core, pool, valid[:EMBED_GROUP])
        soon = not stopped and refuses and on_blocked != "raise"
        prepared: list[tuple[int, MemoryRecord]] = []
        for i, got in admitted:
            try:
                if isinstance(got, Exception):
                    raise got
                prepared.append((i, core.scan(got, flag=flag)))
                if soon and len(prepared) == EMBED_GROUP:
                    early = _Ahead.start(core, pool, [record for _, record in prepared])
            except InjectionBlocked as exc:
                if on_blocked == "raise":
                    raise _at(exc, i, len(items)) from None
                outcomes[i] = ItemResult(
                    i, Outcome.BLOCKED, reason="; ".join(exc.reasons), reasons=exc.reasons
                )
            except InvalidInputError as exc:
                if on_invalid == "raise":
                    raise _at(exc, i, len(items)) from None
                outcomes[i] = ItemResult(i, Outcome.INVALID, reason=str(exc))
        groups = [prepared[g : g + EMBED_GROUP] for g in range(0, len(prepared), EMBED_GROUP)]
        ahead = _Ahead.start(core, pool, [r for _, r in groups[0]], early) if groups else None
        for k, chunk in enumerate(groups):
            # The next group queues behind this one on the worker, so the model goes on
            # while this group's vectors are stored and the next group is written.
            following = None
            if k + 1 < len(groups):
                following = _Ahead.start(core, pool, [r for _, r in groups[k + 1]])
            inserted: list[tuple[int, tuple[InsertResult, Merged | None]]] = []
            for start in range(0, len(chunk), BATCH):
                part = chunk[start : start + BATCH]
                results = _insert(core, [record for _, record in part], kinds)
                inserted.extend(zip((i for i, _ in part), results, strict=True))
            needing = _needing_vectors(core, [r for _, (r, _) in inserted])
            written = [result.record for _, (result, _) in inserted]
            made = read = None
            if ahead is not None:
                made = ahead.vectors(core, written, needing)
                # The learned detector's reading of the texts (pure text), done here
                # while the model still runs rather than after it.
                detector = core.detector()
                read = None if detector is None else detector.read([r.content for r in needing])
            model, pending, screened = _vectors(core, needing, made, read)
            for i, (result, merged) in inserted:
                record = screened.get(result.record.id, result.record)
                if model is not None and record.embedding_model != model:
                    # What is stored now: the record has a vector by ``model``.
                    record = record.with_changes(embedding_model=model)
                warned = (pending,) if pending and record.embedding_model is None else ()
                if record.id in screened:
                    warned = (*warned, QUARANTINED)
                outcomes[i] = _outcome(i, result.created, record, kinds, merged, warned)
            done += len(chunk)
            if progress is not None:
                progress(done, len(prepared))
            ahead = following
    finally:
        if pool is not None:
            # Groups queued and not started are dropped (an error stopped the write).
            pool.shutdown(wait=True, cancel_futures=True)
    return BatchResult(outcomes[i] for i in range(len(items)))


def _reported(exc: Exception, on_blocked: OnBlocked, on_invalid: OnRefused) -> bool:
    """Whether ``add_many`` reports ``exc`` as an item's outcome (else it raises it)."""
    if isinstance(exc, InjectionBlocked):
        return on_blocked != "raise"
    return isinstance(exc, InvalidInputError) and on_invalid == "skip"


def _scan_refuses(core: Core, flag: bool) -> bool:
    """Whether ``Core.scan`` may refuse an item (block mode, not turned into flag)."""
    return InjectionMode(core.config.injection_mode) is InjectionMode.BLOCK and not flag


@dataclass
class _Ahead:
    """A group's texts, embedded on a worker thread while the group is written."""

    texts: list[str]
    future: Future[Any]

    @classmethod
    def start(
        cls,
        core: Core,
        pool: ThreadPoolExecutor | None,
        records: list[MemoryRecord],
        early: _Ahead | None = None,
    ) -> _Ahead | None:
        """``records``' texts handed to the worker; ``early`` when it was started on
        exactly these texts (before they were scanned)."""
        if pool is None or core.embedder is None:
            return None
        texts = [record.embedding_text() for record in records]
        if early is not None and early.texts == texts:
            return early
        return cls(texts, pool.submit(core.embedder.embed_batch, texts))

    def vectors(
        self, core: Core, written: list[MemoryRecord], needing: list[MemoryRecord]
    ) -> Callable[[], Any]:
        """The call giving the vectors of ``needing``, memories among ``written`` (the
        group's stored records, in order): the row embedded ahead when its text is the
        one embedded (an older memory's duplicate may have another), else embedded then."""

        def made() -> Any:
            ahead = np.asarray(self.future.result(), np.float32)
            row: dict[str, int] = {}
            for position, record in enumerate(written):
                if record.embedding_text() == self.texts[position]:
                    row.setdefault(record.id, position)
            out = np.empty((len(needing), ahead.shape[1]), np.float32)
            rest = [k for k, record in enumerate(needing) if record.id not in row]
            for k, record in enumerate(needing):
                if record.id in row:
                    out[k] = ahead[row[record.id]]
            if rest and core.embedder is not None:
                texts = [needing[k].embedding_text() for k in rest]
                out[rest] = core.embedder.embed_batch(texts)
            return out

        return made


#: An item's warning when its memory is stored but its vector is not (yet).
VECTOR_PENDING = (
    "stored without a vector ({why}); `engram reindex` or `engram serve`'s filler at its "
    "next start adds it, and keyword search finds the memory meanwhile"
)


#: An item's warning when the learned injection detector quarantined its memory.
QUARANTINED = (
    "stored but quarantined: the learned injection detector reads it as an instruction to "
    "a model (metadata['injection_flags']), so recall keeps it out of every context; "
    "update or delete it if it is benign"
)


def _vectors(
    core: Core,
    records: list[MemoryRecord],
    made: Callable[[], Any] | None = None,
    read: injection_detector.Read | None = None,
) -> tuple[str | None, str, dict[str, MemoryRecord]]:
    """Embed (or with ``made``, take the vectors embedded elsewhere) and store
    ``records``' vectors (``read``: the detector's reading of them, made meanwhile): the
    model that wrote them (None if none did), when the embedder is on but they were not
    written the warning to give, and the memories the learned injection detector
    quarantined, by id, as stored now.

    The memories committed before this, so a store error here must not reach the
    caller as "not stored" (engram issue 26, item 5): the record comes back with
    ``embedding_model`` None and a warning instead."""
    if not records:
        return None, "", {}
    before = core.embed_failures
    screened: list[MemoryRecord] = []
    try:
        model = core.embed_and_store(records, screened, made, read)
    except StoreError as exc:
        log.warning("storing vectors failed, %d memories stored without: %s", len(records), exc)
        return None, VECTOR_PENDING.format(why=f"storing it failed: {exc.code}"), {}
    if model is None and core.embed_failures != before:
        return None, VECTOR_PENDING.format(why="the embedder failed"), {}
    return model, "", {r.id: r for r in screened}


def _insert(
    core: Core, records: list[MemoryRecord], kinds: tuple[str, ...]
) -> list[tuple[InsertResult, Merged | None]]:
    """Insert a batch and, in its transaction, queue each new memory's pipeline jobs
    (``kinds``), write what the inline linker names to the graph (a failure rolls back
    the memories with their links) and merge a duplicate's new tags and metadata into
    the memory that holds its content (``engram.dedupe``)."""
    linking = linker_on(core)
    merging = any((r.tags or r.metadata) and merges(r) for r in records)
    actor = acting()
    if not kinds and not linking and not merging:
        return [(r, None) for r in core.store.memories.insert(records, actor=actor)]
    with core.store.transaction():
        results = core.store.memories.insert(records, actor=actor)
        new = [r.record for r in results if r.created and wants_pipeline(r.record)]
        if kinds and new:
            core.store.jobs.enqueue_many(
                [(kind, record.namespace, record.id) for record in new for kind in kinds],
                max_attempts=core.config.worker.max_attempts,
            )
        if linking and new:
            link(core, new)
        if merging and not all(r.created for r in results):
            return merge_duplicates(core.store, records, results, actor)
    return [(r, None) for r in results]


def _outcome(
    i: int,
    created: bool,
    record: MemoryRecord,
    kinds: tuple[str, ...],
    merged: Merged | None,
    warnings: tuple[str, ...] = (),
) -> ItemResult:
    """Item ``i``'s outcome (stored now, or a duplicate of ``record``) and ``warnings``."""
    if created:
        jobs = kinds if wants_pipeline(record) else ()
        return ItemResult(i, Outcome.STORED, record=record, jobs=jobs, warnings=warnings)
    merged = merged or Merged()
    reason = f"same content as memory {record.id}: {merged.summary()}"
    return ItemResult(
        i,
        Outcome.DUPLICATE,
        record=record,
        reason=reason,
        duplicate_of=record.id,
        merged=merged,
        warnings=warnings,
    )


def linker_on(core: Core) -> bool:
    """Whether new memories are linked into the graph as they are written (G3)."""
    cfg = core.config.pipeline
    return core.linker is not None and cfg.graph and cfg.linker


def pipeline_jobs(core: Core) -> tuple[str, ...]:
    """The jobs a new memory gets: extraction, and hints when they are on."""
    cfg = core.config.pipeline
    if not cfg.enabled:
        return ()
    return ("extract", "hints") if cfg.hints else ("extract",)


def wants_pipeline(record: MemoryRecord) -> bool:
    """Raw memories go through the pipeline; its own facts and document chunks do not
    (a fact of a fact adds nothing, and chunks are indexed whole)."""
    return record.who != PIPELINE_WHO and record.type is not MemoryType.DOCUMENT_CHUNK


def _needing_vectors(core: Core, results: Sequence[InsertResult]) -> list[MemoryRecord]:
    """New records, and duplicates stored without a current vector (an earlier write
    stopped between its two transactions): re-adding the content repairs them."""
    name = core.embedder.name if core.embedder is not None else None
    wanted: dict[str, MemoryRecord] = {}
    for result in results:
        if result.created or result.record.embedding_model != name:
            wanted.setdefault(result.record.id, result.record)
    return list(wanted.values())


def _at(exc: InvalidInputError, position: int, size: int) -> InvalidInputError:
    """In a batch, say which item is wrong (keeping the error's class)."""
    if size > 1 and exc.args and not str(exc.args[0]).startswith("item "):
        exc.args = (f"item {position}: {exc.args[0]}", *exc.args[1:])
    return exc


def update_changes(
    core: Core,
    *,
    content: str | None,
    metadata: Mapping[str, Any] | None,
    tags: Sequence[str] | None,
    type: str | None,
    category: str | None,
    importance: float | None,
    score: float | None,
    title: str | None,
) -> dict[str, Any]:
    """The validated column changes of an ``update`` call."""
    changes: dict[str, Any] = {}
    if content is not None:
        if not isinstance(content, str):
            raise InvalidInputError(f"content must be a string, got {type_name(content)}")
        changes["content"] = checked_content(content, core.config.max_content_chars)
        changes["content_hash"] = normalize_content(content).content_hash
    if metadata is not None:
        changes["metadata"] = metadata_dict(metadata)
    if tags is not None:
        changes["tags"] = string_list("tags", tags)
    if type is not None:
        changes["type"] = memory_type(type)
    if category is not None:
        changes["category"] = memory_category(category)
    if importance is not None:
        changes["importance"] = optional_float("importance", importance, 0.0, 1.0)
    if score is not None:
        changes["score"] = optional_float("score", score, 0.0, 10.0)
    if title is not None:
        changes["title"] = optional_str("title", title)
    if not changes:
        raise InvalidInputError("nothing to update: pass content or a field to change")
    return changes


def rescan(core: Core, before: MemoryRecord, changes: dict[str, Any]) -> dict[str, Any]:
    """Scan the text as it will be after ``changes``; in flag mode the flags follow the
    new text (set, replaced or cleared)."""
    if "content" not in changes and "title" not in changes:
        return changes
    proposed = before.with_changes(**changes)
    clean = {k: v for k, v in proposed.metadata.items() if k != "injection_flags"}
    scanned = core.scan(proposed.with_changes(metadata=clean))
    if scanned.metadata != proposed.metadata:
        changes = {**changes, "metadata": scanned.metadata}
    return changes
