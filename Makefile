# The two commands a newcomer needs: `make serve` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install serve test lint bench clean dbt-env

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# A plain (non-editable) install: twistd does not see plugins of a default editable install.
install: $(BIN)/python
	$(BIN)/pip install -q ".[test]"

serve: install
	$(BIN)/twistd -n queryhttp --http_handler_host $(HOST) --http_handler_port $(PORT)

test: install dbt-env
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

# dbt and its Databend adapter pin an older databend-sqlalchemy than the test extras: they get a
# virtual environment of their own, used by tests/e2e/test_dbt.py
dbt-env: .venv-dbt/bin/dbt

.venv-dbt/bin/dbt:
	$(PYTHON) -m venv .venv-dbt
	.venv-dbt/bin/pip install -q "dbt-databend-cloud==1.8.1" "dbt-core==1.8.9" "setuptools<70"

bench: install
	$(BIN)/pip install -q ".[bench]"
	$(BIN)/python -m bench.engine
	$(BIN)/python -m bench.http
	$(BIN)/python -m bench.stall

clean:
	rm -rf $(VENV) .venv-dbt build *.egg-info
