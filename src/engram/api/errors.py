"""The HTTP boundary of engram's exception tree: status codes and ``{error, detail}``.

| error | status |
|---|---|
| ``AuthenticationError`` | 401 (with ``WWW-Authenticate: Bearer``) |
| ``PermissionDeniedError`` | 403 |
| ``NotFoundError`` | 404 |
| ``InvalidInputError`` and subclasses, request validation, a body that is not JSON | 422 |
| ``CapabilityError`` | 501 |
| ``LlmError`` (the configured model failed) | 502 |
| ``EmbeddingError``, ``StoreClosedError``, ``StoreBusyError``, ``StoreConnectionError`` | 503 |
| ``StoreError``, ``RetrievalError``, ``ConfigError``, any other error | 500 |

A body over ``api.max_body_bytes`` gets 413 (see ``engram.api.limits``); a key over
``api.rate_limit_per_minute`` gets 429 with ``Retry-After`` (``engram.api.ratelimit``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.routing import Match
from starlette.types import Send

from engram.api.validation import describe
from engram.errors import (
    AuthenticationError,
    CapabilityError,
    EmbeddingError,
    EngramConnectionError,
    EngramError,
    InjectionBlocked,
    InvalidInputError,
    LlmError,
    NotFoundError,
    PermissionDeniedError,
    StoreBusyError,
    StoreClosedError,
)

log = logging.getLogger("engram.api")

#: Most specific first: the first class an error is an instance of decides its status.
STATUS: Sequence[tuple[type[EngramError], int]] = (
    (AuthenticationError, 401),
    (PermissionDeniedError, 403),
    (NotFoundError, 404),
    (InvalidInputError, 422),
    (CapabilityError, 501),
    (LlmError, 502),
    (EmbeddingError, 503),
    (StoreClosedError, 503),
    (StoreBusyError, 503),
    (EngramConnectionError, 503),
)

_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_input",
}


def status_for(exc: EngramError) -> int:
    """The HTTP status of an engram error."""
    for cls, status in STATUS:
        if isinstance(exc, cls):
            return status
    return 500


def error_body(code: str, detail: str, reasons: Sequence[str] | None = None) -> dict[str, Any]:
    """The JSON body of every error response."""
    body: dict[str, Any] = {"error": code, "detail": detail}
    if reasons is not None:
        body["reasons"] = list(reasons)
    return body


async def send_error(
    send: Send, status: int, code: str, detail: str, headers: Sequence[tuple[bytes, bytes]] = ()
) -> None:
    """The JSON error answer written straight to ASGI ``send``, for the middlewares that
    answer before FastAPI's handlers run: ``{error, detail}`` with its content type and
    length, then ``headers`` (``Retry-After``, ``WWW-Authenticate``, ...)."""
    payload = json.dumps(error_body(code, detail)).encode()
    start = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        *headers,
    ]
    await send({"type": "http.response.start", "status": status, "headers": start})
    await send({"type": "http.response.body", "body": payload})


def error_response(status: int, code: str, detail: str, **extra: Any) -> JSONResponse:
    """An error response; ``401`` carries the Bearer challenge."""
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse(error_body(code, detail, **extra), status_code=status, headers=headers)


def _engram_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, EngramError)
    status = status_for(exc)
    if status >= 500:
        log.error("%s %s failed: %s", request.method, request.url.path, exc)
    reasons = list(exc.reasons) if isinstance(exc, InjectionBlocked) else None
    return error_response(status, exc.code, str(exc), reasons=reasons)


def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return error_response(422, "invalid_json", "the request body is not valid JSON")
    if any(
        tuple(e.get("loc", ())) == ("body",)
        and e.get("type") in {"missing", "model_attributes_type", "dict_type"}
        for e in errors
    ):
        return error_response(
            422,
            "invalid_input",
            "the request body must be a JSON object sent with Content-Type: application/json",
        )
    # Pydantic's own messages quote regular expressions and type names; say it in words.
    return error_response(422, "invalid_input", describe(errors, request.scope.get("route")))


def _unreadable_json(exc: HTTPException) -> str | None:
    """What made a JSON body unreadable, if that is why FastAPI answered 400.

    FastAPI turns only ``JSONDecodeError`` into a validation error; ``json.loads``
    failing any other way (bytes that are not UTF-8, nesting past the recursion limit)
    becomes a bare 400 "error parsing the body", raised from the original error.
    """
    if exc.status_code != 400:
        return None
    cause = exc.__cause__
    if isinstance(cause, UnicodeDecodeError):
        return "the request body is not valid JSON: it is not UTF-8 text"
    if isinstance(cause, RecursionError):
        return "the request body is not valid JSON engram can read: it is nested too deeply"
    if isinstance(cause, ValueError):
        return "the request body is not valid JSON"
    return None


def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    unreadable = _unreadable_json(exc)
    if unreadable is not None:
        return error_response(422, "invalid_json", unreadable)
    code = _HTTP_CODES.get(exc.status_code, "http_error")
    detail = str(exc.detail)
    if exc.status_code == 404 and detail == "Not Found":
        # The router's own 404: no route has this path. Say which, and where the list is.
        detail = (
            f"no route {request.method} {request.url.path}; the routes are listed at "
            "/docs (OpenAPI: /openapi.json)"
        )
    allowed = _allowed_methods(request) if exc.status_code == 405 else []
    if allowed and detail == "Method Not Allowed":
        detail = f"{request.method} is not allowed on {request.url.path}; it takes " + (
            ", ".join(allowed)
        )
    response = error_response(exc.status_code, code, detail)
    for name, value in (exc.headers or {}).items():
        response.headers[name] = value
    if allowed:  # the router's own Allow names the first route of the path only
        response.headers["Allow"] = ", ".join(allowed)
    return response


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route of ``request``'s path answers (HEAD left out)."""
    methods: set[str] = set()
    pending = list(request.app.router.routes)
    while pending:
        route = pending.pop()
        # An included router (FastAPI's include_router) holds its own routes.
        inner = getattr(route, "original_router", None)
        if inner is not None:
            pending.extend(inner.routes)
            continue
        match, _ = route.matches(request.scope)
        if match is not Match.NONE:
            methods |= set(getattr(route, "methods", None) or ())
    return sorted(methods - {"HEAD"})


def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.exception("%s %s failed unexpectedly", request.method, request.url.path)
    return error_response(500, "internal_error", "internal server error; see the server log")


def install(app: FastAPI) -> None:
    """Register the handlers that translate errors into ``{error, detail}`` responses."""
    app.add_exception_handler(EngramError, _engram_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected)
