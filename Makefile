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
# Compiled modules are cached (__pycache__) even where the environment says not to (PYTHONDONTWRITEBYTECODE):
# without the cache every server a test starts compiled the package again (0.45 s of CPU per start) and every
# pytest worker rewrote every test module anew (collection 14.6 s -> 5.0 s of CPU per worker)
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test test-setup test-checks screenshots check lint typecheck bench chromium nginx services jscheck clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q --no-compile -e '.[test,bench]'
	touch $(STAMP)

# run needs only the package and its runtime dependencies (no test/bench extras, no pip upgrade)
$(RUN_STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --no-compile -e .
	touch $(RUN_STAMP)

## run: start the room server on http://$(HOST):$(PORT) with the embedded SQLite store in $(DATA)/
run: $(RUN_STAMP)
	$(VENV)/bin/pokerroom serve --host $(HOST) --port $(PORT) --data-dir $(DATA)

## test: lint, type-check, the JS check and the whole test suite (browser tests included); every component
## it installs is required: a missing one fails its tests instead of skipping them (tests/needs.py)
test:
	@$(MAKE) --no-print-directory -j4 -O test-setup
	@log=$$(mktemp); $(MAKE) --no-print-directory test-checks >$$log 2>&1 & checks=$$!; \
	POKERROOM_TESTS_REQUIRE=all $(PY) -m pytest -n 3 --durations=15 $(PYTEST_ARGS); suite=$$?; \
	wait $$checks; rc=$$?; cat $$log; rm -f $$log; \
	[ $$suite -eq 0 ] && [ $$rc -eq 0 ]

# what the tests need, made side by side (-j4): pip, apt-get and npm wait on the network. The targets that may
# call apt-get run one after another (order-only prerequisites below), as dpkg installs one thing at a time.
# The checks (ruff, mypy, eslint) then run beside the suite, one after another, their output shown after the
# suite's: the set-up waits on the network for about half its time, so the checks cost the run their CPU but no
# longer their wait. A failed check still fails `make test`, once the suite has run.
test-setup: $(STAMP) chromium nginx services node_modules/.installed-stamp
test-checks: lint typecheck jscheck
nginx: | chromium
services: | nginx
node_modules/.installed-stamp: | nginx

## screenshots: the browser tests again, saving a screenshot of every step in artifacts/screenshots/ to look at
screenshots: $(STAMP) chromium nginx services
	POKERROOM_SHOTS=1 $(PY) -m pytest -n 2 -q -m browser $(PYTEST_ARGS)

## check: the inner loop: ruff, mypy, the JS check and the tests that need no browser and no service
check: $(STAMP) lint typecheck jscheck
	$(PY) -m pytest -n 2 -q -m "not browser and not service and not slow" $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks scripts

typecheck: $(STAMP)
	$(VENV)/bin/mypy

# eslint over the web client, at the version package-lock.json pins (npm ci into node_modules); Debian's nodejs
# and npm are installed when missing
jscheck: node_modules/.installed-stamp
	node_modules/.bin/eslint --max-warnings 0 src/pokerroom/web/static

node_modules/.installed-stamp: package-lock.json
	@if ! command -v npm >/dev/null 2>&1; then \
	  echo "installing Debian's nodejs and npm for the JavaScript check"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nodejs npm; \
	fi
	npm ci --no-audit --no-fund
	touch $@

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

# Redis and PostgreSQL for the store and cluster tests (real services, never mocks: see
# docs/decisions/0028-honest-tests.md): the machine's own on 127.0.0.1:6379 and :5432 when they answer;
# otherwise Debian's redis-server / postgresql are installed when missing and started, PostgreSQL with trust
# authentication on loopback for the tests' user postgres (a test machine only).
services:
	@if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then \
	  if ! command -v redis-server >/dev/null 2>&1; then \
	    echo "installing Debian's redis-server for the cluster tests"; \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends redis-server; \
	  fi; \
	  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no; \
	  for i in 1 2 3 4 5 6 7 8 9 10; do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.5; done; \
	fi
	@if ! pg_isready -q -h 127.0.0.1 -p 5432 >/dev/null 2>&1; then \
	  if ! command -v pg_ctlcluster >/dev/null 2>&1; then \
	    echo "installing Debian's postgresql for the cluster tests"; \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends postgresql; \
	  fi; \
	  v=$$(ls /etc/postgresql | sort -n | tail -1); \
	  [ -d /etc/postgresql/$$v/main ] || pg_createcluster $$v main; \
	  hba=/etc/postgresql/$$v/main/pg_hba.conf; \
	  grep -q '^host all all 127.0.0.1/32 trust' $$hba || sed -i '1i host all all 127.0.0.1/32 trust' $$hba; \
	  pg_ctlcluster $$v main start || pg_ctlcluster $$v main reload; \
	  for i in 1 2 3 4 5 6 7 8 9 10; do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 0.5; done; \
	fi

bench: $(STAMP)
	for b in benchmarks/*.py; do $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
