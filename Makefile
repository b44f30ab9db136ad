# Quickstart: `make demo` (see a real diagnosis) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck score report-format bench clean

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	@echo "--- python examples/lstm_hidden.py  (fails the usual way) ---"
	@cd examples && ../$(BIN)/python lstm_hidden.py 2>&1 | tail -n 1
	@echo
	@echo "--- autograd-doctor run examples/lstm_hidden.py ---"
	@cd examples && ../$(BIN)/autograd-doctor run lstm_hidden.py || true

# SLOW=1 also runs the torch.compile cases (CI does); without it they are skipped.
test: $(STAMP) lint typecheck
	$(BIN)/python -m pytest -q -n 2 $(if $(SLOW),,-m "not slow")

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy --strict src/autograd_doctor

score: $(STAMP)
	$(BIN)/python -m tests.corpus.score tuned
	$(BIN)/python -m tests.corpus.score heldout

report-format: $(STAMP)
	$(BIN)/python -m autograd_doctor.report_format --write

bench: $(STAMP)
	$(BIN)/python benchmarks/overhead.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
