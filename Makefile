# Pinbid. The two commands: `make run` serves the product, `make test` tests it.
SHELL := /bin/bash
UV := $(shell command -v uv 2>/dev/null || echo python3 -m uv)
NPM := npm
PORT ?= 8000
REPLICAS ?= 1
PYTEST_WORKERS ?= 2
# Python keeps its bytecode caches (__pycache__/, ignored by git). This machine's environment sets
# PYTHONDONTWRITEBYTECODE, and so every process the tests start (a dozen per distributed run, one per launcher
# command) compiled each module it imports from source again: a third of the Python suites' CPU.
unexport PYTHONDONTWRITEBYTECODE
WEB_SOURCES := $(shell find web/src web/scripts web/index.html web/package.json web/vite.config.ts -type f 2>/dev/null)

.PHONY: run test install install-dev python-dev web contracts lint test-python test-fuzz test-web test-browser up down status bench bench-hot bench-campaigns clean operator

## install: what the product runs on: the runtime Python packages (uv, locked, without the dev group; packages
## already there stay) and the web app's locked packages (npm ci, again only when the lock changed)
install: web/node_modules/.package-lock.json
	@$(UV) --version >/dev/null 2>&1 || python3 -m pip install --quiet uv
	$(UV) sync --frozen --no-dev --inexact

## install-dev: the same plus the dev group (pytest, test support, ruff, schemathesis, checkov...) for test and lint
install-dev: web/node_modules/.package-lock.json python-dev
python-dev:
	@$(UV) --version >/dev/null 2>&1 || python3 -m pip install --quiet uv
	$(UV) sync --frozen

web/node_modules/.package-lock.json: web/package-lock.json web/package.json
	cd web && $(NPM) ci --no-audit --no-fund --loglevel=error

## web: build web/dist when missing or older than its sources
web: web/dist/index.html
web/dist/index.html: $(WEB_SOURCES) web/node_modules/.package-lock.json
	@if [ -f web/package.json ]; then cd web && $(NPM) run build; else echo "no web app yet"; fi

## run: the whole product at http://localhost:8000 (it answers at 127.0.0.1 too; passkeys need localhost) (embedded PostgreSQL, in-process bus, sandboxes, demo data)
run: install web
	$(UV) run --frozen --no-dev python -m pinbid_launcher embedded --port $(PORT)

## operator: create an operator (staff) account, or enroll an existing one afresh, against identity's configured
## database (IDENTITY_DATABASE_URL, IDENTITY_ENCRYPTION_KEYS from the environment or .env), or with EMBEDDED=1 the
## embedded run's (make run): make operator EMAIL=you@example.com [NAME="Ops Desk"] [EMBEDDED=1]
operator: install
	@if [ -z "$(EMAIL)" ]; then echo "usage: make operator EMAIL=you@example.com [NAME=\"Ops Desk\"]"; exit 2; fi
	$(UV) run --frozen --no-dev python -m pinbid_identity.operators create --email "$(EMAIL)" $(if $(NAME),--name "$(NAME)") $(if $(EMBEDDED),--embedded)

## contracts: regenerate contracts/openapi.json, contracts/events/*.json, contracts/asyncapi.yaml, the web's API types and rules
contracts:
	$(UV) run python -m pinbid_launcher.contracts
	@if [ -f web/package.json ]; then cd web && $(NPM) run --silent gen:api; fi

