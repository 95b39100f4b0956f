"""The memory dashboard's built files (FEATURES I5): ``index.html`` and its bundle.

The sources live in ``frontend/`` and are built with ``scripts/build_dashboard.sh``; the
bundle is committed here so that installing engram needs no Node. ``engram serve``
serves ``index.html`` at ``/`` and the rest under ``/static/`` (``api/dashboard_routes``).
"""

from __future__ import annotations

from pathlib import Path

#: The directory of the built dashboard.
STATIC_DIR = Path(__file__).resolve().parent / "static"

#: The page the browser loads first.
INDEX = STATIC_DIR / "index.html"

__all__ = ["INDEX", "STATIC_DIR"]
