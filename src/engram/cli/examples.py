"""One example per ``engram`` command, shown at the end of its ``--help``.

A new user reads ``engram <command> --help`` before the docs (new-user pass, round three:
110 of 112 commands said what they do but showed no call). Each example is taken from the
command's page in docs/ (docs/cli.md first), so help and docs show the same call;
``$ID``-style words stand for values the reader has. A command whose flags change what
runs where (``serve``, ``mcp``) shows one more example per such flag. tests/test_cli_examples.py
checks that every command has one and that its options and arguments parse.
"""

from __future__ import annotations

import click

#: Command path (``"graph entity"``) -> the arguments after ``engram`` (or several calls).
EXAMPLES: dict[str, str | tuple[str, ...]] = {
    "add": 'add "Deploys are frozen on Fridays after 3pm" --user alice --type decision',
    "agents end-session": "agents end-session temp s1",
    "agents level": "agents level planner project --project apollo",
    "agents list": "agents list",
    "agents reset": "agents reset planner",
    "backend": "backend",
    "bench abstain": "bench abstain --store /tmp/abstain-bench.db",
    "bench beam": "bench beam --data ../shared/bench/beam-100k --mode best --mode dense",
    "bench changes": "bench changes",
    "bench chat": "bench chat",
    "bench contradictions": "bench contradictions --no-mine",
    "bench entities": "bench entities",
    "bench extraction": "bench extraction --json",
    "bench graph": "bench graph",
    "bench graph-view": "bench graph-view --nodes 600 --runs 5 --out bench-results",
    "bench injection": "bench injection --data bench-data --out bench-results",
    "bench lifecycle": "bench lifecycle --days 365 --per-day 50",
    "bench locomo": "bench locomo --mode all --errata",
    "bench longmemeval": "bench longmemeval --data longmemeval_s_cleaned.json --limit 50",
    "bench paraphrase": "bench paraphrase",
    "bench pipeline": "bench pipeline --n 500 --rounds 3",
    "bench scale": (
        "bench scale --n 10000,100000",
        "bench scale --n 10000,100000 --peer chroma --server postgresql://localhost/postgres",
    ),
    "blocks append": 'blocks append human "Prefers short answers"',
    "blocks delete": "blocks delete human",
    "blocks history": "blocks history human",
    "blocks list": "blocks list",
    "blocks replace": 'blocks replace human "short" "very short"',
    "blocks set": 'blocks set human "Name: Ada" --limit 2000 --description "About the user"',
    "blocks show": "blocks show human",
    "doctor": "doctor",
    "erasures": "erasures --namespace team",
    "export": "export --user alice -o alice.jsonl",
    "feedback export": "feedback export --out prefs.jsonl",
    "feedback rate": "feedback rate ${ID:0:14} down --user alice",
    "forget": "forget $OLD --user alice",
    "graph decay-aspects": "graph decay-aspects --user alice",
    "graph dedupe": "graph dedupe --user alice",
    "graph entities": "graph entities --user alice --query battery",
    "graph entity": "graph entity Derek --user alice",
    "graph invalidate": 'graph invalidate efoil has_battery "48V battery" --at 2024-09-01',
    "graph merge": 'graph merge Derek "D. Smith" --user alice',
    "graph neighbors": "graph neighbors Derek --hops 2 --at 2024-03-01",
    "graph relations": "graph relations --user alice --entity efoil",
    "graph split": 'graph split Derek "D. Smith" --user alice',
    "graph timeline": "graph timeline efoil --user alice",
    "history": "history $ID --user alice",
    "import": "import backup.jsonl",
    "documents delete": (
        "documents delete notes/old.md --user alice",
        "documents delete --missing",
    ),
    "documents list": "documents list --missing",
    "ingest": "ingest docs/runbook.md --user alice --title Runbook",
    "inject call": 'inject call search_memory \'{"query": "release train"}\'',
    "inject context": 'inject context "when does the release train leave?" --budget 500',
    "inject tools": "inject tools --strategy self_editing",
    "jobs dead": "jobs dead",
    "jobs list": "jobs list --status pending -k 20",
    "jobs retry": "jobs retry $JOB",
    "jobs status": "jobs status --json",
    "keys create": "keys create --user alice",
    "keys list": "keys list",
    "keys revoke": "keys revoke $KEY",
    "lifecycle consolidate": "lifecycle consolidate -n agent:ops",
    "lifecycle restore": "lifecycle restore $ID -n agent:ops",
    "lifecycle retention": "lifecycle retention --until-done",
    "lifecycle set-retention": "lifecycle set-retention 30 --category episodic -n agent:ops",
    "lifecycle status": "lifecycle status -n agent:ops",
    "list": "list --user alice -k 20 --offset 0 --type decision --tag ops --deleted",
    "maintenance dedup": "maintenance dedup --user alice",
    "maintenance diagnose": "maintenance diagnose",
    "maintenance reindex-vectors": "maintenance reindex-vectors --work-mem 4GB",
    "maintenance resume": "maintenance resume retention_sweep",
    "maintenance run": "maintenance run",
    "maintenance runs": "maintenance runs --kind cycle",
    "maintenance status": "maintenance status",
    "maintenance track": "maintenance track",
    "mcp": (
        "mcp --user alice",
        "mcp --user alice --no-worker",
        "mcp --user alice --no-schedules",
    ),
    "migrate-store": "migrate-store --from sqlite:///$HOME/.engram/engram.db --to postgresql://engram@db/engram",
    "mine": 'mine chat.json --wing "Efoil rebuild" --session "2026-04-30 evening" --kind project',
    "observe": 'observe run.log --task "Compare vector stores" --score 8.5 --run run-42',
    "org audit": "org audit --actor planner",
    "org history": "org history $FACT_ID",
    "org list": "org list --category adr --all",
    "org policies": "org policies",
    "org query": 'org query "web framework" --tag web',
    "org retract": 'org retract $FACT_ID --author hana --reason "moved to the handbook"',
    "org write": 'org write "PRs require 2 approvals" --category policy --author hana',
    "palace resolve": 'palace resolve "§ W-001/R-01/D-003"',
    "procedure list": "procedure list",
    "procedure propose": (
        'procedure propose --task "Size the efoil wiring" --error "the fuse blew at 40 A"'
        ' --step "used 12-AWG wire"'
    ),
    "procedure show": "procedure show $PROC",
    "procedure skill": "procedure skill $PROC skills/",
    "purge": "purge --user alice",
    "quickstart": "quickstart",
    "recall": 'recall "where is the staging database?" --user alice --budget 400',
    "reindex": "reindex",
    "review approve": 'review approve 12 --note "she moved"',
    "review graph": "review graph --user alice",
    "review list": "review list --user alice",
    "review prune": "review prune --user alice",
    "review reject": 'review reject 13 --note "still true"',
    "runs list": "runs list --status completed --task-type research",
    "runs of": "runs of ${OBS:0:14}",
    "runs show": "runs show run-7",
    "search": 'search "staging database" --user alice -k 10',
    "serve": (
        "serve",
        "serve --no-worker",
        "serve --no-schedules",
        "serve --root-path /engram",
        "serve --forwarded-allow-ips 172.17.0.1",
    ),
    "sessions checkpoint": 'sessions checkpoint s1 --trigger pre_compaction --context "halfway"',
    "sessions checkpoints": "sessions checkpoints s1 --trigger session_end",
    "sessions end": "sessions end s1 --transcript session.txt",
    "sessions list": "sessions list",
    "sessions prune": "sessions prune",
    "sessions recover": "sessions recover s1",
    "shared list": "shared list --agent alice",
    "shared publish": 'shared publish alice "Backups run at 02:00 UTC"',
    "shared retract": "shared retract alice $PUB --reason moved",
    "shared search": "shared search backups --exclude-agent bob",
    "show": "show $ID --user alice",
    "worker": "worker",
}


def attach(group: click.Group, path: tuple[str, ...] = ()) -> None:
    """Append its example to the help of every command under ``group``."""
    for name, command in group.commands.items():
        here = (*path, name)
        if isinstance(command, click.Group):
            attach(command, here)
            continue
        example = EXAMPLES.get(" ".join(here))
        if example is not None:
            calls = (example,) if isinstance(example, str) else example
            title = "Example:" if len(calls) == 1 else "Examples:"
            # \b keeps click from re-wrapping the lines.
            shown = "\b\n" + title + "".join(f"\n  engram {call}" for call in calls)
            command.epilog = f"{command.epilog}\n\n{shown}" if command.epilog else shown
