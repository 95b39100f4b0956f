"""``engram.__all__`` is the promised library surface: sorted, complete, importable."""

from __future__ import annotations

import importlib
import inspect
import types

import engram


def test_all_is_sorted_and_unique() -> None:
    assert engram.__all__ == sorted(set(engram.__all__))


def test_all_imports_are_exported() -> None:
    included_private_members = ["__version__"]
    public = sorted(
        name
        for name, value in vars(engram).items()
        # submodules become attributes of the package when imported; they are not exports
        if (not name.startswith("_") and not isinstance(value, types.ModuleType))
        or name in included_private_members
    )
    assert engram.__all__ == public


def test_every_export_is_importable_and_documented() -> None:
    for name in engram.__all__:
        # what ``from engram import <name>`` does
        value = getattr(importlib.import_module("engram"), name)
        assert value is getattr(__import__("engram", fromlist=[name]), name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert inspect.getdoc(value), f"{name} has no docstring"
    assert isinstance(engram.__version__, str) and engram.__version__


def test_errors_share_one_base() -> None:
    errors = [getattr(engram, n) for n in engram.__all__ if n.endswith(("Error", "Blocked"))]
    assert errors
    for error in errors:
        assert issubclass(error, engram.EngramError), error
        assert isinstance(error.code, str) and error.code
    codes = [error.code for error in errors]
    assert len(codes) == len(set(codes)), "error codes must be distinct"
