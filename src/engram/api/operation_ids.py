"""Readable, unique OpenAPI operation ids: ``<resource>_<verb>`` (``memories_create``).

FastAPI's default id is the function name plus the path and method
(``feedback_v1_v1_memories__memory_id__feedback_post``), which client generators turn
into method names. Here the resource is the route's first tag and the verb is the
function's name without the words that repeat the resource (``create_memory`` under
``memories`` is ``memories_create``). A route whose verb would be empty or would
collide says its own with ``name=`` (the route's name, also used by ``url_for``).
"""

from __future__ import annotations

from fastapi.routing import APIRoute


def _forms(word: str) -> set[str]:
    """A resource word and its singular (``memories``: ``memory``; ``runs``: ``run``)."""
    if word.endswith("ies"):
        return {word, word[:-3] + "y"}
    if word.endswith("s"):
        return {word, word[:-1]}
    return {word}


def operation_id(route: APIRoute) -> str:
    """``<first tag>_<route name without the tag's words>``; the test suite checks that
    every id of the app is unique."""
    tag = route.tags[0] if route.tags else "engram"
    resource = str(getattr(tag, "value", tag)).lower().replace("-", "_")  # a tag may be an Enum
    noise = _forms(resource)
    verb = [word for word in route.name.lower().split("_") if word and word not in noise]
    return "_".join([resource, *verb]) if verb else resource
