"""The book's pieces for nbgrader, each in the place nbgrader leaves for it.

The course's ``nbgrader_config.py`` (written by tools/classroom.py) puts them
in nbgrader's own lists and plugin slots; everything else (LockCells, the
checksums, hidden tests, the gradebook) is nbgrader's.

``generate_assignment`` (the student version):

* :class:`GradedCall` adds to each grade cell, between ``### BEGIN HIDDEN
  TESTS`` and ``### END HIDDEN TESTS``, the graded call of its check: the
  check loaded afresh from kerasmini's files (``kerasmini.book.exercises``),
  handed the answers the visible self-check names. nbgrader keeps the cell
  with that region in the gradebook, strips it from the student version, and
  puts it back when it grades;
* :class:`NamedStubs` is ClearSolutions with a stub that names its exercise;
* :class:`ClearExerciseOutput` clears the outputs of the exercises' cells only
  (the chapter's own outputs, figures included, stay);
* :class:`StudentMarkdown` turns each ``{exercise}`` block into a heading
  Jupyter shows (``### Exercise 2: Title (1 point)``; ``### 练习 2：...（1 分）``
  for the Chinese chapters) and drops the ``{solution-start}``/
  ``{solution-end}`` markers.

``autograde``:

* :class:`ResilientExecute` is nbgrader's Execute that runs the kernel in the
  bubblewrap sandbox (tools/sandbox.py) when ``sandbox`` is set, and carries
  on after a kernel death (out of memory, ``os._exit``): the cell that killed
  it gets an error, a new kernel replays the cells before it, and the rest of
  the notebook is graded;
* :class:`RunsWithoutError` is SaveAutoGrades with the rule the book states:
  a grade cell earns its points when it runs without an error (nbgrader's own
  rule also gives 0 for any text on stderr, a warning included).

``generate_feedback``: nbgrader's, with the hidden graded calls cleared from
the page (their results stay).

``export``: :class:`PerExerciseCsv`, one row per student and chapter with a
column per exercise. The exchange: :class:`SafeCollect`, nbgrader's collect
that copies symlinks as links and then drops them, so that a submission
cannot make the teacher copy a file it points to; :class:`SafeRelease`,
nbgrader's release_assignment that never creates the exchange folder (nor
opens it to every user of the machine): the teacher makes it, for the
course's group (teachers.md).
"""

import copy
import csv
import glob
import json
import os
import re
import shutil
import sys
from pathlib import Path

from nbclient import NotebookClient
from nbclient.exceptions import DeadKernelError
from nbformat import NotebookNode
from nbgrader import utils
from nbgrader.api import MissingEntry
from nbgrader.converters import Autograde, GenerateAssignment, GenerateFeedback
from nbgrader.exchange.default.collect import ExchangeCollect
from nbgrader.exchange.default.release_assignment import ExchangeReleaseAssignment
from nbgrader.plugins import ExportPlugin
from nbgrader.preprocessors import (
    ClearHiddenTests,
    ClearOutput,
    ClearSolutions,
    Execute,
    NbGraderPreprocessor,
    SaveAutoGrades,
)
from traitlets import Bool, Integer, Unicode

try:
    import pwd
except ImportError:  # Windows: no owners to compare
    pwd = None

TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))
from exercise_cells import (  # noqa: E402
    EXERCISE,
    SOLUTION_END,
    SOLUTION_START,
    STUB,
    check_call,
    exercise_of,
)

HIDDEN = """\
### BEGIN HIDDEN TESTS
# graded: the same check, loaded afresh from kerasmini's files, so that no
# name this notebook rebinds and no module it patched takes part
import importlib.util as _util
_spec = _util.spec_from_file_location("_exercises", {init!r})
_exercises = _util.module_from_spec(_spec)
_spec.loader.exec_module(_exercises)
_exercises.graded({label!r}{answers});
### END HIDDEN TESTS"""


def exercises_init():
    """The ``__init__.py`` of the checks package this Python imports."""
    import kerasmini.book.exercises as exercises

    return os.path.join(exercises.HERE, "__init__.py")


# --------------------------------------------------------------------------
# generate_assignment


