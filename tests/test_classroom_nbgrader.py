"""The classroom round trip with the real nbgrader (tools/classroom.py).

A course gets chapter 3 as an nbgrader assignment (``make student``); made-up
students hand it in, and ``make grade`` (repair, autograde in the sandbox,
export, feedback) must score each as it deserves:

* ada, the solutions: full marks;
* bob, a plausible wrong answer to every exercise: zero;
* carol, who writes nothing and redefines the checks (rebinds their names,
  patches the imported module, plants a fake one): zero;
* dave, whose first answer kills the kernel and second eats all memory: the
  other two exercises still count;
* eve, right, but renamed ``03_layer (1).ipynb`` by a download, with nbgrader
  metadata an editor changed, a grade cell deleted and warnings on stderr:
  full marks;
* frank, a file that is not a notebook: reported, zero, and the others are
  graded and exported anyway;
* mallory, hostile: reads the teacher's files, the other students', a canary
  under the teacher's home and the environment, writes outside her folder,
  calls the network, plants code in the configs, rewrites the gradebook and
  hands in a symlink to the canary. Everything must be blocked.

The student versions of every chapter are checked in-process with the same
preprocessors (no nbgrader run per chapter). nbgrader is a teacher's tool
(requirements-classroom.txt): ``make test`` installs it; without it this
module skips. The hostile and memory-hungry submissions need the bubblewrap
sandbox (``make test`` installs it): without it they are left out, skipped.
"""

import copy
import csv
import hashlib
import io
import json
import os
import socket
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest

pytest.importorskip(
    "nbgrader", reason="nbgrader is not installed (pip install -r requirements-classroom.txt)")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import exercise_cells  # noqa: E402
import nbformat  # noqa: E402
import nbgrader_plugins  # noqa: E402
import sandbox  # noqa: E402
from nbgrader.preprocessors import ClearHiddenTests  # noqa: E402

CHAPTER = "03_layer"  # quick to run; four exercises (a function, two layers
# whose stub sits inside a method, a function worth 2 points)
CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))
ZH_CHAPTERS = sorted((ROOT / "locales" / "zh_CN" / "chapters").glob("*.ipynb"))
SANDBOX, WHY_NO_SANDBOX = sandbox.probe()
needs_sandbox = pytest.mark.skipif(not SANDBOX, reason=f"no sandbox: {WHY_NO_SANDBOX}")

CANARY = f"canary-{uuid.uuid4().hex}"

WRONG = {  # bob: one plausible mistake per exercise
    "ch03-count-params-solution": "return n_in * units",
    "ch03-scale-layer-solution": (
        "self.scale = self.add_weight(shape=(input_shape[-1],), "
        "initializer='zeros', name='scale')"),
    "ch03-sample-counter-solution": "self.seen.assign_add(1)\nreturn inputs",
    "ch03-add-weight-solution": (
        "return layer.add_weight(shape=shape, initializer=initializer, "
        "dtype=dtype, trainable=trainable, name=name)"),
}

CHEAT = '''\
def dense_params(n_in, units, use_bias=True):
    return 0


# the cheats: rebind the check's name, patch the imported module, plant a
# module under the package's name that passes everything
def check_count_params(*answers):
    print("✔ ch03-count-params: correct")


import sys
import types

import kerasmini.book.exercises as package
import kerasmini.book.exercises.ch03 as ch03

for name in dir(ch03):
    if name.startswith("check_"):
        setattr(ch03, name, check_count_params)
package.graded = package.check = check_count_params
fake = types.ModuleType("kerasmini.book.exercises.ch03")
fake.__dict__.update({n: check_count_params for n in dir(ch03) if n.startswith("check_")})
sys.modules["kerasmini.book.exercises.ch03"] = fake
'''

