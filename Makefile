# papershelf: `make demo` (set up, index the bundled examples, search them) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin
export HF_HUB_OFFLINE = 1
export TOKENIZERS_PARALLELISM = false

.PHONY: venv demo lint test bench clean

venv: $(VENV)/.installed

# torch first, pinned: it is the CPU build; letting sentence-transformers pull torch gets a multi-GB CUDA build.
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check torch==2.13.0
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[local,serve,dev]'
	touch $@

demo: venv
	rm -rf demo && mkdir -p demo
	$(BIN)/papershelf --library demo/library.db index examples/
	$(BIN)/papershelf --library demo/library.db status
	$(BIN)/papershelf --library demo/library.db search "what keeps macrophages inflammatory in wounds" -n 3
	$(BIN)/papershelf --library demo/library.db search "Table: bleaching by depth" --kind table -n 2
	$(BIN)/papershelf --library demo/library.db search "IL-6 western blot" --mode lexical -n 3

# Lint and type checks: ruff (rules and complexity ceiling in pyproject.toml), mypy on the package and the benches.
lint: venv
	$(BIN)/ruff check papershelf tests bench
	$(BIN)/mypy
	$(BIN)/mypy bench

test: venv
	$(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) demo .pytest_cache