class GradedCall(NbGraderPreprocessor):
    """Adds the hidden graded call to every grade cell (see the module)."""

    def preprocess_cell(self, cell, resources, index):
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and meta.get("grade") and not meta.get("solution") \
                and "BEGIN HIDDEN TESTS" not in cell.source:
            call = check_call(cell.source)
            if call is None:
                raise ValueError(f"grade cell {meta.get('grade_id')}: its last line "
                                 "should be the check call, check_x(Answer)")
            answers = "".join(f", {name}" for name in call[1])
            cell.source += "\n" + HIDDEN.format(init=exercises_init(),
                                                label=meta["grade_id"],
                                                answers=answers)
        return cell, resources


class NamedStubs(ClearSolutions):
    """ClearSolutions whose Python stub names the cell's exercise."""

    def preprocess_cell(self, cell, resources, cell_index):
        plain = self.__dict__.setdefault("_plain_stubs", dict(self.code_stub))
        grade_id = (cell.metadata.get("nbgrader") or {}).get("grade_id")
        stubs = dict(plain)
        if grade_id:
            stubs["python"] = STUB.format(exercise=exercise_of(grade_id))
        self.code_stub = stubs
        return super().preprocess_cell(cell, resources, cell_index)


class ClearExerciseOutput(ClearOutput):
    """ClearOutput for the exercises' cells only: the chapter keeps its own."""

    def preprocess_cell(self, cell, resources, cell_index):
        if "nbgrader" in cell.metadata:
            return super().preprocess_cell(cell, resources, cell_index)
        return cell, resources


# The heading of an exercise in the student version, per language of the
# chapters (the Chinese notebooks of locales/zh_CN/chapters: 练习, 分).
HEADINGS = {
    "en": lambda number, title, points: (
        f"### Exercise {number}: {title} "
        f"({points:g} point{'s' if points != 1 else ''})"),
    "zh_CN": lambda number, title, points: f"### 练习 {number}：{title}（{points:g} 分）",
}


def student_markdown(text, number, points, language="en"):
    """An ``{exercise}`` block as plain Markdown, titled.

    >>> print(student_markdown("````{exercise} Count\\n:label: ch03-x\\n\\nWrite"
    ...                        " it.\\n````", 2, 1))
    ### Exercise 2: Count (1 point)
    <BLANKLINE>
    Write it.
    >>> student_markdown("````{exercise} 数参数\\n:label: ch03-x\\n\\n写。\\n````",
    ...                  2, 1.5, "zh_CN").split("\\n")[0]
    '### 练习 2：数参数（1.5 分）'
    """
    match = EXERCISE.search(text)
    fence, title = match.group(1), match.group(2).strip()
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(fence))
    body = lines[start + 1:]
    while body and re.match(r"^:[\w-]+:", body[0]):
        body.pop(0)
    while body and not body[-1].strip():
        body.pop()
    if body and body[-1].strip() == fence:
        body.pop()
    text = "\n".join(body).strip("\n")
    heading = HEADINGS[language](number, title, points)
    return "\n".join(lines[:start] + [heading, "", text])


