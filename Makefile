# Dugout: two commands for a newcomer — `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
# Test processes (pytest-xdist): one per core by default.
TEST_WORKERS ?= auto

.PHONY: run test lint format check-deploy demo clean bench fuzz prod

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.runtime: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.runtime

## run: web server, Celery worker and beat, with a demo league per ruleset (Ctrl-C stops all)
# The address and the logins come last, once the server and the worker are up (scripts/announce.py); mails are
# files under var/mail/. RUN_PORT: the served port for every process (honcho gives each its own PORT).
run: $(VENV)/.runtime
	DEBUG=1 $(BIN)/python manage.py migrate --noinput -v 0
	DEBUG=1 $(BIN)/python manage.py load_demo --queue-reports --no-logins
	DEBUG=1 PORT=$(PORT) RUN_PORT=$(PORT) PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/honcho start

## test: lint, migration check and the whole test suite
test: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest -n $(TEST_WORKERS)

lint: $(VENV)/.dev
	$(BIN)/ruff check .

format: $(VENV)/.dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

## check-deploy: production settings pass Django's deployment checks with no warnings
check-deploy: $(VENV)/.runtime
	DEBUG=0 SECRET_KEY=$${SECRET_KEY:-$$(openssl rand -hex 40)} REDIS_URL=$${REDIS_URL:-redis://127.0.0.1:6379/0} \
		$(BIN)/python manage.py check --deploy --fail-level WARNING

## prod: production on one machine (Procfile.prod: gunicorn, Celery worker and beat; docs/deploy.md), DEBUG off
prod: $(VENV)/.runtime
	@for var in DATABASE_URL REDIS_URL SECRET_KEY ALLOWED_HOSTS; do \
		if [ -z "$$(printenv $$var)" ]; then echo "make prod: set $$var (docs/deploy.md)" >&2; exit 1; fi; \
	done
	DEBUG=0 $(BIN)/python manage.py migrate --noinput
	DEBUG=0 $(BIN)/python manage.py collectstatic --noinput -v 0
	DEBUG=0 $(BIN)/python manage.py check --deploy --fail-level ERROR
	DEBUG=0 PORT=$(PORT) PATH="$(CURDIR)/$(BIN):$$PATH" exec $(BIN)/honcho -f Procfile.prod start

demo: $(VENV)/.runtime
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py load_demo --queue-reports

clean:
	rm -rf $(VENV) var

## bench: issue 12's benchmark on PostgreSQL + Redis, gunicorn and hey (benchmarks/run.sh; BENCH_FLAGS=--sqlite for SQLite)
bench: $(VENV)/.dev
	benchmarks/run.sh $(BENCH_FLAGS)

## fuzz: schemathesis over every API operation against gunicorn on PostgreSQL + Redis (.ci/fuzz)
fuzz: $(VENV)/.dev
	BIN=$(BIN) .ci/fuzz
