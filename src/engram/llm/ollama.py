"""The Ollama provider: ``POST /api/generate`` with ``stream: false`` (seed 004)."""

from __future__ import annotations

from typing import Any

from engram.errors import LlmError
from engram.llm.base import JsonSchema, ServerProvider
from engram.llm.http import excerpt, join, reachable, send

#: seed 004: "The default base URL is http://localhost:11434 ..."
DEFAULT_BASE_URL = "http://localhost:11434"
#: seed 004: "... and the default model is qwen3:4b".
DEFAULT_MODEL = "qwen3:4b"


class OllamaProvider(ServerProvider):
    """Asks an Ollama server.

    With a ``schema`` and ``structured_output`` on, the schema goes in ``format``
    (Ollama 0.5+ constrains the answer to it). An older server answers 400 about
    ``format``; the provider then asks for plain JSON mode (``format: "json"``) from
    that call on.
    """

    name = "ollama"
    default_model = DEFAULT_MODEL
    default_base_url = DEFAULT_BASE_URL
    #: False (on the instance) once the server has refused a schema.
    _schema_format = True

    def _format(self, schema: JsonSchema | None) -> JsonSchema | str | None:
        if schema is None or not self.structured_output:
            return None
        return schema if self._schema_format else "json"

    def generate(
        self, prompt: str, *, schema: JsonSchema | None = None, timeout: float | None = None
    ) -> str:
        """The answer to ``prompt`` (see :class:`~engram.llm.LlmProvider`)."""
        limit = self.timeout if timeout is None else timeout
        url = join(self.base_url, "/api/generate")
        payload: dict[str, Any] = {"model": self.model, "prompt": prompt, "stream": False}
        fmt = self._format(schema)
        if fmt is not None:
            payload["format"] = fmt
        reply = send("POST", url, who=self.who, error=LlmError, timeout=limit, payload=payload)
        if reply.status == 400 and isinstance(fmt, dict) and "format" in reply.text.lower():
            # A server older than structured outputs takes only "json" in ``format``.
            self._schema_format = False
            payload["format"] = "json"
            reply = send("POST", url, who=self.who, error=LlmError, timeout=limit, payload=payload)
        data = reply.json(self.who, LlmError)
        text = data.get("response") if isinstance(data, dict) else None
        if not isinstance(text, str):
            raise LlmError(
                f"{self.who}: {url} answered without a 'response' text: {excerpt(reply.text)}"
            )
        return text

    def available(self) -> bool:
        """seed 004: ``GET /api/tags`` answers within 3 s."""
        return reachable(join(self.base_url, "/api/tags"))