ATTACK = '''\
def dense_params(n_in, units, use_bias=True):
    return 0


import json, os, socket, sqlite3

report = {{}}


def attempt(name, action):
    try:
        report[name] = "DONE " + repr(action())[:300]
    except Exception as error:
        report[name] = "blocked: " + type(error).__name__


def write(path, text="pwned"):
    with open(path, "a") as f:
        f.write(text)


course, home = {course!r}, {home!r}
attempt("read source", lambda: open(course + "/source/03_layer/03_layer.ipynb").read())
attempt("read ada", lambda: open(course + "/submitted/ada/03_layer/03_layer.ipynb").read())
attempt("read canary", lambda: open(home + "/canary.txt").read())
attempt("read ~/canary", lambda: open(os.path.expanduser("~/canary.txt")).read())
attempt("read the planted link", lambda: open("loot.txt").read())
attempt("environment", lambda: dict(os.environ))
attempt("write course", lambda: write(course + "/pwned.txt"))
attempt("write home", lambda: write(home + "/pwned.txt"))
attempt("write tmp", lambda: write("/tmp/{token}"))
attempt("write beside", lambda: write("../pwned.txt"))
attempt("plant teacher_config", lambda: write(course + "/teacher_config.py",
                                              "\\nopen(course + '/planted', 'w')\\n"))
attempt("plant nbgrader_config", lambda: write(course + "/nbgrader_config.py",
                                               "\\nc.Execute.timeout = 1\\n"))
attempt("gradebook", lambda: sqlite3.connect(course + "/gradebook.db").execute(
    "update grade set auto_score = 99").connection.commit())
attempt("network", lambda: socket.create_connection(("127.0.0.1", {port}), 3).close())
attempt("symlink", lambda: os.symlink(course + "/teacher_config.py", "planted-link"))
print("ATTACK " + json.dumps(report))
'''


# --------------------------------------------------------------------------
# Helpers

def run(*args, env=None):
    """Run this Python with ``args`` (from the repository); its stdout."""
    (out,) = run_together(args, env=env)
    return out


def run_together(*commands, env=None):
    """Run several commands of this Python side by side; their stdouts."""
    started = [subprocess.Popen([sys.executable, *args], cwd=ROOT, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=env or os.environ.copy())
               for args in commands]
    outputs = []
    for process in started:
        out, err = process.communicate()
        assert process.returncode == 0, out + err
        outputs.append(out)
    return outputs


def validate(path):
    """What ``nbgrader validate PATH`` prints. The command is a thin wrapper
    (``ValidateApp``) around nbgrader's ``Validator``, called here in-process:
    the same notebook run in a fresh kernel and the same report, without
    starting nbgrader (about 2 s of CPU) for each notebook."""
    from nbgrader.validator import Validator

    validator = Validator()
    validator.stream = report = io.StringIO()  # (a class attribute: sys.stdout)
    validator.validate_and_print(str(path))
    return report.getvalue()


def cells_by_id(nb):
    return {cell["metadata"]["nbgrader"]["grade_id"]: cell for cell in nb["cells"]
            if "nbgrader" in cell["metadata"]}


def text(cell):
    return exercise_cells.source(cell)


def with_answers(release, answers):
    """The student version with the stubs of ``answers`` replaced."""
    nb = copy.deepcopy(release)
    cells = cells_by_id(nb)
    for grade_id, body in answers.items():
        lines = []
        for line in text(cells[grade_id]).split("\n"):
            indent = line[: len(line) - len(line.lstrip())]
            if line.strip() == "# YOUR CODE HERE":
                continue
            if line.strip().startswith("raise NotImplementedError("):
                lines += [indent + row for row in body.split("\n")]
            else:
                lines.append(line)
        cells[grade_id]["source"] = "\n".join(lines)
    return nb


