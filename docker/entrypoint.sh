#!/bin/sh
# engram's container entry point (docs/deploy-docker.md): wait until the store answers,
# then serve the HTTP API on every interface. Arguments are passed to `engram serve`
# (e.g. --log-format json). The first start with an empty store prints an admin key.
set -eu

here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
python "$here/wait_for_store.py"
exec engram serve --host 0.0.0.0 "$@"
