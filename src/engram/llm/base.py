"""The LLM provider contract (seed 004's provider abstraction).

seed 004: "All LLM calls go through an LlmProvider interface with two methods:
generate(prompt, opts?) ... and available()". "The interface is intentionally minimal —
no streaming, no chat history, no tool use."
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

#: seed 004: "Each generate call sets an AbortController timeout (default 45,000 ms)",
#: shared by the providers that ask a server.
DEFAULT_TIMEOUT_S = 45.0
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


class Named:
    """A provider's ``who``: its kind (``name``) and the ``model`` it asks."""

    name: str
    model: str

    @property
    def who(self) -> str:
        """How errors name this provider."""
        return described(self.name, self.model)


class ServerProvider(Named):
    """What the providers that ask a model server over HTTP share: the model and the
    server (each provider's defaults where the config leaves them empty), the timeout,
    and whether a schema is sent for the server to enforce."""

    #: The model asked when ``[llm] model`` is empty.
    default_model: str
    #: The server asked when ``[llm] base_url`` is empty.
    default_base_url: str

    def __init__(
        self,
        *,
        model: str = "",
        base_url: str = "",
        timeout: float = DEFAULT_TIMEOUT_S,
        structured_output: bool = True,
    ) -> None:
        self.model = model or self.default_model
        self.base_url = (base_url or self.default_base_url).rstrip("/")
        self.timeout = timeout
        self.structured_output = structured_output

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model!r}, base_url={self.base_url!r})"
