"""engram's HTTP API (``engram serve``): FastAPI over the library, behind API keys.

``create_app(memory)`` builds the application; ``engram.api.server`` runs it. Routes
only translate library calls (STYLE 3); errors map to status codes in
``engram.api.errors``. See ``docs/http.md``.
"""

from engram.api.app import create_app

__all__ = ["create_app"]
