"""An agent's own notes: the third register the offline extractor reads (task x23).

A coding, ops or support agent writes its memories as a log: "Decided to use SQLModel
for billing", "go test ./... hung on the addrcheck package; added t.Cleanup(...)",
"We use pnpm, not npm", "Fixed by pinning urllib3<2". Read as a person's plain
statement, the dropped subject became the user ("User fixed by docker system prune
-af.", "User hung on the addrcheck package"), and "we" became "User and others". In a
note of this register (it names code, a path, a command or the work around them, and
no one's first person singular):

* a command or a backticked span that opens a sentence is its subject, kept verbatim
  in backticks ("`go test ./...` hung on the addrcheck package");
* "we", "our" and a dropped subject are the team: "The team decided to use SQLModel
  ...", "The team's Dockerfile for the worker is ...";
* a passive fragment ("fixed by X", "caused by X") and a subjectless clause after the
  first of a sentence ("...; added ctx cancellation") state nothing on their own: the
  verbatim note already holds them;
* the first line of an error or a stack trace ("KeyError: 'tenant_id'", "panic: ...")
  is output, not a statement.

Measured on ``src/engram/data/agent_notes.json`` (docs/benchmarks.md, "Agent notes
(x23)").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol, TypeVar

from engram.pipeline import offline_forms, patterns, turns

#: Who "we" and a dropped subject are in an agent's note.
TEAM = "The team"

# A token only code, a path, a command line or a machine writes: a backticked span, a
# path ("db/migrations", "~/.cache", "/etc/app"), a file or dotted name ("ci.yml",
# "datetime.now"), snake_case or an env var ("tenant_id", "ALLOWED_ORIGINS"), a flag
# ("-n 4", "--delete"), a call ("t.Cleanup(srv.Close)"), a version ("v2.14.0"), a port
# ("localhost:6379", ":8000"), an HTTP status family ("502s").
_CODE_TOKEN = re.compile(
    r"`[^`]+`"
    r"|(?:^|\s)(?:~|\.{1,2})?/\w"
    r"|\w/\w"
    r"|\b[A-Za-z_]\w*\.(?:[a-z]{1,5}|[A-Za-z_]\w*\()"
    r"|\b[a-z0-9]+_[a-z0-9_]+\b|\b[A-Z0-9]+_[A-Z0-9_]+\b"
    r"|(?:^|\s)--?[a-zA-Z]"
    r"|\bv\d+\.\d+"
    r"|\w:\d{2,5}\b"
    r"|\b[1-5]\d\ds\b"
    # a name that mixes letters and digits the way only the trade spells (task x24):
    # "Argon2id", "k8s", "utf8mb4", "UUIDv7", "IPv6"; not a "PS5" or an "M25"
    r"|\b[A-Za-z]+\d+[a-z]+\w*|\b[A-Za-z]*[A-Z][A-Za-z]*v\d+\b"
)
# Words only the work around code uses: one of them makes a sentence an agent's note
# ("Decided to use SQLModel for the billing service", "Paired with Lena on the caching
# bug"). Tools and stacks by name, and the trade's own nouns; not those that are
# everyday words or names too ("Pip" the dog, "rest", "yarn", "celery", "Rust", "CD",
# "git", "prod").
_TRADE_WORDS = patterns.word_set(
    """
    api apis backend backfill ci config cron db devops dockerfile endpoint endpoints
    frontend hotfix k8s kubernetes lint linter linting middleware migration migrations
    monolith monorepo oncall orm postmortem refactor refactored repo repos
    rollback rollout runbook schema sdk staging webhook webhooks websocket codebase
    changelog repro stacktrace traceback caching cache debug debugging deploy deployed
    deploys deployment deployments docker podman terraform ansible nginx redis postgres
    postgresql mysql sqlite mongodb kafka rabbitmq sqlalchemy sqlmodel django fastapi
    nodejs npm pnpm webpack vite typescript javascript python golang kotlin grpc graphql
    json yaml toml xml csv pytest cypress github gitlab jenkins heroku vercel netlify
    aws gcp azure s3 ec2 sentry grafana prometheus datadog okta sendgrid elasticsearch
    opentelemetry uvicorn gunicorn gradle kubectl
    hashing encryption oauth saml sso jwt tls dns cdn uuid uuids cli gpu gpus cuda llm
    dataset datasets backlog
    """
)
# Words the work shares with everyday talk: two of them make a note ("Rolled back the
# release after error rates doubled in the build").
_WORK_WORDS = patterns.word_set(
    """
    branch bug bugs build builds cluster commit commits container database error errors
    gateway image ingress merge merged outage pipeline pod pods production queue rate
    release releases server service services test tests ticket tickets timeout worker
    customer customers refund refunds escalated escalate tier invoice export logs
    alert alerts dashboard feature features flag flags version
    """
)
_WORD = re.compile(r"[a-z0-9]+")
# First person singular or the user named: a note that has them is the user's own.
# "I" is upper case only ("i" may be a loop variable); "my" and "me" open a sentence as
# "My" and "Me" ("My manager is Tomasz" was read as the team's, round seventeen).
# Not inside a token joined by a slash ("I/O", "A/B"; task notes27).
_OWNER = re.compile(
    r"(?<!/)\b(?:I|I'm|I've|I'd|I'll|[Mm]y|[Mm]e|[Mm]ine|[Mm]yself|[Uu]ser(?:'s)?)\b(?!/)"
)
_GROUP = re.compile(r"\b(?:we|we're|we've|we'll|we'd|our|ours|us|ourselves)\b", re.I)


def is_note(text: str) -> bool:
    """Whether ``text`` reads as an agent's note: it names code, a path or a command,
    one word of the trade or two of the work around it."""
    if _CODE_TOKEN.search(text):
        return True
    words = set(_WORD.findall(text.lower()))
    return not words.isdisjoint(_TRADE_WORDS) or len(words & _WORK_WORDS) >= 2


def teams(sentence: str) -> bool:
    """Whether a note's sentence is the team's: it has no first person singular and no
    user named, so "we", "our" and a dropped subject are the team's."""
    return _OWNER.search(sentence) is None


