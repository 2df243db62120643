# The two commands of the README: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
export PYTHONDONTWRITEBYTECODE := 1

TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/azulsite
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0

.PHONY: run test lint venv venv-dev bench messages

$(BIN)/python:
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "azulsite needs Python 3.11 or newer"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

# Tests and tools (pytest, ruff, playwright, hadolint…): never part of a deploy.
$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(VENV)/.installed $@

venv: $(VENV)/.installed

venv-dev: $(VENV)/.installed-dev

run: venv
	$(BIN)/python manage.py compilemessages --verbosity 0
	@$(BIN)/python manage.py check
	@$(BIN)/python manage.py migrate --no-input --skip-checks --verbosity 0
	@$(BIN)/python manage.py demo --skip-checks --verbosity 0
	@$(BIN)/python -m azulsite.devrun

lint: venv-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/hadolint Dockerfile

# Two pytest-xdist workers, one a core of the 2-core machine the suite is timed on (README),
# each with its own test database and Redis database (tests/conftest.py). Tests go out in
# pytest-django's order, so each worker runs its database tests before its transactional
# ones, which empty the tables (work stealing would hand a worker earlier tests after them).
# One hash seed for every process: the order of a set of strings is then the same in every
# run, and so is the story of the simulated community for a seed (tests/community/).
test: venv-dev
	@DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(BIN)/python -m azulsite.checkservices
	$(MAKE) --no-print-directory lint
	$(BIN)/python manage.py compilemessages --verbosity 0
	PYTHONHASHSEED=0 DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) \
		$(BIN)/python -m pytest -n 2 --dist load --durations=15 $(PYTEST_ARGS)

bench: venv-dev
	DATABASE_URL=$(TEST_DATABASE_URL) $(BIN)/python bench/store.py

# After changing a sentence: extract every marked text into the catalogs of locale/, then
# translate the new entries (docs/translation.md).
messages: venv
	$(BIN)/python manage.py makemessages --no-obsolete -l es -l pt -l pl \
		--ignore=.venv --ignore=var --ignore=bench --ignore=tests --ignore=staticfiles