## lint: ruff, the decisions' index, the infrastructure, migrations against models (a kit table changed without a
## migration in each service fails), contracts up to date, the repository's own checks (no import circle, shipped
## migrations unedited, no fixed sleep in tests, the docs' claims), ESLint, Redocly on the contract, the web's types
lint: web/node_modules/.package-lock.json
	$(UV) run ruff check .
	$(UV) run python docs/decisions/index.py --check
	UV="$(UV)" bash infra/validate.sh
	$(UV) run python -m pinbid_kit.migration_check
	$(UV) run python -m pinbid_launcher.contracts --check
	$(UV) run pytest -q tests/test_import_cycles.py tests/test_migrations_released.py tests/test_no_fixed_sleeps.py tests/test_docs_paths.py
	@if [ -f web/package.json ]; then cd web && $(NPM) run --silent lint && $(NPM) run --silent lint:contract; fi
	@if [ -f web/package.json ]; then \
		generated=$$(mktemp --suffix=.d.ts) && trap 'rm -f "$$generated"' EXIT && \
		(cd web && $(NPM) exec --no -- openapi-typescript ../contracts/openapi.json -o "$$generated" >/dev/null) && \
		if cmp -s "$$generated" web/src/api/schema.d.ts; then echo "web/src/api/schema.d.ts is up to date"; \
		else echo "web/src/api/schema.d.ts does not match contracts/openapi.json; run: make contracts" >&2; exit 1; fi; \
	fi

## test-python: every Python suite on pytest-xdist workers, each with its own databases, a whole file per worker
## (test_rabbit.py's tests share the broker's unprefixed exchange: spread over two workers, they saw each other's
## dead letters)
test-python:
	$(UV) run pytest -q -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder

## test-fuzz: Schemathesis over contracts/openapi.json against the embedded product, anonymous and as each role
test-fuzz: web
	$(UV) run python tests/fuzz/run.py

test-web: web/node_modules/.package-lock.json
	@if [ -f web/package.json ]; then cd web && $(NPM) test; fi

test-browser: web
	@if [ -f tests/browser/package.json ]; then bash tests/browser/run.sh; fi

## test: everything (lint and contracts, Python suites on real PostgreSQL and RabbitMQ, web unit and browser tests,
## the fuzz run), side by side once installed: the machine's cores, not any one suite, are the limit, and the
## browser tests mostly wait on the product and Chromium. The Python suites start as soon as their packages are
## there, while npm installs the web's; the web build comes first for the browser tests and the fuzz run (each on
## its own embedded product).
test: python-dev
	$(MAKE) --no-print-directory -j 5 --output-sync=target lint test-python test-web test-browser test-fuzz

## .env: this machine's secrets for docker-compose (made once, kept out of git): a Fernet encryption key and
## the database password. docker-compose.yml has no defaults for them.
.env:
	@umask 077 && python3 -c 'import base64, os, secrets; \
	print("PINBID_ENCRYPTION_KEYS=" + base64.urlsafe_b64encode(os.urandom(32)).decode()); \
	print("PINBID_POSTGRES_PASSWORD=" + secrets.token_urlsafe(24)); \
	print("PINBID_MINIO_SECRET_KEY=" + secrets.token_urlsafe(30))' > .env
	@echo "wrote .env (secrets for docker-compose on this machine; never commit it)"

## up / down / status: the distributed run on this machine (local PostgreSQL and RabbitMQ)
## REPLICAS=N: N processes of every service and N gateways (ports 8000, 8001, ...), as pods would run
up: install web
	PINBID_REPLICAS=$(REPLICAS) $(UV) run --frozen --no-dev python -m pinbid_launcher up
down:
	$(UV) run --frozen --no-dev python -m pinbid_launcher down
status:
	$(UV) run --frozen --no-dev python -m pinbid_launcher status

## bench: the benchmark scripts (see docs/benchmarks.md)
bench: install-dev
	$(UV) run python -m benchmarks.all

## bench-hot: the hot slot against pgbench's ceiling, in a distributed run of its own (docs/benchmarks.md, "Hot path")
bench-hot: install-dev web
	$(UV) run python services/marketplace/benchmarks/bench_hot.py

## bench-campaigns: a campaign's listed-to-bid time through a distributed run of its own (docs/benchmarks.md, "Campaigns")
bench-campaigns: install-dev web
	$(UV) run python services/marketplace/benchmarks/campaigns_distributed.py

clean:
	rm -rf var web/dist
