"""engram's version, in a module of its own so any module can read it without
importing the package's front door (and so without an import cycle)."""

__version__ = "0.1.0"
