# Two entry points, each doing all set-up on a fresh machine:
#   make figures   regenerate every figure, its data, and docs/claims.md
#   make test      run the fast test suite (derandomized hypothesis profile `ci`, no `slow`)
# and two checks:
#   make check       regenerate into runs/figures/check/ and compare with the committed page
#   make test-core   the quick ledger and figures on the core install (no extras), in its own venv
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# A CPU build of this pin is cached on the project's machines; an unpinned torch
# would pull several GB of CUDA wheels. Override with TORCH_SPEC=... elsewhere.
TORCH_SPEC ?= torch==2.13.0
STAMP  := $(VENV)/.installed
# the core install: install_requires only (no POT, PEPit, GeomLoss, datasets, pytest, hypothesis);
# under runs/, which git ignores
CORE_VENV  ?= runs/venv-core
CORE_BIN   := $(CORE_VENV)/bin
CORE_STAMP := $(CORE_VENV)/.installed
EXTRAS     := ot PEPit geomloss datasets pytest hypothesis

.PHONY: setup figures claims check test test-slow test-dev test-core clean

$(STAMP): setup.cfg pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -c "import torch" 2>/dev/null || $(BIN)/pip install -q "$(TORCH_SPEC)"
	$(BIN)/pip install -q -e '.[test,ot,pepit,geomloss]'
	touch $(STAMP)

setup: $(STAMP)

figures: $(STAMP)
	$(BIN)/python -m figures

claims: $(STAMP)
	$(BIN)/python -m claims

check: $(STAMP)
	$(BIN)/python -m figures --check

test: $(STAMP)
	HYPOTHESIS_PROFILE=ci $(BIN)/python -m pytest -q -n 2 -p no:cacheprovider -m "not slow"

test-slow: $(STAMP)
	HYPOTHESIS_PROFILE=ci $(BIN)/python -m pytest -q -n 2 -p no:cacheprovider -m slow

test-dev: $(STAMP)
	HYPOTHESIS_PROFILE=dev $(BIN)/python -m pytest -q -n 2

$(CORE_STAMP): setup.cfg pyproject.toml
	test -x $(CORE_BIN)/python || $(PYTHON) -m venv $(CORE_VENV)
	$(CORE_BIN)/python -c "import torch" 2>/dev/null || $(CORE_BIN)/pip install -q "$(TORCH_SPEC)"
	$(CORE_BIN)/pip install -q -e .
	touch $(CORE_STAMP)

# every command on the core install: the quick ledger and the quick figures (about 2 minutes)
test-core: $(CORE_STAMP)
	$(CORE_BIN)/python -c "import importlib.util as u, sys; x = [m for m in sys.argv[1:] if u.find_spec(m)]; sys.exit(f'the core venv has extras installed: {x}' if x else 0)" $(EXTRAS)
	$(CORE_BIN)/python -m claims --budget quick
	$(CORE_BIN)/python -m figures --quick --out runs/figures/core

clean:
	rm -rf $(VENV) $(CORE_VENV) *.egg-info .hypothesis .pytest_cache
