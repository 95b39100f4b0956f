"""``engram serve``'s logging: text or JSON lines, each carrying the request id.

``log_config("json", "info")`` is a ``logging.config.dictConfig`` dict (uvicorn's
``log_config``) under which engram's and uvicorn's loggers write one JSON object per
line to stderr: ``time``, ``level``, ``logger``, ``message`` and ``request_id``, plus
``client``, ``method``, ``path``, ``route``, ``status``, ``duration_ms``, ``key_id``, ``namespace``
and ``tool`` (the MCP tool a ``/mcp`` request called) on access lines
(``engram.access``). Keys and memory content are never logged: the access line names
the key's id and the path without its query string.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

from engram.api.context import current

#: Fields an access line carries besides the message (see ``engram.api.observe``).
ACCESS_FIELDS = (
    "client",
    "method",
    "path",
    "route",
    "status",
    "duration_ms",
    "key_id",
    "namespace",
    "tool",
)
#: ``engram serve --log-format`` choices (``api.log_format``).
LOG_FORMATS = ("text", "json")


def _request_id(record: logging.LogRecord) -> str | None:
    given = getattr(record, "request_id", None)
    if isinstance(given, str):
        return given
    info = current()
    return None if info is None else info.request_id


class JsonFormatter(logging.Formatter):
    """One JSON object per record."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a single-line JSON object."""
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": _request_id(record),
        }
        for name in ACCESS_FIELDS:
            if hasattr(record, name):
                out[name] = getattr(record, name)
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """``time level logger [request id] message``."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s %(request)s%(message)s")

    def format(self, record: logging.LogRecord) -> str:
        """The record as one text line (plus a traceback, if any)."""
        rid = _request_id(record)
        record.request = f"[{rid}] " if rid else ""
        return super().format(record)


def log_config(log_format: str, level: str = "info") -> dict[str, Any]:
    """A ``dictConfig`` dict: engram's and uvicorn's loggers, ``log_format`` lines, stderr."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"log format must be one of {', '.join(LOG_FORMATS)}")
    formatter = JsonFormatter if log_format == "json" else TextFormatter
    handler = {
        "engram": {
            "class": "logging.StreamHandler",
            "formatter": "engram",
            "stream": "ext://sys.stderr",
        }
    }
    own = {"handlers": ["engram"], "level": level.upper(), "propagate": False}
    # Every other library's records (psycopg_pool's reconnect warnings, the MCP SDK's)
    # reach the root logger: give it the same handler, at WARNING or the stricter level
    # asked, so that a JSON log is JSON on every line. Without it the MCP SDK installs
    # its Rich console handler there (``logging.basicConfig``), and a database restart
    # wrote boxed multi-line warnings between the JSON lines.
    root_level = max(logging.WARNING, logging.getLevelName(level.upper()))
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"engram": {"()": f"{__name__}.{formatter.__name__}"}},
        "handlers": handler,
        "root": {"handlers": ["engram"], "level": logging.getLevelName(root_level)},
        "loggers": {
            "engram": dict(own),
            "uvicorn": dict(own),
            # engram.access replaces uvicorn's access line (it has the request id).
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
    }