_WE_FORMS = (
    (re.compile(r"\bwe\s+were\b", re.I), "I was"),
    (re.compile(r"\bwe\s+are\b", re.I), "I am"),
    (re.compile(r"\bwe're\b", re.I), "I'm"),
    (re.compile(r"\bwe've\b", re.I), "I've"),
    (re.compile(r"\bwe'll\b", re.I), "I'll"),
    (re.compile(r"\bwe'd\b", re.I), "I'd"),
    (re.compile(r"\bwe\b", re.I), "I"),
    (re.compile(r"\bours\b", re.I), "mine"),
    (re.compile(r"\bour\b", re.I), "my"),
    (re.compile(r"\bus\b", re.I), "me"),
    (re.compile(r"\bourselves\b", re.I), "myself"),
)


def as_first_person(sentence: str) -> str:
    """The team's sentence with "we" as "I", so the first-person rules read it and
    :func:`as_team` names the team: "We use pnpm" -> "I use pnpm"."""
    if _GROUP.search(sentence) is None:
        return sentence
    for pattern, replacement in _WE_FORMS:
        sentence = pattern.sub(replacement, sentence)
    return sentence


_USER_NAMED = re.compile(r"\bUser\b")


def as_team(fact: str) -> str:
    """A fact read for the owner of a team's sentence, naming the team: "User uses
    pnpm." -> "The team uses pnpm.", "... User's Dockerfile" -> "... the team's ..."."""
    fact = _USER_NAMED.sub(lambda m: TEAM if m.start() == 0 else TEAM.lower(), fact)
    return _TEAMS_TEAM.sub(r"\1", fact)  # "Our team deploys" is the team itself


_TEAMS_TEAM = re.compile(r"\b([Tt]he team)'s team\b")


# "Fixed by pinning urllib3<2", "caused by clock skew": a participle that states what
# was done to something the fragment does not name.
_PASSIVE = re.compile(
    r"^(?:(?:just|then|finally|also)\s+)?\w+(?:ed|en|ught|ung)\s+by\b|"
    r"^(?:(?:just|then|finally|also)\s+)?(?:hung|stuck|blocked|broken)\s+(?:on|at|in)\b",
    re.I,
)


def passive_fragment(sentence: str) -> bool:
    """Whether a subjectless sentence is a passive fragment: "Fixed by X"."""
    return _PASSIVE.match(sentence.strip()) is not None


