# Everything a reader or CI needs, from a fresh clone with only python3, make and apt:
#   make test       ruff, then pytest: unit tests, doctests and every notebook (nbval)
#   make book       the website in _build/html, English, and Chinese in _build/html/zh_CN
#                   (built in _build/zh_CN from the catalogs; warnings are errors)
#   make book-en, make book-zh  one edition only
#   make keras-releases  fetch the two pinned Keras wheels the book shows lines of
#                   (once; cached outside the tree, KERASMINI_KERAS_CACHE to move it)
#   make benchmark  time kerasmini's fit on the 8x8 digits (MLP at batch 32 and
#                   1024, widths, CNN), an LSTM (PyTorch joins both when
#                   .venv-keras is there), a wide Dense,
#                   float32 subnormals in Adam, and import kerasmini
#                   (make venv-jax first: JAX on the CPU joins the MLP's table)
#   make notebooks  re-run every chapter and store its outputs (after changing kerasmini)
#   make student    the chapters as nbgrader assignments: student versions in
#                   classroom/release (COURSE=dir to put the course elsewhere;
#                   EDITION=zh_CN: the Chinese notebooks)
#   make grade      nbgrader autograde of classroom/submitted (each kernel in the
#                   bubblewrap sandbox), a CSV of grades and feedback pages
#   make feedback   the feedback pages again (RELEASE=1: to the nbgrader exchange)
#   make student-book  the website without the solutions, in _build/student
#   make interop    .keras files: real Keras 3.15.1 loads kerasmini's and the other way;
#                   the data helpers give Keras's arrays and batches
#   make parity     the book's scenarios run by kerasmini and real Keras, compared;
#                   Keras's own unit tests run against kerasmini (a measurement)
#   make keras-unit-tests  every Keras unit test of losses, metrics, layers and ops
#                   against kerasmini, summed per family (a measurement, ~5 min)
#   make browser-test  the built site, both editions, in headless Chromium (screenshots in
#                   _build/screenshots): console errors, layout at 1280 and 390 px, axe-core
#                   (WCAG A/AA), Chinese search, the language switcher
#   make pdf        the book as one PDF (TeX Live, installed with apt-get if missing),
#                   checked, and copied beside the website's pages
#   make pdf-zh     the Chinese PDF (xeCJK, Noto CJK fonts), beside the Chinese pages
#   make package    sdist and wheel built; the wheel installed into fresh virtualenvs
#                   (Python 3.10 and the newest here) to fit, save, load and draw
#   make clean      remove _build

PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

