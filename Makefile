# Two commands on a fresh machine (Python 3.11):
#   make book   environment from the lock, data, every chapter executed, HTML in _build/html
#   make test   the test suite, a clean book build and a reader-level check of the pages in Chromium
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Without internet, data comes from a local mirror; ../shared/data when it is beside the clone.
IRREPRO_DATA_MIRROR ?= $(if $(wildcard ../shared/data/MANIFEST.tsv),$(abspath ../shared/data))
export IRREPRO_DATA_MIRROR
# Pin BLAS threads: the fits are small and two cores are shared with the notebook kernel.
export OPENBLAS_NUM_THREADS ?= 1
export OMP_NUM_THREADS ?= 1
export MKL_NUM_THREADS ?= 1
export PYDEVD_DISABLE_FILE_VALIDATION := 1

.PHONY: env data book test pytest check-html clean lock

env: $(VENV)/.installed

$(VENV)/.installed: requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.txt
	$(BIN)/pip install --quiet --no-deps -e .
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3" > /dev/null
	touch $@

data: env
	$(BIN)/irrepro data fetch > /dev/null
	$(BIN)/irrepro data verify | tail -n 1

book: env data
	rm -rf _build/html _build/jupyter_execute _build/.doctrees
	$(BIN)/jupyter-book build . --builder html -W -n --keep-going
	@echo "The book is in _build/html/index.html"

pytest: env data
	$(BIN)/python -m pytest

check-html:
	@command -v chromium > /dev/null || { [ "$$(id -u)" = 0 ] && apt-get install -y -qq chromium > /dev/null; } \
	  || { echo "check-html needs Chromium: apt-get install chromium"; exit 1; }
	$(BIN)/python tools/check_html.py _build/html

test: book check-html pytest

clean:
	rm -rf _build

# Recompile the lock after editing requirements.in (exact pins, no machine-local index URLs).
lock: env
	$(BIN)/pip-compile --quiet --strip-extras --no-header --no-emit-index-url --no-emit-find-links \
	  requirements.in -o requirements.txt
