"""Organisational memory: the append-only fact ledger, its audit trail, retrieval
vectors and agent-key roles (FEATURES S4)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engram.store.protocols import OrgStore
from engram.store.protocols.org import NewOrgFact, OrgAuditEntry, OrgFact, OrgFactAuthor
from engram.store.sql.dialect import Conn
from engram.store.sql.rows import equal, record
from engram.store.sql.session import SqlPart

#: ``OrgFact``'s fields in order, its author's three columns in the place of ``author``.
_FACT = (
    "fact_id, version, seq, category, content, tags, author_kind, author_id, "
    "author_seniority, reason, created_at, retracted, supersedes"
)
#: ``OrgAuditEntry``'s fields in order, ``actor`` as its three columns.
_AUDIT = (
    "id, at, action, actor_kind, actor_id, actor_seniority, category, fact_id, version, "
    "reason, detail"
)
#: The latest version of each fact.
_LATEST = "version = (SELECT max(l.version) FROM org_facts l WHERE l.fact_id = org_facts.fact_id)"


def _author(columns: Sequence[Any]) -> OrgFactAuthor:
    return OrgFactAuthor(*columns)


class SqlOrg(SqlPart, OrgStore):
    """``OrgStore`` on either engine."""

    def _fact(self, row: Sequence[Any]) -> OrgFact:
        return record(self._d, OrgFact, (*row[:6], row[6:9], *row[9:]), author=_author)

    def _entry(self, row: Sequence[Any]) -> OrgAuditEntry:
        return record(self._d, OrgAuditEntry, (*row[:3], row[3:6], *row[6:]), actor=_author)

    def _audit_row(
        self,
        conn: Conn,
        action: str,
        author: OrgFactAuthor,
        category: str,
        fact_id: str | None,
        version: int | None,
        reason: str | None,
        detail: str | None,
        now: datetime,
    ) -> OrgAuditEntry:
        row = conn.execute(
            "INSERT INTO org_audit(at, action, actor_kind, actor_id, actor_seniority, category, "
            "fact_id, version, reason, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            f"RETURNING {_AUDIT}",
            (
                self._d.ts(now),
                action,
                author.kind,
                author.id,
                author.seniority,
                category,
                fact_id,
                version,
                reason,
                detail,
            ),
        ).fetchone()
        assert row is not None  # RETURNING of an INSERT
        return self._entry(row)

    def append(self, fact: NewOrgFact, author: OrgFactAuthor, *, now: datetime) -> OrgFact:
        d = self._d
        with self._sql.tx("writing the org fact") as conn:
            # One writer per fact at a time: the next version number is read under it.
            # SQLite's ``BEGIN IMMEDIATE`` already serialises writers; PostgreSQL takes a
            # lock on the fact id.
            if d.name == "postgres":
                conn.execute("SELECT pg_advisory_xact_lock(hashtext(?))", (fact.fact_id,))
            last = conn.execute(
                "SELECT seq, version FROM org_facts WHERE fact_id = ? "
                "ORDER BY version DESC LIMIT 1",
                (fact.fact_id,),
            ).fetchone()
            version = 1 if last is None else int(last[1]) + 1
            row = conn.execute(
                "INSERT INTO org_facts(fact_id, version, category, content, tags, retracted, "
                "supersedes, author_kind, author_id, author_seniority, reason, created_at) "
                f"VALUES (?, ?, ?, ?, {d.json}, ?, ?, ?, ?, ?, ?, ?) RETURNING {_FACT}",
                (
                    fact.fact_id,
                    version,
                    fact.category,
                    fact.content,
                    d.dumps(list(fact.tags)),
                    fact.retracted,
                    None if last is None else int(last[0]),
                    author.kind,
                    author.id,
                    author.seniority,
                    fact.reason,
                    d.ts(now),
                ),
            ).fetchone()
            assert row is not None  # RETURNING of an INSERT
            action = "retract" if fact.retracted else "write" if last is None else "supersede"
            self._audit_row(
                conn,
                action,
                author,
                fact.category,
                fact.fact_id,
                version,
                fact.reason,
                None,
                now,
            )
        return self._fact(row)

    def current(
        self, *, categories: Sequence[str] | None = None, include_retracted: bool = False
    ) -> list[OrgFact]:
        where: list[str] = [_LATEST]
        params: list[Any] = []
        if categories is not None:
            if not categories:
                return []
            where.append(f"category IN ({self._d.marks(len(categories))})")
            params.extend(categories)
        if not include_retracted:
            where.append("NOT retracted")
        rows = self._rows(
            f"SELECT {_FACT} FROM org_facts WHERE {' AND '.join(where)} "
            "ORDER BY (SELECT min(f.seq) FROM org_facts f WHERE f.fact_id = "
            "org_facts.fact_id)",
            params,
            what="reading org facts",
        )
        return [self._fact(r) for r in rows]

    def versions(self, fact_id: str) -> list[OrgFact]:
        rows = self._rows(
            f"SELECT {_FACT} FROM org_facts WHERE fact_id = ? ORDER BY version",
            (fact_id,),
            what="reading org fact history",
        )
        return [self._fact(r) for r in rows]

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
        with self._sql.tx("writing the org audit") as conn:
            return self._audit_row(
                conn, "denied", author, category, fact_id, None, reason, rule, now
            )

    def audit(
        self, *, fact_id: str | None = None, actor_id: str | None = None, limit: int = 100
    ) -> list[OrgAuditEntry]:
        where, params = equal(fact_id=fact_id, actor_id=actor_id)
        rows = self._rows(
            f"SELECT {_AUDIT} FROM org_audit WHERE {where} ORDER BY id DESC LIMIT ?",
            (*params, limit),
            what="reading the org audit",
        )
        return [self._entry(r) for r in rows]

    def set_vector(self, seq: int, model: str, vector: Sequence[float]) -> None:
        with self._sql.tx("storing the org fact's vector") as conn:
            conn.execute(
                f"INSERT INTO org_fact_vectors(seq, model, vector) VALUES (?, ?, {self._d.json}) "
                "ON CONFLICT (seq, model) DO UPDATE SET vector = excluded.vector",
                (seq, model, self._d.dumps([float(x) for x in vector])),
            )

    def vectors(self, seqs: Sequence[int], model: str) -> dict[int, list[float]]:
        out: dict[int, list[float]] = {}
        if not seqs:
            return out
        with self._sql.read("reading org vectors") as conn:
            rows = self._d.select_in(
                conn,
                "SELECT seq, vector FROM org_fact_vectors WHERE model = ? AND ",
                "seq",
                seqs,
                (model,),
            )
        out.update({int(r[0]): list(self._d.loads(r[1])) for r in rows})
        return out

    def set_key_role(self, key_id: str, seniority: str) -> None:
        with self._sql.tx("storing the key's role") as conn:
            conn.execute(
                "INSERT INTO org_key_roles(key_id, seniority) VALUES (?, ?) "
                "ON CONFLICT (key_id) DO UPDATE SET seniority = excluded.seniority",
                (key_id, seniority),
            )

    def key_role(self, key_id: str) -> str | None:
        row = self._row(
            "SELECT seniority FROM org_key_roles WHERE key_id = ?",
            (key_id,),
            what="reading a key's role",
        )
        return None if row is None else str(row[0])
