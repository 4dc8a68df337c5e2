# Two entry points: `make demo` and `make test`. Each does all set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

CHROMIUM := /usr/bin/chromium
CHROMEDRIVER := /usr/bin/chromedriver

.PHONY: demo test install clean browser

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dask]'
	@# Bytecode as a wheel install would have it: an editable install under
	@# PYTHONDONTWRITEBYTECODE would otherwise compile every module on every run.
	$(BIN)/python -m compileall -q analyzers audit reports topo
	touch $(STAMP)

install: $(STAMP)

# The HTML report test drives Debian's headless Chromium: installed here when absent and we are
# root; otherwise that test is skipped with a loud reason (never silently passed).
browser:
	@if [ ! -x $(CHROMIUM) ] || [ ! -x $(CHROMEDRIVER) ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "make: installing Debian chromium and chromium-driver (HTML report browser test)"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      chromium chromium-driver >/dev/null) || \
	      echo "make: WARNING: chromium could not be installed; the browser test will be SKIPPED"; \
	  else \
	    echo "make: WARNING: chromium is absent and this is not root; the browser test will be SKIPPED"; \
	  fi; \
	fi

test: $(STAMP) browser
	$(BIN)/python -m pytest -q

demo: $(STAMP)
	@bash scripts/demo.sh $(BIN)

clean:
	rm -rf $(VENV) topology-audit test-artifacts .pytest_cache .hypothesis
