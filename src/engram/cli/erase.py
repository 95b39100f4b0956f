"""``engram forget --all`` (audited bulk erase) and ``engram erasures`` (its audit):
thin calls of ``mem.erasure``.

``--filter KEY=VALUE`` takes the native filter grammar (docs/recall.md, "Filters"): a
record field (``type=decision``) or ``metadata.<key>=<value>``; a value that reads as
JSON (``3``, ``true``, ``null``, ``"x"``) is that value, anything else is a string.
"""

from __future__ import annotations

import getpass
import json
from typing import Any

import click

from engram.cli import render
from engram.cli.common import (
    Ctx,
    json_command,
    limit_option,
    scope_options,
    typed_value,
)
from engram.errors import InvalidInputError

filter_option = click.option(
    "--filter",
    "filter_pairs",
    multiple=True,
    metavar="KEY=VALUE",
    help="Only memories where KEY (type, category, session_id, metadata.<key> ...) is VALUE.",
)


def parse_filters(pairs: tuple[str, ...]) -> dict[str, Any] | None:
    """``("metadata.k=3", "type=fact")`` as native filters; tags repeat to require all."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise InvalidInputError(f"--filter takes KEY=VALUE, got {pair!r}")
        value = typed_value(raw)  # the rule add --meta stores by
        if key == "tags":
            out.setdefault("tags", []).append(str(value))
        elif key in out:
            raise InvalidInputError(f"--filter {key} given twice: get_all compares one value")
        else:
            out[key] = value
    return out or None


def _actor() -> str:
    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):  # no user name for this uid (containers)
        return "cli"


def forget_all(
    obj: Ctx,
    scope: dict[str, Any],
    filters: dict[str, Any] | None,
    *,
    yes: bool,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Count what the erase would remove, confirm, erase, and print the audit row."""
    if all(v is None for v in scope.values()):
        raise InvalidInputError(
            "forget --all needs its target: --namespace, --user, --agent or --run "
            "(--namespace default for the default namespace)"
        )
    with obj.memory(must_exist=True) as mem:
        plan = mem.erasure.erase(**scope, filters=filters, dry_run=True)
        what = render.plural(plan.memories, "memory", "memories")
        where = f"namespace {plan.namespace!r}" + (" (filtered)" if filters else "")
        if plan.nested:  # a user's /shared space and agents' notes go with it
            where += " and " + ", ".join(repr(ns) for ns in plan.nested)
        if not plan.held:  # the audit row would record an erase of nothing
            render.err_console.print(
                f"warning: {where} holds nothing (a mistyped --user or --namespace?); "
                "engram doctor lists the namespaces",
                markup=False,
            )
        if dry_run:
            if as_json:
                render.emit_json(plan.to_dict())
            else:
                render.console.print(f"would erase {what} from {where}", markup=False)
            return
        if not yes:
            if as_json:
                raise InvalidInputError("forget --all --json needs --yes (or --dry-run)")
            extra = "" if filters else " and everything else the namespace holds"
            click.confirm(
                f"Erase {what}{extra} from {where} for good? An audit row stays.",
                abort=True,
                err=True,
            )
        result = mem.erasure.erase(**scope, filters=filters, actor=_actor())
    if as_json:
        render.emit_json(result.to_dict())
    else:
        audit = result.audit
        assert audit is not None  # not a dry run
        render.console.print(
            f"erased {render.plural(result.memories, 'memory', 'memories')} from {where} "
            f"(audit #{audit.id})",
            markup=False,
        )


@click.command()
@scope_options
@click.option("--all-namespaces", is_flag=True, help="The audit of every namespace.")
@limit_option(100)
@json_command
def erasures(
    obj: Ctx, scope: dict[str, Any], all_namespaces: bool, limit: int, as_json: bool
) -> None:
    """Show the erase audit, newest first: who erased what, when, with which filters."""
    with obj.memory(must_exist=True) as mem:
        rows = mem.erasure.audit(**scope, all_namespaces=all_namespaces, limit=limit)
    if render.said(as_json, [r.to_dict() for r in rows], rows, "no erasures recorded"):
        return
    for r in rows:
        render.console.print(
            f"#{r.id} {r.created_at.isoformat(timespec='seconds')} {r.namespace} "
            f"by {r.actor or '-'}: {render.plural(r.memories, 'memory', 'memories')}"
            + ("" if r.whole_namespace else f" matching {json.dumps(r.filters)}"),
            markup=False,
            soft_wrap=True,
        )
