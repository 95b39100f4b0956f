"""The LLM's judgement on a changed fact (issue 28, FEATURES G2).

When an LLM is configured, the ``extract`` job asks it about each fact whose text gave
no signal ("also", a change verb) while its source holds another target of the same
relation: does the new memory mean the old fact no longer holds? The answer decides
the close (``engram.pipeline.closing``). It runs in the job, off the write path (seed
004: no network inside the write transaction), and fails open: no answer, or a
failed call, leaves the decision to the declared and learned cardinality.
"""

from __future__ import annotations

import logging
from typing import Any

from engram.pipeline.closing import Judge
from engram.pipeline.decisions import Generator
from engram.store.protocols import MemoryStore
from engram.store.protocols.graph import Relation

log = logging.getLogger("engram.pipeline")

#: The answer: {replaces, reasoning}.
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"replaces": {"type": "boolean"}, "reasoning": {"type": "string"}},
    "required": ["replaces", "reasoning"],
}
#: How the prompt opens (tests tell it from the other prompts by it).
OPENING = "You keep a knowledge graph of facts that change over time."


def prompt(old_text: str, fact: str, new_text: str) -> str:
    """The question asked about one pair."""
    return (
        f"{OPENING} An earlier memory stated a fact; a later memory states something "
        "about the same subject and relation.\n\n"
        f"Earlier memory: {old_text}\nFact it stated: {fact}\nLater memory: {new_text}\n\n"
        "Does the later memory mean the earlier fact no longer holds (it was replaced: "
        "moved, switched, swapped, changed jobs), or do both hold at once (one more, a "
        "repeat, another detail)? Answer with only a JSON object: "
        '{"replaces": true|false, "reasoning": "one sentence"}.'
    )


def llm_judge(
    provider: Generator,
    memories: MemoryStore,
    namespace: str,
    *,
    timeout: float,
    warnings: list[str],
) -> Judge:
    """A ``Judge`` that asks ``provider``; a failure is a warning and no answer."""
    from engram.llm import parse_json  # the provider package; only needed on this path

    def judge(holding: Relation, new_text: str) -> bool | None:
        old = memories.get(namespace, holding.source_memory_id or "")
        fact = f"{holding.source} {holding.relation_type.replace('_', ' ')} {holding.target}"
        try:
            raw = provider.generate(
                prompt(old.content if old else fact, fact, new_text), schema=SCHEMA, timeout=timeout
            )
            data = parse_json(raw)
        except Exception as exc:  # fails open: the cardinality decides
            warnings.append(f"change check unavailable for {fact!r}: {str(exc)[:120]}")
            return None
        if not isinstance(data, dict) or not isinstance(data.get("replaces"), bool):
            warnings.append(f"change check gave no usable answer for {fact!r}")
            return None
        return bool(data["replaces"])

    return judge