def hand_in(course, student, nb, name=f"{CHAPTER}.ipynb", raw=None):
    folder = course / "submitted" / student / CHAPTER
    folder.mkdir(parents=True)
    content = raw if raw is not None else json.dumps(nb)
    (folder / name).write_text(content, encoding="utf-8")
    return folder


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Listener:
    """A TCP server on the loopback that records any connection."""

    def __init__(self):
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen()
        self.server.settimeout(0.5)
        self.port = self.server.getsockname()[1]
        self.connections = 0
        self.stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.stop:
            try:
                connection, _ = self.server.accept()
            except OSError:
                continue
            self.connections += 1
            connection.close()

    def close(self):
        self.stop = True
        self.thread.join()
        self.server.close()


# --------------------------------------------------------------------------
# The round trip

@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    course = tmp_path_factory.mktemp("course")
    home = tmp_path_factory.mktemp("teacher-home")
    (home / "canary.txt").write_text(CANARY, encoding="utf-8")
    run("tools/classroom.py", "student", "--course", str(course),
        f"chapters/{CHAPTER}.ipynb")
    source = exercise_cells.load(course / "source" / CHAPTER / f"{CHAPTER}.ipynb")
    release = exercise_cells.load(course / "release" / CHAPTER / f"{CHAPTER}.ipynb")
    solutions = {gid: text(c) for gid, c in cells_by_id(source).items()
                 if c["metadata"]["nbgrader"]["solution"]}

    def solved(nb):
        for gid, cell in cells_by_id(nb).items():
            if gid in solutions:
                cell["source"] = solutions[gid]
        return nb

    hand_in(course, "ada", solved(copy.deepcopy(release)))
    hand_in(course, "bob", with_answers(release, WRONG))
    carol = copy.deepcopy(release)
    cells_by_id(carol)["ch03-count-params-solution"]["source"] = CHEAT
    hand_in(course, "carol", carol)

    dave = solved(copy.deepcopy(release))
    dave_cells = cells_by_id(dave)
    dave_cells["ch03-count-params-solution"]["source"] = (
        "def dense_params(n_in, units, use_bias=True):\n"
        "    import os\n    os._exit(1)  # the kernel dies\n")
    if SANDBOX:
        dave_cells["ch03-scale-layer-solution"]["source"] = text(
            dave_cells["ch03-scale-layer-solution"]).replace(
            "self.scale = self.add_weight(",
            "hog = bytearray(64 * 2**30)  # more memory than the limit\n"
            "        self.scale = self.add_weight(")
    hand_in(course, "dave", dave)

    eve = solved(copy.deepcopy(release))
    eve_cells = cells_by_id(eve)
    eve_cells["ch03-count-params-solution"]["source"] = (
        "import os\nimport sys\nimport warnings\n\n"
        + solutions["ch03-count-params-solution"].replace(
            "### BEGIN SOLUTION", "### BEGIN SOLUTION\n    warnings.warn('slow')\n"
            "    os.write(2, b'a line on the kernel process stderr\\n')\n"
            "    print('stderr', file=sys.stderr)"))
    eve_cells["ch03-scale-layer"]["metadata"]["nbgrader"]["points"] = 10
    eve_cells["ch03-scale-layer"]["metadata"]["nbgrader"]["locked"] = False
    eve_cells["ch03-sample-counter-solution"]["metadata"]["nbgrader"] = {"junk": 1}
    eve["cells"].remove(eve_cells["ch03-add-weight"])
    eve["metadata"]["kernelspec"] = {"name": "python3-custom", "display_name": "X",
                                     "language": "python"}
    hand_in(course, "eve", eve, name=f"{CHAPTER} (1).ipynb")

    hand_in(course, "frank", None, raw='{"cells": [ this is not json')

    listener = Listener()
    token = f"pwned-{uuid.uuid4().hex}"
    if SANDBOX:
        mallory = copy.deepcopy(release)
        cells_by_id(mallory)["ch03-count-params-solution"]["source"] = ATTACK.format(
            course=str(course), home=str(home), token=token, port=listener.port)
        folder = hand_in(course, "mallory", mallory)
        os.symlink(home / "canary.txt", folder / "loot.txt")

    configs = {name: digest(course / name)
               for name in ("teacher_config.py", "nbgrader_config.py")}
    env = os.environ.copy()
    env.update(HOME=str(home), KERASMINI_TEACHER_CANARY=CANARY)
    out = run("tools/classroom.py", "grade", "--course", str(course), env=env)
    listener.close()
    with open(course / "grades.csv", encoding="utf-8") as f:
        rows = {row["student_id"]: row for row in csv.DictReader(f)}
    yield {"course": course, "home": home, "release": release, "source": source,
           "rows": rows, "out": out, "configs": configs, "listener": listener,
           "token": token}