# Root needs no sudo; everyone else uses it when it exists.
SUDO := $(shell [ "$$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && echo sudo)

.PHONY: venv graphviz bubblewrap lint browser-test test book benchmark notebooks classroom \
	student grade feedback student-book interop parity clean keras-releases texlive pdf \
	package axe keras-unit-tests book-en book-zh pdf-zh texlive-cjk

venv: $(STAMP)

# Reinstall only when the requirements or the project metadata change.
$(STAMP): requirements.txt pyproject.toml
	@if [ ! -x $(VPY) ]; then \
	  if ! $(PYTHON) -c "import ensurepip, venv" >/dev/null 2>&1; then \
	    if command -v apt-get >/dev/null 2>&1; then \
	      echo "$(PYTHON) cannot create a virtualenv: installing python3-venv"; \
	      $(SUDO) apt-get update && \
	      $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv; \
	    else \
	      echo "error: '$(PYTHON) -m venv' needs the venv module (and ensurepip)." >&2; \
	      exit 1; \
	    fi; \
	  fi; \
	  $(PYTHON) -m venv $(VENV); \
	fi
	$(VPY) -m pip install -r requirements.txt
	$(VPY) -m pip install -e . --no-deps
	touch $(STAMP)

# The Python graphviz package only calls the `dot` program, which is a system package.
graphviz:
	@if command -v dot >/dev/null 2>&1; then \
	  :; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  echo "Installing Graphviz with apt-get"; \
	  $(SUDO) apt-get update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y graphviz; \
	elif command -v brew >/dev/null 2>&1; then \
	  brew install graphviz; \
	elif command -v conda >/dev/null 2>&1; then \
	  conda install -y graphviz; \
	else \
	  echo "error: Graphviz's 'dot' program is needed and I cannot install it here." >&2; \
	  echo "  Debian/Ubuntu: sudo apt-get install graphviz" >&2; \
	  echo "  macOS:         brew install graphviz" >&2; \
	  echo "  conda:         conda install graphviz" >&2; \
	  echo "  Windows:       https://graphviz.org/download/ (then put dot on PATH)" >&2; \
	  exit 1; \
	fi
	@command -v dot >/dev/null 2>&1 || { \
	  echo "error: Graphviz was installed but 'dot' is not on PATH." >&2; exit 1; }
	@dot -V

# Grading runs each student's kernel inside bubblewrap (tools/sandbox.py). Installed
# like Graphviz where apt-get is; elsewhere `make grade` grades without it, with a
# loud warning (teachers.md, "The sandbox").
bubblewrap:
	@if command -v bwrap >/dev/null 2>&1; then \
	  :; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  echo "Installing bubblewrap with apt-get (the grading sandbox)"; \
	  $(SUDO) apt-get update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y bubblewrap || \
	  echo "warning: could not install bubblewrap; grading will be unsandboxed" >&2; \
	else \
	  echo "warning: bubblewrap (bwrap) is not installed and I cannot install it here;" >&2; \
	  echo "  make grade will run the students' code WITHOUT a sandbox (see teachers.md)." >&2; \
	fi

# ruff first: a lint error fails the run before the slower tests start
lint: venv
	$(VENV)/bin/ruff check kerasmini tests tools benchmarks

# The classroom round trip (tests/test_classroom_nbgrader.py) needs nbgrader, and
# bubblewrap for its hostile submission. pytest-xdist runs the suite in
# PYTEST_WORKERS processes (0: in this one); --dist loadscope keeps a test file,
# hence a notebook and its kernel, on one worker, and its module fixtures built once;
# --no-loadscope-reorder hands the files out in the order tests/conftest.py puts
# them in (the longest first, LONGEST_FIRST) instead of by their number of tests.
PYTEST_WORKERS ?= 2
test: venv graphviz lint classroom bubblewrap keras-releases
	$(VPY) -m pytest -n $(PYTEST_WORKERS) --dist loadscope --no-loadscope-reorder

# keras==2.6.0 and keras==3.15.1 from PyPI (pip download --no-deps, sha256 pinned in
# kerasmini/book/keras_releases.py), kept outside the tree; offline once cached.
# The book renders Keras's lines from them; tests/test_keras_lines.py scans the
# repository for them.
keras-releases: venv
	@$(VPY) -m kerasmini.book.keras_releases

# The website in two editions from the same sources, each built with -W: English
# in _build/html, Chinese in _build/zh_CN (its _config.yml and _toc.yml written
# by tools/edition.py from ours and the catalogs) and copied into _build/html/zh_CN.
book: book-en book-zh
	$(VPY) tools/check_book.py

book-en: venv graphviz keras-releases
	$(VENV)/bin/jupyter-book build . -W -n --keep-going

ZH_OUT := _build/zh_CN
book-zh: venv graphviz keras-releases
	$(VPY) tools/edition.py config zh_CN
	$(VENV)/bin/jupyter-book build . --config $(ZH_OUT)/_config.yml \
	  --toc $(ZH_OUT)/_toc.yml --path-output $(ZH_OUT) -W -n --keep-going
	$(VPY) tools/edition.py place zh_CN

# JAX on the CPU, an optional contender of benchmarks.fit_digits, lives in a venv
# of its own (no test needs it): after `make venv-jax`, `make benchmark` runs
# fit_digits with that venv's Python, which adds the JAX row.
JAX_VENV := .venv-jax
.PHONY: venv-jax
venv-jax: $(JAX_VENV)/.installed
$(JAX_VENV)/.installed: requirements.txt pyproject.toml
	$(PYTHON) -m venv $(JAX_VENV)
	$(JAX_VENV)/bin/python -m pip install jax "numpy>=1.24,<3" h5py scikit-learn
	$(JAX_VENV)/bin/python -m pip install -e . --no-deps
	touch $@

benchmark: venv
	OPENBLAS_NUM_THREADS=1 \
	  $(if $(wildcard $(JAX_VENV)/.installed),$(JAX_VENV)/bin/python,$(VPY)) \
	  -m benchmarks.fit_digits \
	  $(if $(wildcard $(KERAS_VENV)/bin/python),--torch-python $(KERAS_VENV)/bin/python)
	OPENBLAS_NUM_THREADS=1 $(VPY) -m benchmarks.fit_lstm \
	  $(if $(wildcard $(KERAS_VENV)/bin/python),--torch-python $(KERAS_VENV)/bin/python)
	$(VPY) -m benchmarks.wide_dense
	$(VPY) -m benchmarks.subnormals
	$(VPY) -m benchmarks.import_cost

# The chapters show kerasmini's own source and line numbers: after editing the
# library, re-run them so their stored outputs (which nbval compares) are current;
# then the Chinese notebooks take the new code and outputs (tools/i18n.py).
notebooks: venv graphviz
	$(VENV)/bin/jupyter nbconvert --to notebook --execute --inplace chapters/*.ipynb
	$(VPY) tools/clean_notebooks.py chapters/*.ipynb
	$(VPY) tools/i18n.py notebooks

# Teachers: nbgrader (requirements-classroom.txt) is installed on first use; readers
# who only build the book never need it. The course folder is nbgrader's own
# (source/, release/, submitted/, autograded/, gradebook.db); `make clean` keeps it.
CLASSROOM_STAMP := $(VENV)/.classroom-installed
COURSE ?= classroom

classroom: $(CLASSROOM_STAMP)

$(CLASSROOM_STAMP): requirements-classroom.txt $(STAMP)
	$(VPY) -m pip install -r requirements-classroom.txt
	touch $@

# nbgrader generate_assignment: solutions become stubs, checks are locked.
# EDITION=zh_CN hands out the Chinese notebooks (locales/zh_CN/chapters).
EDITION ?= en
student: classroom
	$(VPY) tools/classroom.py student --course $(COURSE) --language $(EDITION)

# nbgrader autograde (sandboxed where bubblewrap works; SANDBOX=off to run the
# students' code with your rights), export, feedback; COLLECT=1 first runs
# `nbgrader collect` (an exchange), FORCE=1 grades again what was graded before.
SANDBOX ?= auto
grade: classroom bubblewrap
	$(VPY) tools/classroom.py grade --course $(COURSE) --sandbox $(SANDBOX) \
	  $(if $(COLLECT),--collect) $(if $(FORCE),--force)

# nbgrader generate_feedback again (after you changed a score by hand); RELEASE=1
# also hands it out through the exchange (nbgrader release_feedback).
feedback: classroom
	$(VPY) tools/classroom.py feedback --course $(COURSE) $(if $(RELEASE),--release)

# The website as students should see it: every solution is the stub.
student-book: venv graphviz
	$(VPY) tools/classroom.py student-book --out _build/student

# Real Keras (with PyTorch's CPU build as its backend) lives in a venv of its own:
# kerasmini never imports it; the interop tests run it in a subprocess.
KERAS_VENV := .venv-keras
$(KERAS_VENV)/.installed:
	$(PYTHON) -m venv $(KERAS_VENV)
	$(KERAS_VENV)/bin/python -m pip install "keras==3.15.1" "torch==2.13.0" h5py
	touch $@

# Keras's directory and timeseries datasets are tf.data pipelines (even on the
# torch backend): the data helpers are compared with a Keras that has TensorFlow,
# in a venv of its own so that the other comparisons run without it. That venv
# sees the packages of $(KERAS_VENV) through a .pth file (listed after its own),
# so Keras and torch (1.3 GB) are installed once; pip puts in it only what
# TensorFlow adds or needs in another version (h5py).
KERAS_DATA_VENV := .venv-keras-data
KERAS_SITE = $(shell $(KERAS_VENV)/bin/python -c "import sysconfig; \
	print(sysconfig.get_path('purelib'))")
$(KERAS_DATA_VENV)/.installed: $(KERAS_VENV)/.installed
	$(PYTHON) -m venv $(KERAS_DATA_VENV)
	echo "$(KERAS_SITE)" > "$$($(KERAS_DATA_VENV)/bin/python -c "import sysconfig; \
	  print(sysconfig.get_path('purelib'))")/kerasmini-keras-venv.pth"
	$(KERAS_DATA_VENV)/bin/python -m pip install "keras==3.15.1" "torch==2.13.0" \
	  "tensorflow-cpu==2.21.0" pillow h5py
	touch $@

# Both real-Keras venvs and the parity tools' test dependencies (CI installs
# them in a step of their own, so that its times show installs apart).
.PHONY: keras-venvs
keras-venvs: $(KERAS_VENV)/.installed $(KERAS_VENV)/.test-deps-xdist \
	$(KERAS_DATA_VENV)/.installed

# One pytest session: the Keras side of every module runs in one shared worker
# per venv and backend (tests/keras_worker.py), which imports Keras once.
INTEROP_TESTS := tests/test_saving_keras_interop.py tests/test_rnn_keras.py \
	tests/test_losses_keras.py tests/test_masking_keras.py \
	tests/test_layer_configs_keras.py tests/test_config_keras.py \
	tests/test_morelayers_keras.py tests/test_attention_keras.py \
	tests/test_ops_keras.py tests/test_keras_worker.py \
	tests/test_utils_data_keras.py tests/test_layers_preprocessing_keras.py
interop: venv $(KERAS_VENV)/.installed $(KERAS_DATA_VENV)/.installed
	KERASMINI_REAL_KERAS_PYTHON=$(abspath $(KERAS_VENV))/bin/python KERAS_BACKEND=torch \
	  KERASMINI_REAL_KERAS_DATA_PYTHON=$(abspath $(KERAS_DATA_VENV))/bin/python \
	  $(VPY) -m pytest $(INTEROP_TESTS) -q

# Keras's unit tests (shipped in its wheel) also need absl-py and pytest; the
# guide tests run on Keras need scikit-learn (the digits), and pytest-xdist shares
# them among the CPUs (tools/guide_tests_on_keras.py --workers).
$(KERAS_VENV)/.test-deps: $(KERAS_VENV)/.installed
	$(KERAS_VENV)/bin/python -m pip install absl-py pytest scikit-learn
	touch $@
$(KERAS_VENV)/.test-deps-xdist: $(KERAS_VENV)/.test-deps
	$(KERAS_VENV)/bin/python -m pip install pytest-xdist
	touch $@

# The parity suite is the gate; the unit-test table is a measurement (never fails).
parity: venv $(KERAS_VENV)/.installed $(KERAS_VENV)/.test-deps-xdist
	KERASMINI_REAL_KERAS_PYTHON=$(abspath $(KERAS_VENV))/bin/python KERAS_BACKEND=torch \
	  $(VPY) -m pytest tests/parity -q -rx
	$(VPY) tools/parity_summary.py --check
	-$(KERAS_VENV)/bin/python tools/keras_unit_tests.py \
	  --json _build/parity/keras_unit_tests.json
	-$(KERAS_VENV)/bin/python tools/guide_tests_on_keras.py \
	  --json _build/parity/guide_tests_on_keras.json

# All of Keras's unit tests of four families, not only the taught classes' files.
keras-unit-tests: $(KERAS_VENV)/.installed $(KERAS_VENV)/.test-deps
	-$(KERAS_VENV)/bin/python tools/keras_unit_tests.py \
	  --family losses metrics layers ops --json _build/parity/keras_unit_tests_families.json

clean:
	rm -rf _build

# The website in Debian's Chromium, driven by Playwright (its own browser download
# does not work offline, so it is pointed at /usr/bin/chromium), both editions;
# the Noto CJK fonts draw the Chinese pages (without them: boxes, and the
# Chinese tests fail).
# Each of BROWSER_WORKERS pytest-xdist workers drives a Chromium of its own
# (its pages are rendered and checked by axe-core: CPU-bound, 2 for 2 cores).
BROWSER_WORKERS ?= 2
browser-test: book axe
	@{ command -v chromium >/dev/null 2>&1 && \
	  fc-list 2>/dev/null | grep -q "Noto Sans CJK"; } || { \
	  echo "Installing Chromium and the Noto CJK fonts with apt-get"; \
	  $(SUDO) apt-get update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium \
	    fonts-noto-cjk; }
	$(VPY) -c "import playwright" 2>/dev/null || $(VPY) -m pip install -r requirements-browser.txt
	rm -f _build/screenshots/overflow.txt
	$(VPY) -m pytest tests/test_browser.py tests/test_browser_zh.py \
	  tests/test_browser_reader.py -m browser -q -rs -n $(BROWSER_WORKERS)

# The PDF: jupyter-book's LaTeX builder (XeLaTeX) in a folder of its own (the
# HTML build's doctrees make the LaTeX builder refuse), then copied beside the
# website's pages, where the front page links it, and checked (tests/test_pdf.py:
# pages, every figure an image, fonts embedded). Another edition: its _config
# and _toc files, e.g. make pdf-zh below.
PDF_CONFIG ?= _config.yml
PDF_TOC    ?= _toc.yml
PDF_OUT    ?= _build/pdf
PDF_NAME   ?= kerasmini-book
PDF_SITE   ?= _build/html
PDF_LANGUAGE ?= en
# Debian's TeX Live core (about 360 MB, 3 minutes), FreeSerif/FreeSans/FreeMono,
# rsvg-convert for the SVG drawings, poppler for looking at pages (pdftoppm).
TEX_PACKAGES := texlive-xetex texlive-latex-extra texlive-fonts-recommended latexmk \
	fonts-freefont-otf librsvg2-bin poppler-utils

texlive:
	@if command -v xelatex >/dev/null 2>&1 && command -v latexmk >/dev/null 2>&1 && \
	  command -v rsvg-convert >/dev/null 2>&1 && command -v pdftoppm >/dev/null 2>&1 && \
	  kpsewhich tcolorbox.sty >/dev/null 2>&1 && \
	  fc-list 2>/dev/null | grep -q FreeSerif; then \
	  :; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  echo "Installing TeX Live and fonts with apt-get"; \
	  $(SUDO) apt-get update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y \
	    $(TEX_PACKAGES); \
	else \
	  echo "error: the PDF needs XeLaTeX, latexmk, rsvg-convert and the FreeFont fonts." >&2; \
	  echo "  Debian/Ubuntu: sudo apt-get install $(TEX_PACKAGES)" >&2; \
	  echo "  macOS: MacTeX (brew install --cask mactex), brew install librsvg poppler" >&2; \
	  exit 1; \
	fi

pdf: venv graphviz texlive
	$(VENV)/bin/jupyter-book build . --builder pdflatex --config $(PDF_CONFIG) \
	  --toc $(PDF_TOC) --path-output $(PDF_OUT) -W -n --keep-going
	mkdir -p $(PDF_SITE)
	cp $(PDF_OUT)/_build/latex/$(PDF_NAME).pdf $(PDF_SITE)/$(PDF_NAME).pdf
	KERASMINI_PDF=$(PDF_SITE)/$(PDF_NAME).pdf KERASMINI_PDF_LANGUAGE=$(PDF_LANGUAGE) \
	  $(VPY) -m pytest tests/test_pdf.py -v

# The Chinese PDF: the same build with the Chinese edition's _config.yml and
# _toc.yml (tools/edition.py), for which Sphinx loads xeCJK (XeLaTeX), set to
# the Noto CJK fonts; copied beside the Chinese pages, as zh_CN/kerasmini-book.pdf,
# where the Chinese front page links it. Debian's texlive-lang-cjk has xeCJK
# (texlive-lang-chinese, 100 MB more, adds ctex and the Fandol fonts, unused).
TEX_CJK_PACKAGES := texlive-lang-cjk fonts-noto-cjk
texlive-cjk: texlive
	@if kpsewhich xeCJK.sty >/dev/null 2>&1 && \
	  fc-list 2>/dev/null | grep -q "Noto Serif CJK"; then \
	  :; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  echo "Installing xeCJK and the Noto CJK fonts with apt-get"; \
	  $(SUDO) apt-get update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y \
	    $(TEX_CJK_PACKAGES); \
	else \
	  echo "error: the Chinese PDF needs xeCJK and the Noto CJK fonts." >&2; \
	  echo "  Debian/Ubuntu: sudo apt-get install $(TEX_CJK_PACKAGES)" >&2; \
	  exit 1; \
	fi

pdf-zh: venv texlive-cjk
	$(VPY) tools/edition.py config zh_CN
	$(MAKE) pdf PDF_CONFIG=$(ZH_OUT)/_config.yml PDF_TOC=$(ZH_OUT)/_toc.yml \
	  PDF_OUT=_build/pdf-zh_CN PDF_SITE=_build/html/zh_CN PDF_LANGUAGE=zh_CN

# The package as users get it (tests/test_package.py): built with `python -m
# build`, the wheel installed into fresh virtualenvs through pip's cache, bare and
# with the `book` extra, on Python 3.10 and on the newest Python found (pyenv's too).
package: venv graphviz
	KERASMINI_PACKAGE_TEST=1 $(VPY) -m pytest tests/test_package.py -v

# axe-core, the accessibility rules make browser-test runs inside each page
# (tests/test_browser_reader.py); npm only fetches the file, Chromium runs it.
AXE_VERSION := 4.14.1
AXE_DIR     := _build/node
AXE_STAMP   := $(AXE_DIR)/.axe-core-$(AXE_VERSION)

axe: $(AXE_STAMP)

$(AXE_STAMP):
	@command -v npm >/dev/null 2>&1 || { \
	  echo "Installing npm with apt-get"; \
	  $(SUDO) apt-get update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y npm; }
	npm install --prefix $(AXE_DIR) --no-save --no-package-lock --no-audit --no-fund \
	  axe-core@$(AXE_VERSION)
	touch $@
