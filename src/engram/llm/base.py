"""The LLM provider contract (seed 004's provider abstraction).

seed 004: "All LLM calls go through an LlmProvider interface with two methods:
generate(prompt, opts?) ... and available()". "The interface is intentionally minimal —
no streaming, no chat history, no tool use."
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

#: A JSON schema, as a plain dict (``{"type": "object", "properties": {...}}``).
JsonSchema = dict[str, Any]


@runtime_checkable
class LlmProvider(Protocol):
    """Something that turns a prompt into text.

    ``name`` is the provider kind (``ollama``, ``openai``, ``cli``); ``model`` the model
    it asks, recorded with what the pipeline writes.
    """

    name: str
    model: str

    def generate(
        self, prompt: str, *, schema: JsonSchema | None = None, timeout: float | None = None
    ) -> str:
        """The model's raw answer to ``prompt``.

        ``schema`` asks for JSON of that shape where the server can enforce it (the
        answer is still raw text: pass it to :func:`engram.llm.parse_json`);
        ``timeout`` overrides the provider's own, in seconds. Raises
        :class:`~engram.errors.LlmError` on a timeout, an HTTP error or a failed command.
        """
        ...

    def available(self) -> bool:
        """A cheap health check: can :meth:`generate` be expected to work? Never raises."""
        ...


def described(name: str, model: str) -> str:
    """How errors name a provider: ``ollama model 'qwen3:4b'``."""
    return f"{name} model {model!r}"