def autograded(course, student):
    return exercise_cells.load(course / "autograded" / student / CHAPTER /
                               f"{CHAPTER}.ipynb")


def scores(row):
    return {k: v for k, v in row.items() if k.startswith("ch03-")}


def test_the_solutions_get_full_marks(graded):
    ada = graded["rows"]["ada"]
    assert (ada["score"], ada["max_score"], ada["status"]) == ("5", "5", "graded")
    assert scores(ada) == {"ch03-count-params": "1", "ch03-scale-layer": "1",
                           "ch03-sample-counter": "1", "ch03-add-weight": "2"}
    assert "ada                  03_layer                         5 / 5  graded" in \
        graded["out"]


def test_wrong_answers_get_nothing_and_feedback_says_why(graded):
    assert graded["rows"]["bob"]["score"] == "0"
    html = (graded["course"] / "feedback" / "bob" / CHAPTER / f"{CHAPTER}.html"
            ).read_text(encoding="utf-8")
    html = " ".join(html.split())  # the messages wrap at 72 columns
    for message in ("did you count the bias", "not at ones", "counts the calls",
                    "calls kerasmini's own Layer.add_weight"):
        assert message in html, message


def test_redefining_the_checks_gets_nothing(graded):
    carol = graded["rows"]["carol"]
    assert carol["score"] == "0" and carol["status"] == "graded"
    cell = cells_by_id(autograded(graded["course"], "carol"))["ch03-count-params"]
    assert "BEGIN HIDDEN TESTS" in text(cell)  # restored from the gradebook
    errors = [o for o in cell["outputs"] if o["output_type"] == "error"]
    assert errors and "got 0" in " ".join(errors[-1]["evalue"].split())


def test_a_crash_costs_only_its_own_exercise(graded):
    dave = graded["rows"]["dave"]
    assert dave["ch03-count-params"] == "0"
    assert dave["ch03-sample-counter"] == "1" and dave["ch03-add-weight"] == "2"
    cells = cells_by_id(autograded(graded["course"], "dave"))
    died = [o for o in cells["ch03-count-params"]["outputs"]
            if o.get("ename") == "KernelDied"]
    assert died
    if SANDBOX:  # the hog: a MemoryError in its own cell, not a dead kernel
        assert dave["ch03-scale-layer"] == "0" and dave["score"] == "3"
        errors = [o["ename"] for o in cells["ch03-scale-layer"]["outputs"]
                  if o["output_type"] == "error"]
        assert errors == ["MemoryError"]
    else:
        assert dave["score"] == "4"


def test_repairs_renamed_edited_and_warning_notebooks_without_losing_points(graded):
    eve = graded["rows"]["eve"]
    assert (eve["score"], eve["status"]) == ("5", "graded"), eve
    assert "eve/03_layer: renamed '03_layer (1).ipynb' to '03_layer.ipynb'" in \
        graded["out"]
    assert "restored the nbgrader metadata of 2 cell(s)" in graded["out"]
    cells = cells_by_id(autograded(graded["course"], "eve"))
    assert "ch03-add-weight" in cells  # the deleted grade cell, put back
    stderr = [o for o in cells["ch03-count-params"]["outputs"]
              if o.get("name") == "stderr"]
    assert stderr  # text on stderr: still full marks (runs without an error)
    set_aside = graded["course"] / "set-aside" / "eve" / CHAPTER
    assert (set_aside / f"{CHAPTER}.ipynb").exists()


