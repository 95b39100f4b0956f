"""SQLite schema step of organisational memory (FEATURES S4; seed 002's "Write Access
Control": "All writes are append-only and auditable"). Never edit it once shipped; add
a step."""

from __future__ import annotations

import sqlite3

from engram.store.sqlite.steps import _run_script


def m024_org_memory(conn: sqlite3.Connection) -> None:
    """The org-fact ledger and audit trail (append-only: triggers refuse UPDATE and
    DELETE), their retrieval vectors, and the roles of agent API keys."""
    _run_script(
        conn,
        """
        CREATE TABLE org_facts (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            fact_id TEXT NOT NULL,
            version INTEGER NOT NULL,
            category TEXT NOT NULL,
            content TEXT NOT NULL,
            tags TEXT NOT NULL DEFAULT '[]',
            retracted INTEGER NOT NULL DEFAULT 0,
            supersedes INTEGER REFERENCES org_facts(seq),
            author_kind TEXT NOT NULL,
            author_id TEXT NOT NULL,
            author_seniority TEXT,
            reason TEXT,
            created_at TEXT NOT NULL,
            UNIQUE (fact_id, version)
        );
        CREATE INDEX org_facts_by_category ON org_facts(category, fact_id, version);
        CREATE TABLE org_audit (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            at TEXT NOT NULL,
            action TEXT NOT NULL,
            actor_kind TEXT NOT NULL,
            actor_id TEXT NOT NULL,
            actor_seniority TEXT,
            category TEXT NOT NULL,
            fact_id TEXT,
            version INTEGER,
            reason TEXT,
            detail TEXT
        );
        CREATE INDEX org_audit_by_fact ON org_audit(fact_id, id);
        CREATE INDEX org_audit_by_actor ON org_audit(actor_id, id);
        CREATE TRIGGER org_facts_no_update BEFORE UPDATE ON org_facts
            BEGIN SELECT RAISE(ABORT, 'org_facts is append-only'); END;
        CREATE TRIGGER org_facts_no_delete BEFORE DELETE ON org_facts
            BEGIN SELECT RAISE(ABORT, 'org_facts is append-only'); END;
        CREATE TRIGGER org_audit_no_update BEFORE UPDATE ON org_audit
            BEGIN SELECT RAISE(ABORT, 'org_audit is append-only'); END;
        CREATE TRIGGER org_audit_no_delete BEFORE DELETE ON org_audit
            BEGIN SELECT RAISE(ABORT, 'org_audit is append-only'); END;
        CREATE TABLE org_fact_vectors (
            seq INTEGER NOT NULL REFERENCES org_facts(seq),
            model TEXT NOT NULL,
            vector TEXT NOT NULL,
            PRIMARY KEY (seq, model)
        );
        CREATE TABLE org_key_roles (
            key_id TEXT PRIMARY KEY,
            seniority TEXT NOT NULL
        );
        """,
    )
