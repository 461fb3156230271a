# Everything a reader or CI needs, from a fresh clone with only python3, make and apt:
#   make test       ruff, then pytest: unit tests, doctests and every notebook (nbval)
#   make book       the website in _build/html (warnings are errors)
#   make benchmark  time kerasmini's fit on the 8x8 digits (MLP, widths, CNN), a wide
#                   Dense, float32 subnormals in Adam, and import kerasmini
#   make notebooks  re-run every chapter and store its outputs (after changing kerasmini)
#   make student    the chapters as nbgrader assignments: student versions in
#                   classroom/release (COURSE=dir to put the course elsewhere)
#   make grade      nbgrader autograde of classroom/submitted, then a CSV of grades
#   make interop    .keras files: real Keras 3.15.1 loads kerasmini's and the other way;
#                   the data helpers give Keras's arrays and batches
#   make parity     the book's scenarios run by kerasmini and real Keras, compared;
#                   Keras's own unit tests run against kerasmini (a measurement)
#   make browser-test  the built site in headless Chromium (screenshots in _build/screenshots)
#   make clean      remove _build

PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

# Root needs no sudo; everyone else uses it when it exists.
SUDO := $(shell [ "$$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && echo sudo)

.PHONY: venv graphviz lint browser-test test book benchmark notebooks classroom student grade \
	interop parity clean

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

# ruff first: a lint error fails the run before the slower tests start
lint: venv
	$(VENV)/bin/ruff check kerasmini tests tools benchmarks

# The classroom round trip (tests/test_classroom_nbgrader.py) needs nbgrader.
test: venv graphviz lint classroom
	$(VPY) -m pytest

book: venv graphviz
	$(VENV)/bin/jupyter-book build . -W -n --keep-going
	$(VPY) tools/check_book.py

benchmark: venv
	$(VPY) -m benchmarks.fit_digits
	$(VPY) -m benchmarks.wide_dense
	$(VPY) -m benchmarks.subnormals
	$(VPY) -m benchmarks.import_cost

# The chapters show kerasmini's own source and line numbers: after editing the
# library, re-run them so their stored outputs (which nbval compares) are current.
notebooks: venv graphviz
	$(VENV)/bin/jupyter nbconvert --to notebook --execute --inplace chapters/*.ipynb
	$(VPY) tools/clean_notebooks.py chapters/*.ipynb

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
student: classroom
	$(VPY) tools/classroom.py student --course $(COURSE)

# nbgrader autograde + export; COLLECT=1 first runs `nbgrader collect` (an
# exchange), FORCE=1 grades again what was graded before.
grade: classroom
	$(VPY) tools/classroom.py grade --course $(COURSE) \
	  $(if $(COLLECT),--collect) $(if $(FORCE),--force)

# Real Keras (with PyTorch's CPU build as its backend) lives in a venv of its own:
# kerasmini never imports it; the interop tests run it in a subprocess.
KERAS_VENV := .venv-keras
$(KERAS_VENV)/.installed:
	$(PYTHON) -m venv $(KERAS_VENV)
	$(KERAS_VENV)/bin/python -m pip install "keras==3.15.1" "torch==2.13.0" h5py
	touch $@

# Keras's directory and timeseries datasets are tf.data pipelines (even on the
# torch backend): the data helpers are compared with a Keras that has TensorFlow,
# in a venv of its own so that the other comparisons run without it.
KERAS_DATA_VENV := .venv-keras-data
$(KERAS_DATA_VENV)/.installed:
	$(PYTHON) -m venv $(KERAS_DATA_VENV)
	$(KERAS_DATA_VENV)/bin/python -m pip install "keras==3.15.1" "torch==2.13.0" \
	  "tensorflow-cpu==2.21.0" pillow h5py
	touch $@

interop: venv $(KERAS_VENV)/.installed $(KERAS_DATA_VENV)/.installed
	KERASMINI_REAL_KERAS_PYTHON=$(abspath $(KERAS_VENV))/bin/python KERAS_BACKEND=torch \
	  $(VPY) -m pytest tests/test_saving_keras_interop.py tests/test_rnn_keras.py -q
	KERASMINI_REAL_KERAS_DATA_PYTHON=$(abspath $(KERAS_DATA_VENV))/bin/python \
	  $(VPY) -m pytest tests/test_utils_data_keras.py -q

# Keras's unit tests (shipped in its wheel) also need absl-py and pytest; the
# guide tests run on Keras need scikit-learn (the digits).
$(KERAS_VENV)/.test-deps: $(KERAS_VENV)/.installed
	$(KERAS_VENV)/bin/python -m pip install absl-py pytest scikit-learn
	touch $@

# The parity suite is the gate; the unit-test table is a measurement (never fails).
parity: venv $(KERAS_VENV)/.installed $(KERAS_VENV)/.test-deps
	KERASMINI_REAL_KERAS_PYTHON=$(abspath $(KERAS_VENV))/bin/python KERAS_BACKEND=torch \
	  $(VPY) -m pytest tests/parity -q -rx
	$(VPY) tools/parity_summary.py --check
	-$(KERAS_VENV)/bin/python tools/keras_unit_tests.py \
	  --json _build/parity/keras_unit_tests.json
	-$(KERAS_VENV)/bin/python tools/guide_tests_on_keras.py \
	  --json _build/parity/guide_tests_on_keras.json

clean:
	rm -rf _build

# The website in Debian's Chromium, driven by Playwright (its own browser download
# does not work offline, so it is pointed at /usr/bin/chromium).
browser-test: book
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Chromium with apt-get"; \
	  $(SUDO) apt-get update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; }
	$(VPY) -c "import playwright" 2>/dev/null || $(VPY) -m pip install -r requirements-browser.txt
	$(VPY) -m pytest tests/test_browser.py -m browser -v
