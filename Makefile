# Kokeshi for Discord — developer commands. `make help` lists them.

VENV ?= .venv
PYTHON ?= $(shell command -v python3.11 || command -v python3)
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.DEFAULT_GOAL := help
# Python keeps its compiled modules (and pytest its rewritten tests) beside the sources, in `__pycache__/` (ignored
# by git), even where the environment asks it not to: a second `make check` then starts in seconds.
unexport PYTHONDONTWRITEBYTECODE
.PHONY: help venv $(VENV) check typecheck test test-deps test-browser docs-picture lint format run sandbox bench golden translations catalogs language clean

help:
	@echo "make run      create $(VENV), install, start the bot (sandbox without DISCORD_TOKEN)"
	@echo "make sandbox  start the bot in the local sandbox"
	@echo "make check    the fast loop: lint, types and every test but the browser's, PostgreSQL's and the slow ones"
	@echo "make test     lint, format check, types and the whole test suite"
	@echo "make test-browser  only the sandbox page in Chromium, whole games included"
	@echo "make docs-picture  retake docs/sandbox.png from the browser test"
	@echo "make lint     ruff check and ruff format --check"
	@echo "make typecheck  mypy: strict on the rules (games/kokeshi/engine/), service/, storage/ and the game contract, default elsewhere"
	@echo "make format   sort imports and format the code with ruff"
	@echo "make bench    run every bench/*_bench.py"
	@echo "make golden   redraw the reference images of the render tests (after a deliberate change)"
	@echo "make translations  extract the messages into locales/messages.pot, update every catalog, compile them"
	@echo "make language LOCALE=xx  start the catalog of a new language"
	@echo "make clean    remove $(VENV) and caches"

# The interpreter of the venv, created on first use with Python 3.11 or newer.
$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "error: no python3.11 or python3 on PATH" >&2; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
		|| { echo "error: $(PYTHON) is older than Python 3.11" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)

# Runtime packages only.
$(RUN_STAMP): requirements.txt | $(BIN)/python
	$(PIP) install -q -r requirements.txt
	@touch $@

# Translations: the catalogs (locales/<locale>/LC_MESSAGES/messages.po) are kept in git; their compiled .mo files
# are built here, by the targets that run the bot or the tests, whenever a .po is newer.
POT := locales/messages.pot
PO_FILES := $(wildcard locales/*/LC_MESSAGES/messages.po)
MO_FILES := $(PO_FILES:.po=.mo)

%.mo: %.po | $(RUN_STAMP)
	$(BIN)/pybabel -q compile -D messages -i $< -o $@

catalogs: $(MO_FILES)

# Extract every message from the code, merge it into each catalog (new ones empty, changed ones fuzzy), compile.
translations: $(RUN_STAMP)
	PYTHONPATH=. $(BIN)/pybabel -q extract -F babel.cfg -k N_ --add-location=file --sort-by-file \
		--project="Kokeshi for Discord" --msgid-bugs-address="" -o $(POT) .
	$(BIN)/pybabel -q update -D messages -i $(POT) -d locales --ignore-obsolete
	$(BIN)/pybabel compile -D messages -d locales --statistics

# Start a catalog for a new language: `make language LOCALE=es` (then add it to i18n.LOCALES and translate).
language:
	@test -n "$(LOCALE)" || { echo "usage: make language LOCALE=<gettext locale, e.g. es or pt_PT>" >&2; exit 1; }
	@test ! -e locales/$(LOCALE) || { echo "error: locales/$(LOCALE) already exists" >&2; exit 1; }
	$(MAKE) translations
	$(BIN)/pybabel -q init -D messages -i $(POT) -d locales -l $(LOCALE)

# Runtime plus test, lint and sandbox packages; also satisfies the runtime stamp.
$(DEV_STAMP): requirements.txt requirements-dev.txt | $(BIN)/python
	$(PIP) install -q -r requirements-dev.txt
	@touch $@ $(RUN_STAMP)

venv $(VENV): $(DEV_STAMP)

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# What it checks and how strictly is in pyproject.toml ([tool.mypy]).
typecheck: $(DEV_STAMP)
	$(BIN)/python -m mypy

format: $(DEV_STAMP)
	$(BIN)/ruff check --select I --fix .
	$(BIN)/ruff format .

# Tools the tests need from Debian: installed when missing and this is root with apt-get, else one line
# says what to install. A third argument adds options to apt-get install.
CHROMIUM ?= /usr/bin/chromium
define need_debian
	@if [ ! -x "$(1)" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "installing Debian's $(2) package for the tests"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(3) $(2) >/dev/null \
				|| { echo "error: could not install $(2); install Debian's $(2) package (apt-get install $(2))" >&2; exit 1; }; \
		else \
			echo "error: the tests need $(1): install Debian's $(2) package (apt-get install $(2))" >&2; exit 1; \
		fi; \
	fi
endef

# The store tests start a throwaway PostgreSQL server of their own with Debian's initdb and pg_ctl.
PG_INITDB ?= $(firstword $(wildcard /usr/lib/postgresql/*/bin/initdb) /usr/lib/postgresql/15/bin/initdb)

