# Two entry points, each doing all set-up on a fresh machine:
#   make figures   regenerate every figure, its data, and docs/claims.md
#   make test      run the fast test suite (derandomized hypothesis profile `ci`, no `slow`)
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# A CPU build of this pin is cached on the project's machines; an unpinned torch
# would pull several GB of CUDA wheels. Override with TORCH_SPEC=... elsewhere.
TORCH_SPEC ?= torch==2.13.0
STAMP  := $(VENV)/.installed

.PHONY: setup figures claims test test-slow test-dev clean

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

test: $(STAMP)
	HYPOTHESIS_PROFILE=ci $(BIN)/python -m pytest -q -n 2 -p no:cacheprovider -m "not slow"

test-slow: $(STAMP)
	HYPOTHESIS_PROFILE=ci $(BIN)/python -m pytest -q -n 2 -p no:cacheprovider -m slow

test-dev: $(STAMP)
	HYPOTHESIS_PROFILE=dev $(BIN)/python -m pytest -q -n 2

clean:
	rm -rf $(VENV) *.egg-info .hypothesis .pytest_cache