# The first line of an error, a warning or a stack trace: "KeyError: 'tenant_id'",
# "java.lang.IllegalStateException: ...", "panic: runtime error", "Traceback (...)".
_OUTPUT = re.compile(
    r"^(?:[\w.]*(?:Error|Exception|Warning|Exit|Interrupt)\b[^:]{0,40}:"
    r"|(?:panic|fatal|error|FATAL|ERROR|E\d{4}|warning):\s"
    r"|Traceback\b|Exception in thread\b|\s*at\s+[\w.$]+\()"
)


def is_output(sentence: str) -> bool:
    """Whether a note's sentence is what a program printed, not a statement."""
    return _OUTPUT.match(sentence) is not None


# A command line that opens a sentence, up to the verb that says what it did: "go test
# ./... hung", "npm ci failed", "kubectl apply fails". The tool's name must be one a
# shell runs and the verb one that reports a run.
_TOOLS = "|".join(re.escape(t) for t in sorted(patterns.TOOLS, key=len, reverse=True))
_RAN_VERBS = (
    "hung|hangs|hang|failed|fails|fail|errors|errored|crashed|crashes|crash|reports|"
    "reported|returned|returns|showed|shows|printed|prints|complains|complained|"
    "rejected|timed|passes|passed|exited|exits|pointed|points|segfaults|segfaulted|"
    "broke|breaks|succeeded|succeeds|works|worked|took|takes|warns|warned|outputs|"
    "refuses|refused|stalls|stalled|gives|gave"
)
_COMMAND_OPENING = re.compile(
    rf"^(?P<command>(?:{_TOOLS})(?:\s+(?!(?:{_RAN_VERBS})\b)\S+){{0,6}}?)"
    rf"(?=\s+(?:{_RAN_VERBS})\b)"
)
_TICKED_OPENING = re.compile(r"^`[^`]+`\s+\w")


def quote_command(sentence: str) -> str:
    """``sentence`` with a bare command line that opens it put in backticks, so it is
    read whole as the subject: "go test ./... hung on X" -> "`go test ./...` hung on
    X"."""
    found = _COMMAND_OPENING.match(sentence)
    if found is None:
        return sentence
    return f"`{found['command']}`{sentence[found.end('command') :]}"


def command_subject(sentence: str) -> bool:
    """Whether a sentence opens with a backticked command and a verb: its subject."""
    return _TICKED_OPENING.match(sentence) is not None


class _Fact(Protocol):
    @property
    def type(self) -> str: ...


_F = TypeVar("_F", bound=_Fact)


def claims(
    sentence: str, read: Callable[[str], _F | None], trim: Callable[[str], str]
) -> tuple[list[_F], bool]:
    """The facts ``read`` gives one sentence of a note, and whether they are the team's
    (name them with :func:`as_team`): a command that opens it is its subject; "we" and a
    dropped subject are the team unless the sentence is the owner's own ("I", "my",
    "user"); a passive fragment, a subjectless clause after the first and a program's
    output give none. ``trim`` drops what opens a sentence without adding to it."""
    if is_output(sentence):
        return [], False
    sentence = quote_command(sentence)
    team = teams(sentence)
    text = as_first_person(sentence) if team else sentence
    pieces = turns.clauses(text)
    found = [read(piece) for piece in pieces]
    found = [
        None if fact is None or _leans(trim(piece), index, fact) else fact
        for index, (piece, fact) in enumerate(zip(pieces, found, strict=True))
    ]
    kept = [fact for fact in found if fact is not None]
    if len(pieces) > 1 and len(kept) < len(found):
        # as the chat reader does: the whole sentence keeps what a clause leaned on
        whole = read(text)
        if whole is not None and not _leans(trim(text), 0, whole):
            kept = [whole]
    return kept, team


def _leans(opening: str, index: int, fact: _Fact) -> bool:
    """Whether a clause of a note states nothing alone: a passive fragment ("Fixed by
    X"), or a subjectless clause after the first ("...; added ctx cancellation"),
    unless it states a decision."""
    if passive_fragment(opening):
        return True
    return index > 0 and fact.type != "decision" and offline_forms.elided(opening) is not None
