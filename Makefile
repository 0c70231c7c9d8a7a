# Every target installs what it needs: a fresh clone needs no other step.
SHELL := /bin/bash
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# litellm must never reach the network unless a real model is asked for
export LITELLM_LOCAL_MODEL_COST_MAP := True
export LITELLM_OFFLINE_MODE := true
export LITELLM_LOG := ERROR
export HF_HUB_OFFLINE := 1
export MPLBACKEND := Agg

.PHONY: help install test test-fast lint bench

help: ## list the targets
	@grep -hE '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN{FS=":.*## "}{printf "  %-20s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml constraints.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -c constraints.txt -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) ## create .venv and install the project with pinned versions

test: $(STAMP) ## install if needed, then run the whole test suite
	$(BIN)/python -m pytest -q

test-fast: $(STAMP) ## the suite without slow end-to-end tests
	$(BIN)/python -m pytest -q -m "not slow"

lint: $(STAMP) ## ruff over the project
	$(BIN)/ruff check .
	$(BIN)/ruff format --check . || true

bench: $(STAMP) ## speed benchmarks (print figures; never asserted in tests)
	$(BIN)/python scripts/bench_toolmaze.py
