"""The OpenAI-compatible provider: ``POST {base}/chat/completions``.

One provider for every server that speaks OpenAI's chat completions protocol: OpenAI,
OpenRouter, vLLM, llama.cpp's ``llama-server``, LM Studio (FEATURES P7).
"""

from __future__ import annotations

import json
import re
import threading
from typing import Any

from engram.errors import LlmError
from engram.llm.base import DEFAULT_TIMEOUT_S, JsonSchema, ServerProvider
from engram.llm.http import bearer, excerpt, join, reachable, send

DEFAULT_BASE_URL = "https://api.openai.com/v1"
#: Used when ``[llm] model`` is empty: a small, cheap chat model.
DEFAULT_MODEL = "gpt-4o-mini"

#: ``response_format`` from strongest to weakest. A server that rejects one (400 naming
#: it) gets the next: json_schema (OpenAI, vLLM, recent llama.cpp), json_object (older
#: servers), then none (the prompt alone asks for JSON).
_FORMATS = ("json_schema", "json_object", "none")
#: Words in a 400 body that mean "this response_format is not supported here".
_FORMAT_COMPLAINT = re.compile(r"response_format|json_schema|json_object", re.I)
#: OpenAI's rule for ``json_schema.name``.
_NAME_CHARS = re.compile(r"[^A-Za-z0-9_-]")


def _schema_name(schema: JsonSchema) -> str:
    title = schema.get("title")
    name = _NAME_CHARS.sub("_", title)[:64] if isinstance(title, str) else ""
    return name or "response"


def _response_format(level: str, schema: JsonSchema) -> dict[str, Any] | None:
    if level == "json_schema":
        return {
            "type": "json_schema",
            "json_schema": {"name": _schema_name(schema), "schema": schema, "strict": True},
        }
    if level == "json_object":
        return {"type": "json_object"}
    return None


def _content(data: Any) -> str | None:
    """``choices[0].message.content``; a list of parts (some servers) is joined."""
    try:
        message = data["choices"][0]["message"]
    except (KeyError, IndexError, TypeError):
        return None
    if not isinstance(message, dict):
        return None
    content = message.get("content")
    if isinstance(content, list):
        parts = [p.get("text") for p in content if isinstance(p, dict)]
        return "".join(p for p in parts if isinstance(p, str))
    return content if isinstance(content, str) else None


class OpenAICompatProvider(ServerProvider):
    """Asks an OpenAI-compatible chat completions server.

    The prompt is one user message. With a ``schema`` and ``structured_output`` on, it
    sends ``response_format`` as a strict ``json_schema``; a server that answers 400
    about it gets ``json_object``, then no ``response_format`` at all. What worked is
    remembered per schema, so the next call with it goes straight there. The key comes
    from the environment variable ``api_key_env`` names, sent as a bearer token.
    """

    name = "openai"
    default_model = DEFAULT_MODEL
    default_base_url = DEFAULT_BASE_URL

    def __init__(
        self,
        *,
        model: str = "",
        base_url: str = "",
        api_key_env: str = "OPENAI_API_KEY",
        timeout: float = DEFAULT_TIMEOUT_S,
        structured_output: bool = True,
    ) -> None:
        super().__init__(
            model=model, base_url=base_url, timeout=timeout, structured_output=structured_output
        )
        self.api_key_env = api_key_env
        self._levels: dict[str, int] = {}  # schema (as JSON) -> index into _FORMATS
        self._lock = threading.Lock()

    def _headers(self) -> dict[str, str]:
        # Read per call: a key rotated in the environment is picked up.
        return bearer(self.api_key_env)

    def generate(
        self, prompt: str, *, schema: JsonSchema | None = None, timeout: float | None = None
    ) -> str:
        """The answer to ``prompt`` (see :class:`~engram.llm.LlmProvider`)."""
        limit = self.timeout if timeout is None else timeout
        url = join(self.base_url, "/chat/completions")
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": "user", "content": prompt}],
            "stream": False,
        }
        constrained = schema is not None and self.structured_output
        key = json.dumps(schema, sort_keys=True) if constrained else ""
        with self._lock:
            level = self._levels.get(key, 0) if constrained else len(_FORMATS) - 1
        while True:
            fmt = _response_format(_FORMATS[level], schema) if schema is not None else None
            if fmt is None:
                payload.pop("response_format", None)
            else:
                payload["response_format"] = fmt
            reply = send(
                "POST",
                url,
                who=self.who,
                error=LlmError,
                timeout=limit,
                payload=payload,
                headers=self._headers(),
            )
            refused = reply.status == 400 and _FORMAT_COMPLAINT.search(reply.text)
            if not (refused and fmt is not None and level + 1 < len(_FORMATS)):
                break
            level += 1
            with self._lock:
                self._levels[key] = level
        data = reply.json(self.who, LlmError)
        text = _content(data)
        if text is None:
            raise LlmError(
                f"{self.who}: {url} answered without a message content: {excerpt(reply.text)}"
            )
        return text

    def available(self) -> bool:
        """``GET {base}/models`` answers 2xx within 3 s (seed 004's health-check timeout)."""
        return reachable(join(self.base_url, "/models"), headers=self._headers())
