"""Secret scrubbing before a checkpoint is stored.

seed 004: "Secrets are redacted before storage using pattern-based scrubbing (Bearer
tokens, API keys, base64 credential blobs, env variable values)". A checkpoint digest is
built from what the user typed and what the agent remembered, and both routinely hold
pasted credentials; the digest is later replayed into a new context, so a secret kept
here would leak into every recovery.
"""

from __future__ import annotations

import re

MASK = "[REDACTED]"

# Authorization headers and bare bearer tokens: "Bearer eyJhbGciOi...".
_BEARER = re.compile(r"(?i)\b(bearer|token|basic)\s+[A-Za-z0-9._~+/=-]{12,}")
# Provider key shapes: OpenAI/Anthropic "sk-...", GitHub "ghp_/gho_/ghs_/github_pat_",
# AWS access key ids "AKIA...", Slack "xox?-...", Google "AIza...", engram's own "eg_...".
_KEYS = re.compile(
    r"\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|"
    r"github_pat_[A-Za-z0-9_]{20,}|AKIA[0-9A-Z]{16}|xox[abpors]-[A-Za-z0-9-]{10,}|"
    r"AIza[0-9A-Za-z_-]{30,}|eg_[A-Za-z0-9_-]{16,})"
)
# NAME=value where the name says it is secret (env files, shell exports, URLs' query).
_ENV = re.compile(
    r"(?i)\b([A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|"
    r"CREDENTIALS?|AUTH)[A-Z0-9_]*)(\s*[=:]\s*)(\"[^\"]*\"|'[^']*'|[^\s,;&]+)"
)
# user:password@ in connection strings.
_URL_PASSWORD = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^:/\s@]+):([^@\s/]+)@")
# Long base64 blobs (credential files, JWT-like strings): 40+ characters of the
# alphabet with at least one digit and one upper-case letter, so prose never matches.
_BASE64 = re.compile(
    r"(?<![A-Za-z0-9+/=])(?=[A-Za-z0-9+/]*\d)(?=[A-Za-z0-9+/]*[A-Z])"
    r"[A-Za-z0-9+/]{40,}={0,2}(?![A-Za-z0-9+/=])"
)
# PEM private keys.
_PEM = re.compile(
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)", re.S
)


def redact(text: str) -> str:
    """``text`` with every secret-shaped span replaced by ``[REDACTED]``."""
    if not text:
        return text
    text = _PEM.sub(MASK, text)
    text = _URL_PASSWORD.sub(lambda m: f"{m.group(1)}:{MASK}@", text)
    # Bearer first: "Authorization: Bearer <token>" must lose the token, not the word.
    text = _BEARER.sub(lambda m: f"{m.group(1)} {MASK}", text)
    text = _ENV.sub(lambda m: f"{m.group(1)}{m.group(2)}{MASK}", text)
    text = _KEYS.sub(MASK, text)
    return _BASE64.sub(MASK, text)
