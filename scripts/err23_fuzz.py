"""Every HTTP route with bad input, counting 422 bodies that still speak pydantic.

Task err23 (issue 26, bad input): a misspelt id over HTTP answered
``String should match pattern '^[A-Za-z0-9_.:@/+-]{1,190}$'``. This walks the app's own
OpenAPI schema (no server: Starlette's ASGI test client over an in-memory store without
keys) and, for every operation, sends one request per constraint a field declares,
broken on purpose: a pattern that does not match, a string too long or too short, a
number out of range, a value of the wrong type, an enum value that is not one, a
required field left out, an unknown field where the model forbids them, a body that is
not an object. Every 422 body is searched for pydantic's own wording (``PYDANTIC``).

    PYTHONPATH=src .venv/bin/python scripts/err23_fuzz.py [--json out.json] [--show 5]

The old tree (``PYTHONPATH=/work/base21b/src``) gives the "before" count.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.testclient import TestClient

from engram import Config, Memory
from engram.api import create_app

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the tests' embedder: no model weights
from hashembed import HashEmbedder  # noqa: E402

#: Phrases only pydantic's messages use (and its error type names, should one leak).
PYDANTIC = (
    "should match pattern",
    "Input should be",
    "input should be",
    "union",
    "constrained-str",
    "model_attributes_type",
    "String should",
    "List should",
    "Value should",
    "Dictionary should",
    "Field required",
    "Extra inputs are not permitted",
    "should have at least",
    "should have at most",
    "should be greater",
    "should be less",
    "Value error",
    "json_invalid",
    "literal_error",
    "enum",
    "[type=",
    "function-after",
    "function-before",
)

Schema = dict[str, Any]
Case = tuple[str, str, dict[str, Any]]  # what was broken, field, request parts


def resolve(spec: Schema, schema: Schema) -> Schema:
    """``schema`` with its ``$ref`` followed (and a one-armed anyOf/allOf unwrapped)."""
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = spec["components"]["schemas"][name]
    for key in ("allOf",):
        if key in schema and len(schema[key]) == 1:
            return resolve(spec, schema[key][0])
    return schema


def arms(spec: Schema, schema: Schema) -> list[Schema]:
    """The alternatives of a schema (``anyOf``), ``null`` left out."""
    schema = resolve(spec, schema)
    options = schema.get("anyOf") or schema.get("oneOf") or [schema]
    return [resolve(spec, o) for o in options if o.get("type") != "null"]


def sample(spec: Schema, schema: Schema) -> Any:
    """A plausible valid value for ``schema`` (for the fields a case does not break)."""
    first = arms(spec, schema)[0] if arms(spec, schema) else {}
    if "enum" in first:
        return first["enum"][0]
    if "const" in first:
        return first["const"]
    kind = first.get("type")
    if kind == "integer":
        return max(1, int(first.get("minimum", 1)))
    if kind == "number":
        return float(first.get("minimum", 0.5)) if "minimum" in first else 0.5
    if kind == "boolean":
        return False
    if kind == "array":
        return [sample(spec, first.get("items", {}))] if first.get("minItems") else []
    if kind == "object":
        props = first.get("properties", {})
        return {k: sample(spec, props[k]) for k in first.get("required", [])}
    if first.get("format") == "date-time":
        return "2026-01-01T00:00:00Z"
    return "x1"


def bad_values(spec: Schema, schema: Schema) -> Iterator[tuple[str, Any]]:
    """(what is wrong, value) for each constraint ``schema`` declares."""
    options = arms(spec, schema)
    kinds = {o.get("type") for o in options}
    for o in options:
        if "pattern" in o:
            yield "pattern", "bad value!"
        if "maxLength" in o:
            yield "too long", "a" * (int(o["maxLength"]) + 1)
        if o.get("minLength", 0) > 0:
            yield "too short", ""
        if "minimum" in o or "exclusiveMinimum" in o:
            yield "below range", (o.get("minimum", o.get("exclusiveMinimum", 0))) - 1
        if "maximum" in o or "exclusiveMaximum" in o:
            yield "above range", (o.get("maximum", o.get("exclusiveMaximum", 0))) + 1
        if "enum" in o or "const" in o:
            yield "enum", "not-one-of-them"
        if o.get("type") == "array" and "maxItems" in o:
            yield "too many items", [sample(spec, o.get("items", {}))] * (int(o["maxItems"]) + 1)
        if o.get("type") == "array" and o.get("minItems", 0) > 0:
            yield "too few items", []
        if o.get("type") == "array":
            item = resolve(spec, o.get("items", {}))
            if item.get("type") == "object" or "properties" in item:
                yield "item not an object", [7]
    if kinds & {"integer", "number"}:
        yield "wrong type", "abc"
        yield "wrong type (bool)", True
    elif kinds and kinds <= {"string"}:
        yield "wrong type", 12
    elif "array" in kinds and "string" not in kinds:
        yield "wrong type", "not-a-list"
    elif "object" in kinds:
        yield "wrong type", "not-an-object"
    elif "boolean" in kinds:
        yield "wrong type", "maybe"


def fill_path(path: str, params: list[Schema], spec: Schema, broken: dict[str, Any]) -> str:
    for p in params:
        if p["in"] != "path":
            continue
        value = broken.get(p["name"], sample(spec, p.get("schema", {})))
        path = path.replace("{" + p["name"] + "}", quote(str(value), safe=""))
    return path


def cases(spec: Schema, path: str, op: Schema) -> Iterator[Case]:
    params = op.get("parameters", [])
    query_ok = {
        p["name"]: sample(spec, p.get("schema", {}))
        for p in params
        if p["in"] == "query" and p.get("required")
    }
    body_schema: Schema | None = None
    content = op.get("requestBody", {}).get("content", {})
    if "application/json" in content:
        body_schema = resolve(spec, content["application/json"].get("schema", {}))
    body_ok = sample(spec, body_schema) if body_schema is not None else None

    def request(
        path_bad: dict[str, Any] | None = None, query: dict[str, Any] | None = None, body: Any = ...
    ) -> dict[str, Any]:
        parts: dict[str, Any] = {"url": fill_path(path, params, spec, path_bad or {})}
        parts["params"] = query if query is not None else query_ok
        if body is not ...:
            parts["json"] = body
        elif body_ok is not None:
            parts["json"] = body_ok
        return parts

    for p in params:
        if p["in"] not in {"path", "query"}:
            continue
        for what, value in bad_values(spec, p.get("schema", {})):
            if p["in"] == "path":
                if isinstance(value, str) and not value:
                    continue  # an empty segment is another route (or a 404), not this one
                yield what, p["name"], request(path_bad={p["name"]: value})
            else:
                yield what, p["name"], request(query={**query_ok, p["name"]: value})
        if p["in"] == "query" and p.get("required"):
            rest = {k: v for k, v in query_ok.items() if k != p["name"]}
            yield "missing", p["name"], request(query=rest)
    if params and any(p["in"] == "query" for p in params):
        yield "unknown query", "bogus", request(query={**query_ok, "bogus": "1"})
    if body_schema is None:
        return
    yield "body not an object", "(body)", request(body=[1, 2])
    props = body_schema.get("properties", {})
    for name, prop in props.items():
        for what, value in bad_values(spec, prop):
            yield what, name, request(body={**body_ok, name: value})
    for name in body_schema.get("required", []):
        yield "missing", name, request(body={k: v for k, v in body_ok.items() if k != name})
    if body_schema.get("additionalProperties") is False:
        yield "unknown field", "bogus", request(body={**body_ok, "bogusfield": 1})
    # One level down: the items of a list of objects (a batch's items, a chat's messages).
    for name, prop in props.items():
        for o in arms(spec, prop):
            item = resolve(spec, o.get("items", {})) if o.get("type") == "array" else None
            if not item or "properties" not in item:
                continue
            good = sample(spec, item)
            for sub, sub_prop in item["properties"].items():
                for what, value in bad_values(spec, sub_prop):
                    body = {**body_ok, name: [{**good, sub: value}]}
                    yield f"item {what}", f"{name}[0].{sub}", request(body=body)


def pydantic_words(text: str) -> list[str]:
    return [w for w in PYDANTIC if re.search(re.escape(w), text)]


def report(
    head: str,
    outcomes: Counter[Any],
    answers: list[dict[str, Any]],
    key: str,
    what: str,
    label: Callable[[dict[str, Any]], str],
    show: int,
) -> None:
    """Print ``head`` with the count of each outcome, then how many ``answers`` (their
    text under ``key``) speak pydantic, by phrase, and the first ``show`` of them."""
    print(head + ", ".join(f"{o}: {n}" for o, n in sorted(outcomes.items())))
    offenders = [r for r in answers if pydantic_words(r[key])]
    print(f"{what} with pydantic wording: {len(offenders)} of {len(answers)}")
    words = Counter(w for r in offenders for w in pydantic_words(r[key]))
    if words:
        print("  by phrase: " + ", ".join(f"{w!r} {n}" for w, n in words.most_common()))
    for r in offenders[:show]:
        print(f"  {label(r)}: {r[key][:300]}")


def walk(client: TestClient) -> list[dict[str, Any]]:
    """Every case of every operation in ``client``'s app's OpenAPI schema, sent: one row
    per request (route, case, field, status, the body's first 600 characters)."""
    spec = client.get("/openapi.json").json()
    rows = []
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            for what, field, parts in cases(spec, path, op):
                response = client.request(method.upper(), **parts)
                rows.append(
                    {
                        "route": f"{method.upper()} {path}",
                        "case": what,
                        "field": field,
                        "status": response.status_code,
                        "body": response.text[:600],
                    }
                )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", help="write every 422 (route, case, body) here")
    parser.add_argument("--show", type=int, default=8, help="print this many offenders")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="err23-") as home:
        config = Config.load(env={}, home=home)
        with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
            app = create_app(memory, auth=False, mcp=False)
            with TestClient(app, raise_server_exceptions=False) as client:
                rows = walk(client)
    unprocessable = [r for r in rows if r["status"] == 422]
    routes = {r["route"] for r in rows}
    report(
        f"{len(routes)} operations, {len(rows)} bad requests; statuses ",
        Counter(r["status"] for r in rows),
        unprocessable,
        "body",
        "422 bodies",
        lambda r: f"{r['route']} [{r['case']} {r['field']}]",
        args.show,
    )
    if args.json:
        Path(args.json).write_text(json.dumps(unprocessable, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