def test_a_notebook_that_cannot_be_graded_is_reported_and_the_rest_exported(graded):
    frank = graded["rows"]["frank"]
    assert frank["score"] == "0"
    assert frank["status"] == "not graded: 03_layer.ipynb is not a readable notebook"
    report = json.loads((graded["course"] / "grading-report.json").read_text())
    assert report == {"frank": {CHAPTER: "03_layer.ipynb is not a readable notebook"}}
    assert {"ada", "bob", "carol", "dave", "eve", "frank"} <= set(graded["rows"])


def test_feedback_pages_are_made_for_every_graded_submission(graded):
    feedback = graded["course"] / "feedback"
    made = sorted(p.parts[-3] for p in feedback.glob(f"*/{CHAPTER}/{CHAPTER}.html"))
    assert made == sorted(s for s, row in graded["rows"].items()
                          if row["status"] == "graded")
    page = (feedback / "ada" / CHAPTER / f"{CHAPTER}.html").read_text(encoding="utf-8")
    assert "check_scale_layer" in page  # the visible self-check stays
    assert "HIDDEN TESTS" not in page and "spec_from_file_location" not in page


@needs_sandbox
def test_the_hostile_submission_reads_nothing_and_writes_nothing(graded):
    course, home = graded["course"], graded["home"]
    mallory = graded["rows"]["mallory"]
    assert mallory["score"] == "0"
    cell = cells_by_id(autograded(course, "mallory"))["ch03-count-params-solution"]
    line = next(o["text"] for o in cell["outputs"] if "ATTACK" in "".join(o["text"]))
    report = json.loads("".join(line).split("ATTACK ", 1)[1])
    for attack, outcome in report.items():
        if attack == "environment":  # it may read its own, which holds nothing
            assert "CANARY" not in outcome and str(home) not in outcome, outcome
        elif attack in ("write tmp", "write beside", "symlink"):
            pass  # inside the sandbox's own /tmp and scratch folder: checked below
        else:
            assert outcome.startswith("blocked"), (attack, outcome)
    # nothing of the teacher's reached the graded notebook, feedback or grades
    for path in list((course / "autograded").rglob("*")) + list(
            (course / "feedback").rglob("*")) + [course / "grades.csv"]:
        if path.is_file():
            assert CANARY not in path.read_text(encoding="utf-8", errors="replace"), path
    # nothing written outside, nothing planted, the gradebook untouched
    assert not (course / "pwned.txt").exists() and not (home / "pwned.txt").exists()
    assert not (Path("/tmp") / graded["token"]).exists()
    assert not (course / "planted").exists()
    assert not list(course.rglob("pwned.txt")) and not list(course.rglob("planted-link"))
    for name, before in graded["configs"].items():
        assert digest(course / name) == before, name
    assert graded["rows"]["ada"]["score"] == "5"  # the gradebook kept its scores
    assert graded["listener"].connections == 0
    # the planted symlink was dropped (and noted) before grading
    assert "mallory/03_layer: dropped loot.txt (not a regular file)" in graded["out"]
    assert not (course / "autograded" / "mallory" / CHAPTER / "loot.txt").exists()


def test_validate_fails_the_stubs_and_passes_the_solutions(graded):
    course, release = graded["course"], graded["release"]
    labels = [label for _, label in exercise_cells.exercise_starts(
        exercise_cells.load(ROOT / "chapters" / f"{CHAPTER}.ipynb")["cells"])]
    stubs = validate(course / "release" / CHAPTER / f"{CHAPTER}.ipynb")
    solutions = validate(course / "submitted" / "ada" / CHAPTER / f"{CHAPTER}.ipynb")
    assert f"VALIDATION FAILED ON {len(labels)} CELL(S)" in stubs
    for label in labels:
        assert f"{label}: " in stubs and "is not written yet" in stubs
    assert "Success! Your notebook passes all the tests." in solutions
    assert "BEGIN HIDDEN TESTS" not in json.dumps(release)


