# The two commands a newcomer needs: `make serve` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# where `make serve` keeps its data (ignored by git); `make serve DATA_DIR=` serves from memory
DATA_DIR ?= data

.PHONY: install serve test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# A plain (non-editable) install: twistd does not see plugins of a default editable install.
install: $(BIN)/python
	$(BIN)/pip install -q ".[test]"

serve: install
	$(BIN)/twistd -n queryhttp --http_handler_host $(HOST) --http_handler_port $(PORT) \
		$(if $(DATA_DIR),--data_dir $(DATA_DIR))

test: install
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

bench: install
	$(BIN)/pip install -q ".[bench]"
	$(BIN)/python -m bench.engine
	$(BIN)/python -m bench.http
	$(BIN)/python -m bench.stall

clean:
	rm -rf $(VENV) .venv-dbt build *.egg-info
