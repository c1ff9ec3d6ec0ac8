# Two commands on a fresh machine (Python 3.11):
#   make book   environment from the lock, data, every chapter executed, HTML in _build/html
#               (skipped while _build/.book-stamp matches the sources: see tools/book_stamp.py)
#   make test   the test suite, the book build and a reader-level check of the pages in Chromium
# For teaching: make notebooks (student and solutions notebooks), make lab (JupyterLab on the chapters).
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
# The public repository (https://github.com/OWNER/REPO): without it, the book has no repository,
# issues or launch buttons (_ext/repository_buttons.py).
IRREPRO_REPOSITORY_URL ?=
export IRREPRO_REPOSITORY_URL
BOOK_STAMP := _build/.book-stamp

.PHONY: env data book book-force notebooks lab test lint pytest check-html check-teaching clean lock

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

# The digest is taken before the build, so a source edited during the build triggers the next one;
# the stamp is written only when the build succeeded.
define build_book
	@digest=$$($(BIN)/python tools/book_stamp.py); \
	if [ "$(1)" != force ] && [ -f _build/html/index.html ] && [ "$$digest" = "$$(cat $(BOOK_STAMP) 2> /dev/null)" ]; then \
	  echo "make book: _build/html is up to date with its sources ($(BOOK_STAMP)); 'make book-force' rebuilds it"; \
	else \
	  rm -rf _build/html _build/jupyter_execute _build/.doctrees _build/.jupyter_cache $(BOOK_STAMP) && \
	  echo "python tools/build_book.py (jupyter-book build . --builder html -W -n --keep-going, on every core)" && \
	  $(BIN)/python tools/build_book.py && \
	  echo "$$digest" > $(BOOK_STAMP) && echo "The book is in _build/html/index.html"; \
	fi
endef

book: env data notebooks
	$(call build_book)

book-force: env data notebooks
	$(call build_book,force)

# Every page as a notebook: _build/notebooks/solutions/ and _build/notebooks/student/ (no outputs).
notebooks: env
	$(BIN)/python tools/make_notebooks.py --out _build/notebooks

# JupyterLab on the chapters; .jupyter/labconfig makes a double click open a chapter as a notebook
# (jupytext's "Jupytext Notebook" as the default viewer of Markdown, for this project only).
lab: env data
	JUPYTER_CONFIG_PATH="$(CURDIR)/.jupyter$${JUPYTER_CONFIG_PATH:+:$$JUPYTER_CONFIG_PATH}" \
	  $(BIN)/jupyter lab --ServerApp.root_dir="$(CURDIR)" --LabApp.default_url=/lab/tree/chapters \
	  $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_OPTIONS)

pytest: env data
	$(BIN)/python -m pytest

check-html:
	@command -v chromium > /dev/null || { [ "$$(id -u)" = 0 ] && apt-get install -y -qq chromium > /dev/null; } \
	  || { echo "check-html needs Chromium: apt-get install chromium"; exit 1; }
	$(BIN)/python tools/check_html.py _build/html

# Exercises numbered, solutions folded, notebook downloads working, no button to a missing repository.
check-teaching:
	$(BIN)/python tools/check_teaching.py _build/html

# The linter's rules are in pyproject.toml ([tool.ruff]); numpydoc's validation of the docstrings of
# every public function, class and method (the checks, and the modules not yet converted, are listed in
# tools/check_docstrings.py).
lint: env
	$(BIN)/ruff check src tests tools benchmarks _ext conftest.py
	$(BIN)/python tools/check_docstrings.py

test: lint book check-html check-teaching pytest

clean:
	rm -rf _build

# Recompile the lock after editing requirements.in (exact pins, no machine-local index URLs).
lock: env
	$(BIN)/pip-compile --quiet --strip-extras --no-header --no-emit-index-url --no-emit-find-links \
	  requirements.in -o requirements.txt
