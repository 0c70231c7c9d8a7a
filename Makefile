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

.PHONY: help install appworld-setup test test-fast lint bench replicate-table1 figures ablations smoke

help: ## list the targets
	@grep -hE '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN{FS=":.*## "}{printf "  %-20s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml constraints.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -c constraints.txt -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) ## create .venv and install the project with pinned versions

appworld-setup: ## AppWorld's own venv (.appworld/venv, pydantic 1), app code and API docs; a no-op when in place
	$(PY) -m environments.appworld.install

test: $(STAMP) appworld-setup ## install if needed, then run the whole test suite
	$(BIN)/python -m pytest -q

test-fast: $(STAMP) ## the suite without slow end-to-end tests
	$(BIN)/python -m pytest -q -m "not slow"

lint: $(STAMP) ## ruff over the project
	$(BIN)/ruff check .
	$(BIN)/ruff format --check . || true

bench: $(STAMP) ## speed benchmarks: ToolMaze generation, monitor, runner (print figures; never asserted in tests)
	$(BIN)/python scripts/bench_toolmaze.py
	$(BIN)/python scripts/bench_monitor.py
	$(BIN)/python scripts/bench_runner.py --episodes

# Knobs for the study targets: MODELS="a,b" LIMIT=N OUT=dir REPLAY=cache.sqlite RUN=dir
MODELS ?=
LIMIT ?=
OUT ?=
REPLAY ?=
RUN ?= results/table1/scripted
PROGRESS ?= $(if $(CI),false,true)

replicate-table1: $(STAMP) ## Table 1 end to end: ToolMaze study, paired episodes, analysis, figures (offline scripted default)
	$(BIN)/python scripts/replicate_table1.py --models "$(MODELS)" --limit "$(LIMIT)" --out "$(OUT)" --replay "$(REPLAY)" --progress $(PROGRESS)

figures: $(STAMP) ## regenerate tables and figures from an existing run's records (RUN=results/<study>/<run>)
	$(BIN)/python -m analysis figures --run $(RUN)

ablations: $(STAMP) ## the ablation arms (114 paired workflows) via Hydra multirun, then the Figure 3 table
	$(BIN)/python scripts/run_ablations.py --models "$(MODELS)" --limit "$(LIMIT)" --out "$(OUT)" --progress $(PROGRESS)

smoke: $(STAMP) ## a handful of episodes through every layer (seconds to a minute)
	$(BIN)/python -m harness.run study=smoke out=$(or $(OUT),results/smoke/default) progress=$(PROGRESS)