class StudentMarkdown(NbGraderPreprocessor):
    """Exercise blocks become headings; solution markers go (see the module)."""

    language = Unicode("en", config=True,
                       help="The chapters' language: the headings' words "
                            f"({', '.join(HEADINGS)}).")

    def preprocess(self, nb, resources):
        if self.language not in HEADINGS:
            raise ValueError(f"StudentMarkdown.language must be one of "
                             f"{sorted(HEADINGS)}. Received: {self.language!r}")
        points = {c.metadata["nbgrader"]["grade_id"]: c.metadata["nbgrader"]["points"]
                  for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")}
        cells, number = [], 0
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                if SOLUTION_START.search(cell.source) or SOLUTION_END.search(cell.source):
                    continue
                match = EXERCISE.search(cell.source)
                if match:
                    number += 1
                    cell.source = student_markdown(cell.source, number,
                                                   points.get(match.group(3), 1),
                                                   self.language)
            cells.append(cell)
        nb.cells = cells
        return nb, resources


def generate_assignment_preprocessors():
    """nbgrader's own list for generate_assignment, with the book's pieces."""
    default = GenerateAssignment.class_traits()["preprocessors"].default()
    swap = {ClearSolutions: NamedStubs, ClearOutput: ClearExerciseOutput}
    return [GradedCall] + [swap.get(pp, pp) for pp in default] + [StudentMarkdown]


# --------------------------------------------------------------------------
# autograde


class ResilientExecute(Execute):
    """nbgrader's Execute, sandboxed on request, that survives a dead kernel."""

    sandbox = Bool(False, config=True,
                   help="Run the kernel inside bubblewrap (tools/sandbox.py).")
    kernel_deaths = Integer(3, config=True,
                            help="Kernel deaths a notebook may cause before the "
                                 "rest of it is given up.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.sandbox:
            from sandbox import SandboxKernelManager

            self.kernel_manager_class = SandboxKernelManager

    def preprocess(self, nb, resources=None, km=None):
        # ExecutePreprocessor.preprocess, with a loop around the kernel
        NotebookClient.__init__(self, nb, km)
        self.reset_execution_trackers()
        self._check_assign_resources(resources)
        start, dead, current = 0, [], 0
        while True:
            try:
                with self.setup_kernel():
                    info = self.wait_for_reply(self.kc.kernel_info())
                    self.nb.metadata["language_info"] = info["content"]["language_info"]
                    for index in range(start):  # replay, quietly
                        cell = self.nb.cells[index]
                        if cell.cell_type == "code" and index not in dead:
                            current = index
                            self.execute_cell(copy.deepcopy(cell), index)
                    for index in range(start, len(self.nb.cells)):
                        current = index
                        self.preprocess_cell(self.nb.cells[index], resources, index)
                break
            except DeadKernelError:
                dead.append(current)
                self._kernel_died(self.nb.cells[current], len(dead))
                start = current + 1
                if len(dead) >= self.kernel_deaths or start >= len(self.nb.cells):
                    break
        self.set_widgets_metadata()
        return self.nb, self.resources

    def _kernel_died(self, cell, count):
        self.log.warning("The kernel died in cell %s (%s of %s allowed); carrying on "
                         "in a new kernel", cell.get("id"), count, self.kernel_deaths)
        cell.outputs = list(cell.get("outputs", [])) + [NotebookNode(
            output_type="error", ename="KernelDied",
            evalue="the kernel died while running this cell (out of memory, or "
                   "the process was ended); the cells after it ran in a new kernel",
            traceback=["KernelDied: the kernel died while running this cell"])]


class RunsWithoutError(SaveAutoGrades):
    """SaveAutoGrades whose rule is the book's: a grade cell earns its points
    when it runs without an error; text on stderr (a warning) is no error."""

    def _add_score(self, cell, resources):
        if cell.cell_type != "code" or utils.is_solution(cell):
            return super()._add_score(cell, resources)
        grade = self.gradebook.find_grade(cell.metadata["nbgrader"]["grade_id"],
                                          self.notebook_id, self.assignment_id,
                                          self.student_id)
        failed = any(output.output_type == "error" for output in cell.outputs)
        grade.auto_score = 0.0 if failed else float(cell.metadata["nbgrader"]["points"])
        grade.needs_manual_grade = grade.manual_score is not None
        self.gradebook.db.commit()


def autograde_preprocessors():
    """nbgrader's own list for autograde, with the book's two pieces."""
    default = Autograde.class_traits()["autograde_preprocessors"].default()
    swap = {Execute: ResilientExecute, SaveAutoGrades: RunsWithoutError}
    return [swap.get(pp, pp) for pp in default]


def feedback_preprocessors():
    """nbgrader's own list for generate_feedback, and ClearHiddenTests: the
    page a student gets shows the graded call's result, not its code (which
    names a folder of the teacher's machine)."""
    default = GenerateFeedback.class_traits()["preprocessors"].default()
    return [*default, ClearHiddenTests]


# --------------------------------------------------------------------------
# export and exchange


class PerExerciseCsv(ExportPlugin):
    """A CSV with one row per student and chapter, and a column per exercise.

    Columns: ``student_id``, ``assignment``, ``status`` (graded, not submitted,
    or why the notebook could not be graded), ``score``, ``max_score``,
    ``timestamp``, then one column per exercise of the exported chapters
    (empty where the exercise belongs to another chapter). The chapters are
    those someone handed in (or those ``--assignment`` names).
    """

    report = Unicode("", config=True,
                     help="A JSON file {student: {assignment: why}} of the "
                          "notebooks that could not be graded (tools/classroom.py).")

    def export(self, gradebook):
        dest = self.to or "grades.csv"
        problems = {}
        if self.report and os.path.exists(self.report):
            with open(self.report, encoding="utf-8") as f:
                problems = json.load(f)
        assignments = [a for a in gradebook.assignments
                       if a.name in self.assignment or not self.assignment
                       and a.submissions]
        students = [s for s in gradebook.students
                    if not self.student or s.id in self.student]
        exercises = []
        for assignment in assignments:
            for notebook in assignment.notebooks:
                exercises += [cell.name for cell in notebook.grade_cells]
        fields = ["student_id", "assignment", "status", "score", "max_score",
                  "timestamp", *exercises]
        with open(dest, "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=fields)
            writer.writeheader()
            for assignment in assignments:
                for student in students:
                    writer.writerow(self._row(gradebook, assignment, student,
                                              problems.get(student.id, {})))
        self.log.info("Exported the grades to %s", dest)

    @staticmethod
    def _row(gradebook, assignment, student, problems):
        row = {"student_id": student.id, "assignment": assignment.name,
               "max_score": f"{assignment.max_score:g}"}
        why = problems.get(assignment.name)
        try:
            submission = gradebook.find_submission(assignment.name, student.id)
        except MissingEntry:
            row.update(status=f"not graded: {why}" if why else "not submitted",
                       score="0", timestamp="")
            return row
        scores = {}
        for notebook in submission.notebooks:
            for grade in notebook.grades:
                scores[grade.name] = grade.score
        graded = any(score is not None for score in scores.values())
        row["status"] = (f"not graded: {why}" if why else
                         "graded" if graded else "not graded")
        penalty = submission.late_submission_penalty or 0.0
        row["score"] = f"{max(0.0, submission.score - penalty):g}"
        row["timestamp"] = str(submission.timestamp or "")
        for name, score in scores.items():
            row[name] = "" if score is None else f"{score:g}"
        return row


class SafeCollect(ExchangeCollect):
    """nbgrader's collect, which copies a symlink as a link and then drops it
    (nbgrader's follows it, with the teacher's rights), and which skips a
    submission whose folder belongs to another user than the one it names
    (nbgrader's only warns: a student can make a folder in the exchange's
    inbound named for someone else, by hand)."""

    def init_src(self):
        super().init_src()
        if not self.check_owner or pwd is None:
            return
        genuine, refused = [], []
        pattern = os.path.join(self.inbound_path, "{}+{}+*".format(
            self.coursedir.student_id or "*", self.coursedir.assignment_id))
        for path in glob.glob(pattern):
            record = self._path_to_record(path)
            try:
                owner = pwd.getpwuid(os.stat(path).st_uid).pw_name
            except KeyError:
                owner = None
            (genuine if owner == record["username"] else refused).append(record)
        for record in refused:
            self.log.warning("Skipped %s: it names %s but belongs to another user",
                             record["filename"], record["username"])
        latest = {}
        for record in self._sort_by_timestamp(genuine):
            latest.setdefault(record["username"], record)
        if refused:
            self.src_records = list(latest.values())

    def do_copy(self, src, dest, log=None):
        dir_size = self.get_size(src)
        if dir_size > 1000 * self.coursedir.max_dir_size:
            raise RuntimeError(f"Directory size is too big. Size is {dir_size}, "
                               f"maximum size is {1000 * self.coursedir.max_dir_size}")
        shutil.copytree(src, dest, symlinks=True,
                        ignore=utils.ignore_patterns(
                            exclude=self.coursedir.ignore,
                            include=self.coursedir.include,
                            max_file_size=self.coursedir.max_file_size, log=self.log))
        for root, folders, files in os.walk(dest):
            for name in folders + files:
                path = os.path.join(root, name)
                if os.path.islink(path):
                    self.log.warning("Dropped the symlink %s -> %s from a submission",
                                     path, os.readlink(path))
                    os.unlink(path)


class SafeRelease(ExchangeReleaseAssignment):
    """nbgrader's release_assignment without its ``ensure_root``, which makes
    a missing exchange folder (``/usr/local/share/nbgrader/exchange`` unless
    configured) and sets any exchange folder to mode 0777. Here the folder
    must exist already, made by the teacher for the course's group."""

    def ensure_root(self):
        if not os.path.isdir(self.root):
            self.fail(f"The exchange folder {self.root} does not exist. Make it "
                      "first, writable by your course's group only, and set "
                      "c.Exchange.root in teacher_config.py (teachers.md, "
                      "\"An exchange\").")
        if not utils.check_directory(self.root, write=True, execute=True):
            self.fail(f"You cannot write to the exchange folder {self.root}.")
