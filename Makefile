# The two set-up commands of the README. Each bootstraps what it needs on a fresh machine
# (Python 3.11, pip and apt, as root): a virtual environment in .venv, and Debian's chromium (browser tests)
# and nginx (reverse-proxy test) when they are missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
RUN_STAMP := $(VENV)/.run-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
DATA ?= data
PYTEST_ARGS ?=

.PHONY: run test lint typecheck unit bench chromium nginx clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,bench]'
	touch $(STAMP)

# run needs only the package and its runtime dependencies (no test/bench extras, no pip upgrade)
$(RUN_STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q -e .
	touch $(RUN_STAMP)

## run: start the room server on http://$(HOST):$(PORT) with the embedded SQLite store in $(DATA)/
run: $(RUN_STAMP)
	$(VENV)/bin/pokerroom serve --host $(HOST) --port $(PORT) --data-dir $(DATA)

## test: lint, type-check and the whole test suite (browser tests included)
test: $(STAMP) chromium nginx lint typecheck
	$(PY) -m pytest -n 2 $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks scripts

typecheck: $(STAMP)
	$(VENV)/bin/mypy

chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
	  echo "installing Debian's chromium for the browser tests"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium fonts-noto-cjk; \
	fi

# Debian's nginx for the test of deploy/nginx.conf (a TLS reverse proxy in front of pokerroom serve).
# RUNLEVEL=1: the package's post-install must not start a system nginx on port 80; the test runs its own.
nginx:
	@if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then \
	  echo "installing Debian's nginx for the reverse-proxy test"; \
	  apt-get update -q && apt-cache policy nginx | grep -q 'Candidate: [0-9]' && \
	  RUNLEVEL=1 DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nginx; \
	fi

bench: $(STAMP)
	for b in benchmarks/*.py; do $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
