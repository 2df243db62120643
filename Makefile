# The two commands of the README: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
export PYTHONDONTWRITEBYTECODE := 1

TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/azulsite
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0

.PHONY: run test lint venv bench

$(BIN)/python:
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "azulsite needs Python 3.11 or newer"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

venv: $(VENV)/.installed

run: venv
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py demo
	$(BIN)/python -m azulsite.devrun

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

test: venv
	@DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(BIN)/python -m azulsite.checkservices
	$(MAKE) --no-print-directory lint
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(BIN)/python -m pytest $(PYTEST_ARGS)

bench: venv
	DATABASE_URL=$(TEST_DATABASE_URL) $(BIN)/python bench/store.py
