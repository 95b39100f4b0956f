"""Round twenty-seven of the new-user pass: an operator's first month on PostgreSQL.

Written for this round, before any code change (none of the project's test or bench
data). An operator who has never seen engram runs it for a small team on PostgreSQL,
following only docs/deploy-postgres.md, docs/operations.md, docs/maintenance.md,
docs/reliability.md, docs/configuration.md, docs/http.md, docs/cli.md,
docs/organisation.md and the README. Each case says what the operator does and what a
careful operator expects from those pages; ``scripts/pass36_pass.py`` runs them against
a throwaway PostgreSQL 16 + pgvector server (tests/pgserver.py, durable) and prints
what it saw.

The team: Ana (the operator, admin key), three users ``mira``, ``tomas`` and ``olu``.
Tomas leaves the company in week three and asks to be forgotten.

    PYTHONPATH=src python scripts/pass36_cases.py        # lists the cases
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    """One thing the operator tries, and what the docs lead them to expect."""

    id: str
    area: str
    doc: str
    action: str
    expected: str


CASES: tuple[Case, ...] = (
    # -- setting up the database ---------------------------------------------------------
    Case(
        "setup-role",
        "set-up",
        "deploy-postgres.md#connection-settings",
        "create a login role `engram` and a database it owns (no superuser), point "
        "ENGRAM_STORE at it, run `engram doctor`",
        "refused with the fix named: who must run `CREATE EXTENSION vector` (the "
        "docs say 'the owner'; PostgreSQL says a superuser); nothing half-made that "
        "blocks the next try",
    ),
    Case(
        "setup-doctor",
        "set-up",
        "deploy-postgres.md (top)",
        "a superuser runs `CREATE EXTENSION vector`; `engram doctor` again",
        "store.backend: PostgresStore, the schema's last migration, no namespaces",
    ),
    Case(
        "setup-password",
        "set-up",
        "deploy-postgres.md#connection-settings",
        "a password in the URL (`postgresql://engram:secret@...`), `engram doctor` "
        "and a failing command",
        "the password never printed (masked in doctor and in errors)",
    ),
    Case(
        "setup-nodb",
        "set-up",
        "cli.md (stores that do not exist)",
        "ENGRAM_STORE naming a database that does not exist; `engram doctor`",
        "one line naming the database (password masked) and that it does not exist, "
        "exit 1, no traceback",
    ),
    Case(
        "setup-down",
        "set-up",
        "deploy-postgres.md (connect_timeout)",
        "ENGRAM_STORE at a port where nothing listens; `engram doctor`",
        "one line saying the server cannot be reached, within connect_timeout, exit 1",
    ),
    Case(
        "setup-schema",
        "set-up",
        "deploy-postgres.md#connection-settings",
        "a schema of its own: `CREATE SCHEMA app`, "
        "`?options=-csearch_path%3Dapp,public`, then `engram add`",
        "tables created in `app`, the `vector` type found in public",
    ),
    # -- serving --------------------------------------------------------------------------
    Case(
        "serve-first-key",
        "serve",
        "cli.md#engram-serve, http.md#start-it",
        "`engram serve --json` on the PostgreSQL store; stop; start again",
        "the first start prints an admin key once; the second prints none",
    ),
    Case(
        "keys",
        "serve",
        "cli.md#engram-keys",
        "`engram keys create --user mira|tomas|olu`, `keys list`",
        "three user keys, listed without secrets",
    ),
    Case(
        "write-http",
        "users",
        "http.md#memories",
        "each user POSTs memories with their own key; recall them",
        "201 each; each user's recall finds their own memory",
    ),
    Case(
        "write-cli",
        "users",
        "cli.md#engram-add",
        "`engram add --user olu` while the server runs on the same database",
        "the server lists and recalls it at once (same store)",
    ),
    Case(
        "isolation",
        "users",
        "http.md#the-namespace-rule",
        "mira's key asks for `user_id: tomas`",
        "403",
    ),
    # -- organisation memory -------------------------------------------------------------
    Case(
        "org-policy",
        "org",
        "organisation.md#over-http",
        "the admin key POSTs a policy; a user key tries one",
        "201 for the admin; 403 naming the rule for the user; the policy heads every "
        "user's recall context",
    ),
    Case(
        "org-cli",
        "org",
        "organisation.md#from-the-cli",
        "`engram org write ... --category adr --author ana`, `org list`, `org audit`",
        "the ADR listed; the audit shows the HTTP and CLI writes and the refusal",
    ),
    # -- erasure -------------------------------------------------------------------------
    Case(
        "erase-dry",
        "erasure",
        "cli.md#engram-forget",
        "`engram forget --all --user tomas --dry-run`",
        "counts tomas's memories, erases nothing",
    ),
    Case(
        "erase",
        "erasure",
        "cli.md#engram-forget, http.md#memories",
        "`engram forget --all --user tomas --yes`",
        "nothing of tomas's text left anywhere in the database (memories, history, "
        "vectors, keyword tables, jobs); the others untouched; an audit row",
    ),
    Case(
        "erase-key",
        "erasure",
        "cli.md#engram-keys",
        "tomas's key after his erasure",
        "the docs say what happens to it (revoke it); `keys revoke` stops it",
    ),
    Case(
        "erasures",
        "erasure",
        "cli.md#engram-erasures",
        "`engram erasures --all-namespaces`",
        "the erase listed with its count and actor",
    ),
    # -- backup and restore --------------------------------------------------------------
    Case(
        "export",
        "backup",
        "cli.md#engram-export, deploy-postgres.md#backups",
        "`engram export --all --vectors -o backup.jsonl`",
        "a complete file; nothing of tomas's in it",
    ),
    Case(
        "import-fresh",
        "backup",
        "cli.md#engram-import",
        "import the file into a fresh database; recall the same questions; import again",
        "the same memories per namespace, org facts and the erase audit; the same "
        "recall answers; the second import changes nothing",
    ),
    Case(
        "restore-keys",
        "backup",
        "cli.md#engram-export",
        "serve the restored database with the old keys",
        "the docs say whether keys travel in an export (migrate-store says it copies them)",
    ),
    Case(
        "pg-dump",
        "backup",
        "deploy-postgres.md#backups",
        "`pg_dump -Fc`, `pg_restore` into a new database, `engram doctor` on it",
        "the same counts; the store opens",
    ),
    # -- moving a store and upgrading ----------------------------------------------------
    Case(
        "migrate-sqlite",
        "migrate",
        "deploy-postgres.md#moving-a-store, cli.md#engram-migrate-store",
        "a SQLite store of a month's notes, `engram migrate-store --from sqlite:///... "
        "--to postgresql://...`; run it again",
        "verified, exit 0; the same recall answers on PostgreSQL; the second run copies nothing",
    ),
    Case(
        "upgrade-older",
        "upgrade",
        "deploy-postgres.md (migrations)",
        "open a database an older engram made (migrated up to an earlier step)",
        "upgraded on open, data kept",
    ),
    Case(
        "upgrade-newer",
        "upgrade",
        "deploy-postgres.md (migrations)",
        "open a database a newer engram made (a migration this one does not know)",
        "refused, saying to upgrade engram; nothing changed",
    ),
    # -- health, metrics, logs -----------------------------------------------------------
    Case(
        "health",
        "observe",
        "operations.md#liveness-and-readiness",
        "`/health`, `/ready`",
        "200 both, `checks.store` ok",
    ),
    Case(
        "metrics",
        "observe",
        "operations.md#metrics",
        "`/metrics` with the admin key, a user key, none",
        "200 with engram_store_up 1 and engram_memories per namespace; 403; 401",
    ),
    Case(
        "logs",
        "observe",
        "operations.md#logs",
        "`engram serve --log-format json`",
        "one JSON object a line; the access line has key_id and no key or content",
    ),
    Case(
        "pg-restart",
        "observe",
        "operations.md#postgresql-restarts, reliability.md",
        "`pg_ctl restart -m fast` while serving; write and recall after it",
        "the first call after the restart works (no 500); /ready 200",
    ),
    Case(
        "pg-down",
        "observe",
        "operations.md#liveness-and-readiness",
        "stop PostgreSQL; `/ready`; a write; start it again",
        "/ready 503 after about pool_timeout; the write 503 `store_disconnected` "
        "(not 500); back to 200 once it is up",
    ),
    # -- the job worker ------------------------------------------------------------------
    Case(
        "worker",
        "jobs",
        "cli.md#engram-worker",
        "`engram serve --no-worker`, a write that queues jobs, `engram worker --once --json`",
        "the jobs pending until the worker runs them; then completed",
    ),
    # -- maintenance ---------------------------------------------------------------------
    Case(
        "maint-diagnose",
        "maintenance",
        "maintenance.md",
        "`engram maintenance diagnose`, `run --execute`, `status`",
        "a score; the keyword index domain counts the tsvector; no error",
    ),
    Case(
        "reindex-vectors",
        "maintenance",
        "deploy-postgres.md#rebuilding-the-vector-index",
        "`engram maintenance reindex-vectors --work-mem 256MB` and `--force`",
        "each index listed with its build before and after",
    ),
    Case(
        "reindex",
        "maintenance",
        "cli.md#engram-reindex",
        "`engram reindex`, `engram purge --all-namespaces`",
        "nothing to embed; tombstones purged with their rows",
    ),
    Case(
        "analyze",
        "maintenance",
        "deploy-postgres.md#index-tuning, cli.md#engram-migrate-store",
        "'Run ANALYZE on a PostgreSQL target after a large copy': the operator looks "
        "for an engram command that does it",
        "the docs say how (psql), or an engram command does it",
    ),
)


def main() -> None:
    for case in CASES:
        print(f"{case.id:16} {case.area:12} {case.action}\n{'':30}expect: {case.expected}")


if __name__ == "__main__":
    main()