# The deployment tests check deploy/ with systemd's own `systemd-analyze verify` and with Compose's own
# `docker-compose config`, which validates without a Docker engine (Debian's, without the engine it recommends).
test-deps: $(DEV_STAMP)
	$(call need_debian,$(CHROMIUM),chromium)
	$(call need_debian,$(PG_INITDB),postgresql)
	$(call need_debian,/usr/bin/systemd-analyze,systemd)
	$(call need_debian,/usr/bin/docker-compose,docker-compose,--no-install-recommends)

# pytest exits 5 when it collects no test: that is a failure here too. This includes the whole games played
# through the sandbox page in Chromium (tests/browser, minutes each; `make test-browser` runs only those). Two
# workers: the browser modules keep one of them, one module after the other (they wait on the page much of the time,
# and two sandboxes with a Chromium each beside the other tests left a page too slow to keep up), the rest share
# both. A third worker saved a minute in one run (19 min 43 s against 20 min 58 s) and slowed the other tests by
# half again as they fought for the two cores: too little to be sure of, against pages left slower.
# The slowest tests are listed at the end, to keep the whole run inside its 15 minutes.
# Their files (SQLite and PostgreSQL databases, sandboxes, Chromium profiles) go to /dev/shm when it is a writable
# memory file system with 2 GiB free: a store on disk waits on the disk at every commit, a fifth of a bot test's time.
TEST_TMPDIR := $(shell d=/dev/shm; [ -d $$d ] && [ -w $$d ] && [ "$$(stat -f -c %T $$d 2>/dev/null)" = tmpfs ] \
	&& [ "$$(df -Pk $$d | awk 'NR==2 {print $$4}')" -ge 2097152 ] && echo $$d)
TEST_ENV := $(if $(TEST_TMPDIR),TMPDIR=$(TEST_TMPDIR))
TEST_WORKERS ?= 2

test: lint typecheck test-deps catalogs
	@$(TEST_ENV) $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup --durations=15; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "error: pytest collected no tests" >&2; fi; \
	exit $$rc

# The fast loop before a commit: `make test` less the tests marked browser (Chromium), postgresql (a server of
# their own) or slow (whole games through SimCord, long playouts and properties, image and crash rehearsals).
check: lint typecheck catalogs
	@$(TEST_ENV) $(BIN)/python -m pytest -n 2 --dist loadgroup -m "not browser and not postgresql and not slow"; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "error: pytest collected no tests" >&2; fi; \
	exit $$rc

define NO_BOT_YET
bot.py does not exist yet, so there is no bot to start.
Once it does, `make run` starts it:
  - with DISCORD_TOKEN set (in .env or the environment) it connects to Discord;
  - without it, it starts the local SimCord sandbox and prints its address
    (SANDBOX_HOST:SANDBOX_PORT, 127.0.0.1:8765 by default).
endef
export NO_BOT_YET

# The sandbox is built on simcord, a dev package, so these install the dev set.
run: $(DEV_STAMP) catalogs
	@if [ -f bot.py ]; then $(BIN)/python bot.py; else echo "$$NO_BOT_YET"; fi

sandbox: $(DEV_STAMP) catalogs
	@if [ -f bot.py ]; then $(BIN)/python bot.py sandbox; else echo "$$NO_BOT_YET"; fi

test-browser: test-deps catalogs
	$(TEST_ENV) $(BIN)/python -m pytest tests/browser

# The sandbox's picture in docs/sandbox.md: taken by the browser test that reloads the page mid-game.
docs-picture: test-deps catalogs
	$(TEST_ENV) $(BIN)/python -m pytest tests/browser -k reload_mid_game
	cp tests/browser/artifacts/sandbox.png docs/sandbox.png

bench: $(DEV_STAMP)
	@set -e; found=0; \
	for f in bench/*_bench.py; do \
		[ -f "$$f" ] || continue; found=1; \
		echo "== $$f"; $(BIN)/python "$$f"; \
	done; \
	[ $$found -eq 1 ] || echo "no bench/*_bench.py yet"

golden: $(DEV_STAMP)
	$(BIN)/python -m tests.golden

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