# --------------------------------------------------------------------------
# The student versions of every chapter, made in-process

def student_version(path, language="en"):
    nb = nbformat.read(path, as_version=4)
    resources = {}
    for preprocessor in (nbgrader_plugins.GradedCall(), nbgrader_plugins.NamedStubs(),
                         nbgrader_plugins.ClearExerciseOutput(), ClearHiddenTests(),
                         nbgrader_plugins.StudentMarkdown(language=language)):
        nb, resources = preprocessor.preprocess(nb, resources)
    return nb


HEADING = {"en": "### Exercise {number}: ", "zh_CN": "### 练习 {number}："}


@pytest.mark.parametrize("path", [p for p in CHAPTERS + ZH_CHAPTERS
                                  if exercise_cells.exercise_starts(
                                      exercise_cells.load(p)["cells"])],
                         ids=lambda p: p.stem + ("-zh_CN" if p in ZH_CHAPTERS else ""))
def test_the_student_version_of_every_chapter(path):
    language = "zh_CN" if path in ZH_CHAPTERS else "en"
    teacher = exercise_cells.load(path)
    nb = student_version(path, language)
    labels = [label for _, label in exercise_cells.exercise_starts(teacher["cells"])]
    cells = cells_by_id(nb)
    markdown = "\n".join(text(c) for c in nb.cells if c.cell_type == "markdown")
    assert "{solution-start}" not in markdown and "{solution-end}" not in markdown
    assert "{exercise}" not in markdown and ":label:" not in markdown
    for number, label in enumerate(labels, start=1):
        solution = text(cells[f"{label}-solution"])
        assert "BEGIN SOLUTION" not in solution
        assert f'raise NotImplementedError("{label}: write your code here")' in solution
        compile(solution, label, "exec")
        grade = text(cells[label])
        assert "HIDDEN" not in grade and not cells[label].outputs
        assert HEADING[language].format(number=number) in markdown
    for cell in teacher["cells"]:  # no solution text leaks anywhere
        if (exercise_cells.nbgrader(cell) or {}).get("solution"):
            answer = exercise_cells.source(cell).split("### BEGIN SOLUTION")[1].split(
                "### END SOLUTION")[0].strip()
            assert answer not in json.dumps(nb), path.name
    kept = [c for c in nb.cells if c.cell_type == "code" and c.outputs]
    teacher_outputs = [c for c in teacher["cells"] if c["cell_type"] == "code"
                       and c["outputs"] and "nbgrader" not in c["metadata"]]
    assert len(kept) == len(teacher_outputs) > 0  # the chapter keeps its outputs


def test_a_course_is_laid_out_in_the_language_of_its_chapters(tmp_path):
    import classroom

    english = classroom.lay_out(tmp_path / "en", [CHAPTERS[3]])
    chinese = classroom.lay_out(tmp_path / "zh", [ZH_CHAPTERS[3]])
    assert english == chinese == [CHAPTERS[3].stem]
    for name, language in (("en", "en"), ("zh", "zh_CN")):
        config = (tmp_path / name / "nbgrader_config.py").read_text(encoding="utf-8")
        assert f"c.StudentMarkdown.language = {language!r}" in config
    with pytest.raises(SystemExit, match="one language a course"):
        classroom.lay_out(tmp_path / "mixed", [CHAPTERS[3], ZH_CHAPTERS[3]])
    with pytest.raises(ValueError, match="Received: 'fr'"):
        nbgrader_plugins.StudentMarkdown(language="fr").preprocess(
            nbformat.read(ZH_CHAPTERS[3], as_version=4), {})
