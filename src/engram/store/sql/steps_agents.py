"""The schema steps of what agents keep beside their memories: sessions, memory levels,
organisational memory, core blocks, the lifecycle and maintenance, for both engines.
Never edit a step that has shipped; add one."""

from __future__ import annotations

from engram.store.sql.dialect import Conn, Dialect
from engram.store.sql.steps import pick, script


def m022_sessions(conn: Conn, d: Dialect) -> None:
    """Sessions (FEATURES S11, S13; seed 004's ``session_checkpoints``,
    ``session_memories`` and ``session_scores``): checkpoints, the memories injected
    into each session, and continuity scores."""
    script(
        conn,
        d,
        """
        CREATE TABLE session_checkpoints (
            id {id},
            namespace {key} NOT NULL,
            session_key {key} NOT NULL,
            harness TEXT,
            project TEXT,
            project_normalized TEXT,
            trigger TEXT NOT NULL,
            digest TEXT NOT NULL,
            prompt_count INTEGER NOT NULL DEFAULT 0,
            memory_queries {jsonb} NOT NULL DEFAULT '[]',
            recent_remembers {jsonb} NOT NULL DEFAULT '[]',
            created_at {time} NOT NULL
        );
        CREATE INDEX session_checkpoints_by_session
            ON session_checkpoints(namespace, session_key, id);
        CREATE INDEX session_checkpoints_by_time ON session_checkpoints(created_at);
        CREATE TABLE session_memories (
            namespace {key} NOT NULL,
            session_key {key} NOT NULL,
            memory_id {key} NOT NULL,
            rank INTEGER NOT NULL,
            was_injected {bool} NOT NULL DEFAULT {true},
            relevance_score {real},
            injected_at {time} NOT NULL,
            PRIMARY KEY (namespace, session_key, memory_id)
        );
        CREATE TABLE session_scores (
            namespace {key} NOT NULL,
            session_key {key} NOT NULL,
            score {real} NOT NULL,
            confidence {real} NOT NULL,
            memories_recalled INTEGER NOT NULL,
            memories_used INTEGER NOT NULL,
            novel_context_count INTEGER NOT NULL,
            reasoning TEXT NOT NULL,
            method TEXT NOT NULL,
            per_memory {jsonb} NOT NULL DEFAULT '{}',
            scored_at {time} NOT NULL,
            PRIMARY KEY (namespace, session_key)
        );
        """,
    )


def m023_shared_knowledge(conn: Conn, d: Dialect) -> None:
    """Agent levels and shared knowledge (FEATURES S2, S3; seed 002's ``MemoryLevel``
    per agent): agent profiles, and the lookup of an agent's session-level memories when
    its session ends. Shared publications are memories in a shared namespace and need no
    table of their own."""
    script(
        conn,
        d,
        """
        CREATE TABLE agent_profiles (
            agent_id {key} PRIMARY KEY,
            level TEXT NOT NULL
                CHECK (level IN ('none', 'session', 'project', 'persistent')),
            project TEXT,
            updated_at {time} NOT NULL
        );
        CREATE INDEX memories_by_agent_session ON memories(agent_id, session_id)
            WHERE deleted_at IS NULL AND agent_id IS NOT NULL AND session_id IS NOT NULL;
        """,
    )


def m024_org_memory(conn: Conn, d: Dialect) -> None:
    """Organisational memory (FEATURES S4; seed 002's "Write Access Control": "All
    writes are append-only and auditable"): the org-fact ledger and audit trail
    (append-only: triggers refuse UPDATE and DELETE), their retrieval vectors, and the
    roles of agent API keys."""
    script(
        conn,
        d,
        """
        CREATE TABLE org_facts (
            seq {id},
            fact_id {key} NOT NULL,
            version INTEGER NOT NULL,
            category TEXT NOT NULL,
            content TEXT NOT NULL,
            tags {jsonb} NOT NULL DEFAULT '[]',
            retracted {bool} NOT NULL DEFAULT {false},
            supersedes {bigint} REFERENCES org_facts(seq),
            author_kind TEXT NOT NULL,
            author_id TEXT NOT NULL,
            author_seniority TEXT,
            reason TEXT,
            created_at {time} NOT NULL,
            UNIQUE (fact_id, version)
        );
        CREATE INDEX org_facts_by_category ON org_facts(category, fact_id, version);
        CREATE TABLE org_audit (
            id {id},
            at {time} NOT NULL,
            action TEXT NOT NULL,
            actor_kind TEXT NOT NULL,
            actor_id TEXT NOT NULL,
            actor_seniority TEXT,
            category TEXT NOT NULL,
            fact_id {key},
            version INTEGER,
            reason TEXT,
            detail TEXT
        );
        CREATE INDEX org_audit_by_fact ON org_audit(fact_id, id);
        CREATE INDEX org_audit_by_actor ON org_audit(actor_id, id);
        {append_only}
        CREATE TABLE org_fact_vectors (
            seq {bigint} NOT NULL REFERENCES org_facts(seq),
            model TEXT NOT NULL,
            vector {jsonb} NOT NULL,
            PRIMARY KEY (seq, model)
        );
        CREATE TABLE org_key_roles (
            key_id {key} PRIMARY KEY,
            seniority TEXT NOT NULL
        );
        """,
        append_only=pick(
            d,
            sqlite="""
            CREATE TRIGGER org_facts_no_update BEFORE UPDATE ON org_facts
                BEGIN SELECT RAISE(ABORT, 'org_facts is append-only'); END;
            CREATE TRIGGER org_facts_no_delete BEFORE DELETE ON org_facts
                BEGIN SELECT RAISE(ABORT, 'org_facts is append-only'); END;
            CREATE TRIGGER org_audit_no_update BEFORE UPDATE ON org_audit
                BEGIN SELECT RAISE(ABORT, 'org_audit is append-only'); END;
            CREATE TRIGGER org_audit_no_delete BEFORE DELETE ON org_audit
                BEGIN SELECT RAISE(ABORT, 'org_audit is append-only'); END;
            """,
            postgres="""
            CREATE FUNCTION engram_org_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
            END;
            $$;
            CREATE TRIGGER org_facts_append_only BEFORE UPDATE OR DELETE ON org_facts
                FOR EACH ROW EXECUTE FUNCTION engram_org_append_only();
            CREATE TRIGGER org_audit_append_only BEFORE UPDATE OR DELETE ON org_audit
                FOR EACH ROW EXECUTE FUNCTION engram_org_append_only();
            """,
        ),
    )


