"""The ``engram`` command line: a thin layer over the library."""
