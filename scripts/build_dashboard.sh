#!/usr/bin/env sh
# Build the dashboard bundle (frontend/ -> src/engram/dashboard/static/) from the pinned
# packages in frontend/package-lock.json. The built files are committed, so installing
# engram needs no Node; run this after changing frontend/src/ (`make dashboard`).
set -eu
cd "$(dirname "$0")/../frontend"
npm ci --no-audit --no-fund
npm run build