def m025_core_blocks(conn: Conn, d: Dialect) -> None:
    """Core memory blocks (FEATURES S5; seed 002's self-editing strategy), and their
    edit history (append-only: no code path updates it)."""
    script(
        conn,
        d,
        """
        CREATE TABLE core_blocks (
            namespace {key} NOT NULL,
            label {key} NOT NULL,
            value TEXT NOT NULL,
            char_limit INTEGER NOT NULL,
            description TEXT NOT NULL DEFAULT '',
            read_only {bool} NOT NULL DEFAULT {false},
            version INTEGER NOT NULL,
            updated_at {time} NOT NULL,
            PRIMARY KEY (namespace, label)
        );
        CREATE TABLE core_block_history (
            id {id},
            namespace {key} NOT NULL,
            label {key} NOT NULL,
            op TEXT NOT NULL,
            old_value TEXT,
            new_value TEXT,
            actor TEXT,
            at {time} NOT NULL
        );
        CREATE INDEX core_block_history_by_block
            ON core_block_history(namespace, label, id);
        """,
    )


def m026_lifecycle(conn: Conn, d: Dialect) -> None:
    """The lifecycle (FEATURES S8, S9): seed 002's archive of consolidated originals
    with its archival index, agent retention overrides, and the indexes seed 004's
    retention worker sweeps by."""
    script(
        conn,
        d,
        """
        CREATE TABLE memory_archive (
            archive_id {key} PRIMARY KEY,
            namespace {key} NOT NULL,
            original_id {key} NOT NULL,
            summary_id {key} NOT NULL,
            mode TEXT NOT NULL CHECK (mode IN ('abstractive', 'extractive')),
            category TEXT,
            record {jsonb} NOT NULL,
            original_created_at {time} NOT NULL,
            archived_at {time} NOT NULL,
            UNIQUE (namespace, original_id)
        );
        CREATE INDEX memory_archive_summary ON memory_archive(namespace, summary_id);
        CREATE INDEX memory_archive_age ON memory_archive(namespace, original_created_at);
        CREATE TABLE retention_overrides (
            namespace {key} NOT NULL,
            category TEXT NOT NULL,
            days INTEGER NOT NULL CHECK (days >= 1),
            PRIMARY KEY (namespace, category)
        );
        CREATE INDEX memories_tombstoned ON memories(deleted_at) WHERE deleted_at IS NOT NULL;
        CREATE INDEX memory_history_age ON memory_history(created_at);
        CREATE INDEX memory_jobs_finished ON memory_jobs(status, completed_at, failed_at);
        """,
    )


def m027_maintenance(conn: Conn, d: Dialect) -> None:
    """Maintenance (FEATURES S10; seed 004's maintenance worker): recorded runs
    (append-only), executed repair actions and the halt tracker."""
    script(
        conn,
        d,
        """
        CREATE TABLE maintenance_runs (
            id {id},
            kind TEXT NOT NULL,
            mode TEXT NOT NULL,
            namespace {key},
            started_at {time} NOT NULL,
            finished_at {time} NOT NULL,
            score_before {real} NOT NULL,
            score_after {real} NOT NULL,
            recommendations {jsonb} NOT NULL DEFAULT '[]',
            actions {jsonb} NOT NULL DEFAULT '[]',
            report {jsonb} NOT NULL DEFAULT '{}'
        );
        CREATE INDEX maintenance_runs_by_kind ON maintenance_runs(kind, id);
        CREATE TABLE maintenance_actions (
            id {id},
            action TEXT NOT NULL,
            outcome TEXT NOT NULL,
            executed_at {time} NOT NULL
        );
        CREATE INDEX maintenance_actions_by_action ON maintenance_actions(action, executed_at);
        CREATE TABLE maintenance_halts (
            action TEXT PRIMARY KEY,
            streak INTEGER NOT NULL,
            halted_at {time}
        );
        """,
    )


def m029_job_history(conn: Conn, d: Dialect) -> None:
    """A job's history rows carry a key (job, memory, ordinal), unique, so a job re-run
    after its worker was killed writes none of them twice (engram issue 26, item 6;
    ``engram.store.sql.history.job_run``). Rows written outside a job have none."""
    script(
        conn,
        d,
        """
        ALTER TABLE memory_history ADD COLUMN job_key TEXT;
        CREATE UNIQUE INDEX memory_history_job_key ON memory_history(job_key)
            WHERE job_key IS NOT NULL;
        """,
    )
