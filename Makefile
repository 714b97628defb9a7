# The two commands a newcomer needs: `make serve` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# where `make serve` keeps its data (ignored by git); `make serve DATA_DIR=` serves from memory
DATA_DIR ?= data

# What the installed copy is built from: when none of these is newer than an install's stamp
# file, that install is skipped (pip rebuilds and reinstalls the package every time it runs:
# seconds of a restart). A change to any file of the packages reaches the served copy at the
# next `make serve`.
SOURCES := pyproject.toml $(shell find engine grammar web twisted bench -name __pycache__ -prune \
	-o -type f ! -name '*.py[cod]' ! -name dropin.cache -print)

.PHONY: install serve test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# A plain (non-editable) install: twistd does not see plugins of a default editable install.
# build/ goes first: setuptools would otherwise copy files deleted since into the new wheel.
# `make serve` installs what serving needs; `make test` adds the test extras (a superset, so its
# install is also serve's).
$(VENV)/.installed-serve: $(BIN)/python $(SOURCES)
	rm -rf build
	$(BIN)/pip install -q .
	rm -rf build *.egg-info
	touch $@

$(VENV)/.installed-test: $(BIN)/python $(SOURCES)
	rm -rf build
	$(BIN)/pip install -q ".[test]"
	rm -rf build *.egg-info
	touch $@ $(VENV)/.installed-serve

$(VENV)/.installed-bench: $(VENV)/.installed-test
	$(BIN)/pip install -q ".[test,bench]"
	rm -rf build *.egg-info
	touch $@ $(VENV)/.installed-serve $(VENV)/.installed-test

install: $(VENV)/.installed-serve

# no twistd.pid: a second server is refused by what it clashes on (the port, or the data
# directory's lock) with one line saying so
serve: $(VENV)/.installed-serve
	$(BIN)/twistd -n --pidfile= queryhttp --http_handler_host $(HOST) --http_handler_port $(PORT) \
		$(if $(DATA_DIR),--data_dir $(DATA_DIR))

# Tables keep columns by default; the tests of what a table's storage touches (writes, the log
# and recovery, transactions, memory and step budgets, scans) run once more over row tuples
# (QUERYHTTP_COLUMNS=0), so both storages stay tested. The storage's own tests
# (test_table_storage, test_column_*) run in both storages in the first pass already.
STORAGE_TESTS := $(addprefix tests/engine/, test_dml.py test_dml_statements.py \
	test_durability.py test_recovery.py test_commit_point.py test_log_failure.py \
	test_transactions.py test_memory.py test_memory_dml.py test_step_budget.py \
	test_step_budget_dml.py test_plan_cache.py test_select.py test_nulls.py test_execution.py \
	test_create_table_as.py test_ddl_alter.py test_temp_tables.py test_window_functions.py)

test: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/python -m pytest
	QUERYHTTP_COLUMNS=0 $(BIN)/python -m pytest $(STORAGE_TESTS)

bench: $(VENV)/.installed-bench
	$(BIN)/python -m bench.engine
	$(BIN)/python -m bench.http
	$(BIN)/python -m bench.stall

clean:
	rm -rf $(VENV) .venv-dbt build *.egg-info
