"""SKILL.md files for proposed procedures (seed 002: "the proposal is also written as a
portable SKILL.md file following the Agent Skills format for git-native versioning").

The Agent Skills format is a folder named after the skill holding ``SKILL.md``: YAML
frontmatter with ``name`` (lowercase letters, digits, hyphens; at most 64) and
``description`` (what it does and when to use it), then a Markdown body. The body holds
the procedure's activation tier (when / what / why) and its execution steps; the
description is its discovery tier.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from engram.errors import InvalidInputError
from engram.procedures.proposer import Procedure

#: Agent Skills: ``description`` is at most 1024 characters.
DESCRIPTION_CHARS = 1024


def _yaml_string(text: str) -> str:
    # A JSON string is a valid YAML double-quoted scalar: no quoting rules to get wrong.
    return json.dumps(" ".join(text.split()), ensure_ascii=False)


def skill_markdown(procedure: Procedure) -> str:
    """The SKILL.md text of ``procedure``."""
    p = procedure
    lines = [
        "---",
        f"name: {p.name}",
        f"description: {_yaml_string(p.discovery[:DESCRIPTION_CHARS])}",
        "metadata:",
        f"  confidence: {_yaml_string(f'{p.confidence:g}')}",
        f"  proposer: {_yaml_string(p.method)}",
    ]
    if p.memory_id:
        lines.append(f"  engram-memory-id: {_yaml_string(p.memory_id)}")
    title = p.name.replace("-", " ").capitalize()
    lines += ["---", "", f"# {title}", "", p.discovery, ""]
    for heading, text in (("When to use", p.condition), ("What to do", p.action)):
        if text:
            lines += [f"## {heading}", "", text, ""]
    if p.rationale:
        lines += ["## Why", "", p.rationale, ""]
    lines += ["## Steps", ""]
    lines += [f"{n}. {step}" for n, step in enumerate(p.steps, 1)]
    return "\n".join(lines) + "\n"


def write_skill(procedure: Procedure, directory: str | os.PathLike[str]) -> Path:
    """Write ``<directory>/<name>/SKILL.md`` (replacing an earlier version of the same
    skill, atomically) and return its path."""
    root = Path(directory).expanduser()
    folder = root / procedure.name
    target = folder / "SKILL.md"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".SKILL.", suffix=".md")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(skill_markdown(procedure))
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise InvalidInputError(
            f"cannot write SKILL.md under {str(root)!r}: {exc.strerror or exc}; pass a "
            "directory you can write to"
        ) from None
    return target
