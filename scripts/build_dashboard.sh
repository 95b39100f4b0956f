#!/usr/bin/env sh
# Build the dashboard bundle (frontend/src -> src/engram/dashboard/static/app.js and
# app.css) from the pinned packages in frontend/package-lock.json, then stamp it. The
# built files are committed, so installing engram needs no Node; run this after changing
# frontend/src/ (`make dashboard`). The page itself, static/index.html, is edited in
# place: it is not built. tests/test_dashboard_bundle.py fails when the sources and the
# stamped bundle disagree (a source changed without a rebuild, or the bundle by hand).
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/frontend"
npm ci --no-audit --no-fund
npm run build
cd "$root"
sha256sum frontend/package-lock.json frontend/src/* \
    src/engram/dashboard/static/app.js src/engram/dashboard/static/app.css \
    > src/engram/dashboard/static/bundle.sha256
