"""Doors for code written against other memory libraries (issue 14).

``engram.compat.mem0.Memory`` takes mem0's signatures and returns mem0's shapes over
``engram.Memory`` (docs/compat-mem0.md). Like the surfaces, these only call the library.
"""
