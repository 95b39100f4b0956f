"""Every ``{items, total, limit, offset}`` list response is one paging model
(``api.models.Page``), so a list route added later cannot drift from the convention
docs/http.md promises (round five added ``GET /v1/erasures``' by hand)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from pydantic import BaseModel

import engram.api
from engram.api import models as m

PAGING = ["items", "total", "limit", "offset"]


def _paged_models() -> dict[str, type[BaseModel]]:
    """Every response model of ``engram.api`` with a total and paging."""
    found: dict[str, type[BaseModel]] = {}
    for info in pkgutil.iter_modules(engram.api.__path__, "engram.api."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if not inspect.isclass(value) or not issubclass(value, BaseModel):
                continue
            fields = set(value.model_fields)
            if value is not m.Page and {"items", "total", "limit", "offset"} <= fields:
                found[f"{value.__module__}.{name}"] = value
    return found


def test_every_paged_list_response_is_a_page() -> None:
    paged = _paged_models()
    assert len(paged) >= 9, sorted(paged)  # memories, jobs, runs, review, graph ...
    for name, model in paged.items():
        assert issubclass(model, m.Page), f"{name} is not an api.models.Page"
        assert list(model.model_fields) == PAGING, (name, list(model.model_fields))
