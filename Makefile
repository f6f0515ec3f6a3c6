# Two entry points: `make demo` (main job) and `make test` (whole suite). Each creates .venv when missing.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PIP := $(VENV)/bin/python -m pip install --quiet --disable-pip-version-check --no-deps
CORE := $(VENV)/.installed-core
TEST := $(VENV)/.installed-test
# pytest-xdist workers, the project machine's two cores; `make test TEST_JOBS=0` runs in one process
TEST_JOBS ?= 2

.PHONY: demo test bench docs clean

demo: $(CORE)
	$(VENV)/bin/stratpol learn gripper

test: $(TEST)
	$(VENV)/bin/python -m pytest -q -n $(TEST_JOBS) --dist worksteal

bench: $(CORE)
	$(VENV)/bin/stratpol bench planning

# docs/cli.md from the parsers (a test checks that it is current)
docs: $(CORE)
	$(VENV)/bin/python -m stratpol.cli.reference > docs/cli.md

$(CORE): pyproject.toml requirements/core.txt
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(PIP) -r requirements/core.txt
	$(PIP) -e .
	touch $@

$(TEST): $(CORE) requirements/test.txt requirements/neural.txt requirements/cluster.txt
	$(PIP) -r requirements/test.txt -r requirements/neural.txt -r requirements/cluster.txt
	touch $@

clean:
	rm -rf $(VENV) build src/*.egg-info
