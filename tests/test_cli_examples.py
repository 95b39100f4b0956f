"""Every ``engram`` command shows an example in its ``--help`` (new-user pass, round
three: 110 of 112 commands showed none), and every example is a call the command
accepts: its options exist, take the values given, and its arguments are all there.
"""

from __future__ import annotations

import shlex

import click
import pytest
from click.testing import CliRunner

from engram.cli.examples import EXAMPLES
from engram.cli.main import cli


def leaves(group: click.Group, path: tuple[str, ...] = ()) -> dict[str, click.Command]:
    out: dict[str, click.Command] = {}
    for name, command in group.commands.items():
        here = (*path, name)
        if isinstance(command, click.Group):
            out.update(leaves(command, here))
        else:
            out[" ".join(here)] = command
    return out


COMMANDS = leaves(cli)


def filled(value: object) -> bool:
    """An argument the parser found words for (it marks the others unset)."""
    return isinstance(value, str) or (isinstance(value, list | tuple) and len(value) > 0)


def test_every_command_has_an_example_and_every_example_a_command() -> None:
    assert sorted(set(COMMANDS) - set(EXAMPLES)) == []
    assert sorted(set(EXAMPLES) - set(COMMANDS)) == []


@pytest.mark.parametrize("path", sorted(COMMANDS))
def test_the_help_ends_with_an_example_the_command_accepts(path: str) -> None:
    shown = CliRunner().invoke(cli, [*path.split(), "--help"])
    assert shown.exit_code == 0, shown.output
    listed = EXAMPLES[path]
    calls = (listed,) if isinstance(listed, str) else listed
    title = "Example:" if len(calls) == 1 else "Examples:"
    assert title + "".join(f"\n    engram {call}" for call in calls) in shown.output
    for example in calls:
        accepted(path, example)


def accepted(path: str, example: str) -> None:
    words = shlex.split(example)
    assert words[: len(path.split())] == path.split()
    command = COMMANDS[path]
    ctx = click.Context(command, info_name=path, parent=click.Context(cli))
    # The parser alone: unknown options and options missing their value fail here;
    # values are not converted (an example's files need not exist in the test).
    given, rest, _ = command.make_parser(ctx).parse_args(words[len(path.split()) :])
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    missing = [a.name for a in arguments if a.required and not filled(given.get(a.name))]
    assert missing == [], f"{path}: {example!r} leaves out {missing}"
    assert rest == [], f"{path}: {example!r} has words no argument takes: {rest}"
