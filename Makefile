# Two entry points for people: `make play` and `make test`. Both install what they need first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install warm play test test-nojit check lint bench demo docs clean

ENGINE := packages/steering

$(STAMP): pyproject.toml $(ENGINE)/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ./$(ENGINE) -e '.[test,bench,docs,env]'
	$(BIN)/python -m steering.warmup
	$(BIN)/python -m game.world.warmup
	$(BIN)/python -m game.render.warmup
	touch $(STAMP)

install: $(STAMP)

# Compile and cache every steering kernel again (after editing the engine).
warm: $(STAMP)
	$(BIN)/python -m steering.warmup
	$(BIN)/python -m game.world.warmup
	$(BIN)/python -m game.render.warmup

play: $(STAMP)
	$(BIN)/python -m game

lint: $(STAMP)
	$(BIN)/ruff check game $(ENGINE) tests benchmarks tools examples
	$(BIN)/ruff format --check game $(ENGINE) tests benchmarks tools examples
	$(BIN)/mypy

# Everything: lint, types, tests/unit and tests/integration with every marker (slow, window),
# then the engine's tests without the JIT.
test: lint
	$(BIN)/python -m pytest
	$(MAKE) --no-print-directory test-nojit

# The engine's tests again with NUMBA_DISABLE_JIT=1: the kernels run as plain Python, the
# same source, so a debugger can step through them.
test-nojit: $(STAMP)
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -q -p no:cacheprovider tests/unit/steering tests/unit/engine tests/unit/env/test_rays.py -m "not slow and not window"

# The fast loop while working: lint, types, and the unit tests not marked slow or window
# (under a minute), on two processes (pytest-xdist; the numba caches are warm by then).
check: lint
	$(BIN)/python -m pytest -q -n 2 tests/unit -m "not slow and not window"

# The engine's docs site (mkdocs.yml) into build/docs-site/, every warning an error.
docs: $(STAMP)
	$(BIN)/mkdocs build --strict

bench: $(STAMP)
	$(BIN)/python -m game bench

demo: $(STAMP)
	$(BIN)/python -m game demo

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
