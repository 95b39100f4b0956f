"""The write path's rule hooks, handed to ``Core`` by ``Memory``: ``core`` sits below the
pipeline in the layers, so it cannot import them itself."""

from __future__ import annotations

from engram.core import Core
from engram.pipeline.closing import plan
from engram.pipeline.linker import links, protection


def wire(core: Core) -> None:
    """Hand ``core`` the inline linker (FEATURES G3; run when ``[pipeline] linker``), the
    closing plan that decides which linked facts close old ones (issue 28, G2) and the
    decision protection written with them (P9)."""
    core.linker = links
    core.closer = plan
    core.protector = protection
