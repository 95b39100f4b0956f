"""The run log and its memory hits (seed 000's ``RunTrace``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from engram.errors import StoreError
from engram.store.protocols import RunStore
from engram.store.protocols.runs import Run, RunHit
from engram.store.sql.rows import columns, equal, record, upsert
from engram.store.sql.session import SqlPart

_FULL = columns(Run)
#: A listed run leaves its (maybe long) output out.
_LIST = _FULL.replace(" output,", " NULL,")
_HIT = columns(RunHit)


class SqlRuns(SqlPart, RunStore):
    """``RunStore`` on either engine."""

    def save(self, run: Run, *, now: datetime) -> Run:
        d = self._d
        with self._sql.tx("recording the run") as conn:
            conn.execute(
                upsert(
                    d,
                    "runs",
                    _FULL,
                    "namespace, run_id",
                    json=("issues", "metadata"),
                    kept=("created_at",),
                ),
                (
                    run.run_id,
                    run.namespace,
                    run.task,
                    run.task_type,
                    run.status,
                    run.score,
                    run.tokens_in,
                    run.tokens_out,
                    run.output,
                    len(run.output) if run.output is not None else run.output_chars,
                    run.output_path,
                    d.dumps(list(run.issues)),
                    d.dumps(run.metadata),
                    d.ts_or_none(run.started_at),
                    d.ts_or_none(run.finished_at),
                    d.ts(now),
                    d.ts(now),
                    run.agent_id,
                ),
            )
            row = conn.execute(
                f"SELECT {_FULL} FROM runs WHERE namespace = ? AND run_id = ?",
                (run.namespace, run.run_id),
            ).fetchone()
        if row is None:
            raise StoreError(f"recording run {run.run_id!r} left no row")
        return record(d, Run, row)

    def get(self, namespace: str, run_id: str) -> Run | None:
        return self._keyed(Run, "runs", (namespace, "run_id", run_id), "reading a run")

    def select(
        self,
        namespace: str,
        *,
        status: str | None = None,
        task_type: str | None = None,
        agent_id: str | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[Run]:
        where, args = equal(
            namespace=namespace, status=status, task_type=task_type, agent_id=agent_id
        )
        return self._records(
            Run,
            f"SELECT {_LIST} FROM runs WHERE {where} "
            "ORDER BY created_at DESC, run_id DESC LIMIT ? OFFSET ?",
            (*args, limit, offset),
            what="listing runs",
        )

    def count(
        self,
        namespace: str,
        *,
        status: str | None = None,
        task_type: str | None = None,
        agent_id: str | None = None,
    ) -> int:
        where, args = equal(
            namespace=namespace, status=status, task_type=task_type, agent_id=agent_id
        )
        return self._read_count(
            f"SELECT COUNT(*) FROM runs WHERE {where}",
            args,
            what="counting runs",
        )

    def delete(self, namespace: str, run_id: str) -> bool:
        # Its hits go by ON DELETE CASCADE.
        with self._sql.tx("deleting the run") as conn:
            cur = conn.execute(
                "DELETE FROM runs WHERE namespace = ? AND run_id = ?", (namespace, run_id)
            )
            return cur.rowcount > 0

    def log_hits(self, namespace: str, run_id: str, hits: Sequence[RunHit]) -> int:
        if not hits:
            return 0
        d = self._d
        with self._sql.tx("logging the run's memory hits") as conn:
            conn.executemany(
                upsert(d, "run_memory_hits", _HIT, "namespace, run_id, memory_id"),
                [
                    (run_id, namespace, h.memory_id, h.rank, h.score, h.title, d.ts(h.at))
                    for h in hits
                ],
            )
        return len(hits)

    def hits(self, namespace: str, run_id: str) -> list[RunHit]:
        at = (namespace, "run_id", run_id)
        return self._keyed_all(
            RunHit, "run_memory_hits", at, "rank, memory_id", "reading the run's memory hits"
        )
