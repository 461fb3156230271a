"""The chapters as nbgrader assignments: ``make student``, ``make grade``,
``make feedback`` and ``make student-book``.

Glue around nbgrader's own commands; the book's pieces for nbgrader are in
tools/nbgrader_plugins.py, the sandbox in tools/sandbox.py. The course folder
(``classroom/`` by default; ``COURSE=...`` to put it elsewhere) is an ordinary
nbgrader course, one assignment per chapter that has exercises::

    classroom/
      nbgrader_config.py     the book's settings, rewritten by `student`
      teacher_config.py      yours (course id, exchange, limits), read last;
                             `student` writes a first one if there is none
      gradebook.db           nbgrader's database
      source/03_layer/03_layer.ipynb       a copy of chapters/03_layer.ipynb
      release/03_layer/03_layer.ipynb      the student version
      submitted/<student>/03_layer/03_layer.ipynb   handed back
      autograded/<student>/03_layer/03_layer.ipynb  as graded
      feedback/<student>/03_layer/03_layer.html     to hand back
      grades.csv             a row per student and chapter, a column per exercise
      grading-report.json    the notebooks that could not be graded, and why
      grading.log            what nbgrader said
      set-aside/<student>/<chapter>/   the original of anything `grade` repaired

Usage::

    python tools/classroom.py student [--course DIR] [chapters/03_layer.ipynb ...]
    python tools/classroom.py grade [--course DIR] [--csv FILE] [--collect] [--force]
                                    [--sandbox auto|on|off]
    python tools/classroom.py feedback [--course DIR] [--release]
    python tools/classroom.py student-book [--out DIR]

``grade`` grades everything it can and always exports: a notebook that cannot
be graded (unreadable, say) is reported and scores 0, the others are graded.
Before nbgrader sees them, submissions are repaired where that is safe (a
notebook renamed by a download, ``03_layer (1).ipynb``; nbgrader metadata a
notebook editor changed; symlinks, which are dropped) and the originals set
aside. Each kernel runs in the bubblewrap sandbox when it works here
(``--sandbox auto``, the default), loudly unsandboxed when it does not.
"""

import argparse
import csv
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
ROOT = TOOLS.parent
LOCALES = ROOT / "locales"
sys.path.insert(0, str(TOOLS))

import exercise_cells  # noqa: E402

COURSE_ID = "kerasmini-book"

CONFIG = '''\
# nbgrader's settings for the kerasmini book. `make student` (tools/classroom.py)
# rewrites this file: put your own settings in teacher_config.py, read last.
import sys

sys.path.insert(0, {tools!r})
from nbgrader_plugins import (  # noqa: E402
    autograde_preprocessors,
    feedback_preprocessors,
    generate_assignment_preprocessors,
)

c = get_config()  # noqa: F821
c.CourseDirectory.course_id = {course_id!r}
# the student version: hidden graded calls, named stubs, the chapter's own
# outputs kept, exercise titles Jupyter shows (tools/nbgrader_plugins.py),
# in the chapters' language
c.GenerateAssignment.preprocessors = generate_assignment_preprocessors()
c.StudentMarkdown.language = {language!r}
# grading: a kernel that survives a crash (sandboxed by `make grade`), and the
# rule "a grade cell earns its points when it runs without an error"
c.Autograde.autograde_preprocessors = autograde_preprocessors()
# feedback pages without the hidden graded calls' code
c.GenerateFeedback.preprocessors = feedback_preprocessors()
# a grade cell a student deleted comes back from the gradebook
c.OverwriteCells.add_missing_cells = True
# a cell may train a small network: two minutes, then it is interrupted
c.Execute.timeout = 120
# the export: a row per student and chapter, a column per exercise
c.ExportApp.plugin_class = "nbgrader_plugins.PerExerciseCsv"
c.PerExerciseCsv.report = "grading-report.json"
# the exchange: release never makes (nor opens to everyone) the exchange
# folder, collect never follows a symlink a submission planted
c.ExchangeFactory.release_assignment = "nbgrader_plugins.SafeRelease"
c.ExchangeFactory.collect = "nbgrader_plugins.SafeCollect"

load_subconfig("teacher_config.py")  # noqa: F821
'''

TEACHER_CONFIG = '''\
# Your settings for this course, read after nbgrader_config.py (which
# `make student` rewrites; this file it never touches). See teachers.md.
c = get_config()  # noqa: F821

# The course id: students give it to nbgrader (fetch_assignment, submit).
c.CourseDirectory.course_id = {course_id!r}

# With an nbgrader exchange (students on the same machine or JupyterHub):
# a folder your students can write to, made beforehand (teachers.md shows
# how, with a group so that it is not open to every user of the machine).
# c.Exchange.root = "/srv/nbgrader/exchange"

# The sandbox's limits for each grading kernel (tools/sandbox.py):
# c.SandboxKernelManager.memory = 3 * 2**30      # bytes of address space
# c.SandboxKernelManager.cpu_seconds = 1800      # CPU seconds per notebook
# c.Execute.timeout = 120                        # seconds per cell
'''

BANNER = "!" * 78


# --------------------------------------------------------------------------
# Running nbgrader

def environment():
    env = dict(os.environ)
    # nbgrader runs the `alembic` program (a new gradebook) from PATH: the
    # virtualenv's bin/ has to be on it even when make calls .venv/bin/python.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent),
                                   env.get("PATH", "")])
    return env


def nbgrader(course, *args, check=True, log=None):
    """Run ``nbgrader ARGS`` in the course folder; its output (also appended
    to ``log``). A failure raises only if ``check``."""
    print("$ nbgrader " + " ".join(args), flush=True)
    result = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course,
                            env=environment(), capture_output=True, text=True)
    output = result.stdout + result.stderr
    if log is not None:
        with open(log, "a", encoding="utf-8") as f:
            f.write(f"$ nbgrader {' '.join(args)}\n{output}\n")
    if check and result.returncode != 0:
        sys.stderr.write(output)
        raise SystemExit(f"error: nbgrader {args[0]} failed (exit {result.returncode})")
    return result.returncode, output


# --------------------------------------------------------------------------
# make student

def has_exercises(path):
    """True if the notebook has nbgrader cells (tools/exercise_cells.py)."""
    nb = exercise_cells.load(path)
    return any("nbgrader" in cell.get("metadata", {}) for cell in nb["cells"])


def chapters_language(chapters):
    """The language of ``chapters``: ``en`` for chapters/, ``zh_CN`` for the
    Chinese notebooks of locales/zh_CN/chapters/ (one language a course)."""
    found = {Path(chapter).resolve().parent.parent.name
             if Path(chapter).resolve().parent.parent.parent == LOCALES else "en"
             for chapter in chapters}
    if len(found) > 1:
        raise SystemExit(f"error: one language a course; these chapters are in "
                         f"{sorted(found)}")
    return found.pop() if found else "en"


def lay_out(course, chapters):
    """Write the configs and copy the chapters into ``source/``; the ids."""
    if not course.exists():  # solutions and submissions: for the teacher only
        course.mkdir(parents=True)
        course.chmod(0o700)
    (course / "nbgrader_config.py").write_text(
        CONFIG.format(tools=str(TOOLS), course_id=COURSE_ID,
                      language=chapters_language(chapters)), encoding="utf-8")
    teacher = course / "teacher_config.py"
    if not teacher.exists():
        teacher.write_text(TEACHER_CONFIG.format(course_id=COURSE_ID),
                           encoding="utf-8")
    assignments = []
    for chapter in chapters:
        chapter = Path(chapter)
        if not has_exercises(chapter):
            continue
        folder = course / "source" / chapter.stem
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(chapter, folder / chapter.name)
        assignments.append(chapter.stem)
    return assignments


def student(course, chapters, every=True):
    """Lay the course out and make the student versions (``release/``)."""
    assignments = lay_out(course, chapters)
    if not assignments:
        raise SystemExit("error: no chapter has exercises in nbgrader's format "
                         "(run tools/exercise_cells.py --write chapters/*.ipynb)")
    for assignment in ["*"] if every else assignments:
        nbgrader(course, "generate_assignment", assignment, "--force")
    print(f"\nStudent versions: {course / 'release'}/<chapter>/<chapter>.ipynb")
    return assignments


# --------------------------------------------------------------------------
# make grade: what is handed in, repaired where that is safe

def submissions(course):
    """``(student, assignment)`` of every folder in ``submitted/``."""
    return sorted((Path(p).parent.name, Path(p).name)
                  for p in glob.glob(str(course / "submitted" / "*" / "*"))
                  if Path(p).is_dir() and not Path(p).is_symlink())


def release_cells(course, assignment):
    """``{grade_id: (cell_type, nbgrader metadata)}`` of the student version."""
    path = course / "release" / assignment / f"{assignment}.ipynb"
    if not path.exists():
        return None
    cells = {}
    for cell in exercise_cells.load(path)["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader")
        if meta and meta.get("grade_id"):
            cells[meta["grade_id"]] = (cell["cell_type"], meta)
    return cells


def set_aside(course, student_id, assignment, path):
    """Keep the original of a file ``prepare`` changes or drops."""
    folder = course / "set-aside" / student_id / assignment
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / path.name
    if path.is_symlink():
        target.write_text(f"a symlink to {os.readlink(path)}\n", encoding="utf-8")
    elif path.is_file():
        shutil.copyfile(path, target)


def prepare(course, student_id, assignment):
    """Repair one submission folder where that is safe. Returns ``(notes, why)``:
    what was done, and why it cannot be graded (``None`` if it can)."""
    folder = course / "submitted" / student_id / assignment
    notes = []
    for path in sorted(folder.rglob("*")):
        if path.is_symlink() or not (path.is_file() or path.is_dir()):
            set_aside(course, student_id, assignment, path)
            path.unlink()
            notes.append(f"dropped {path.relative_to(folder)} (not a regular file)")
    expected = folder / f"{assignment}.ipynb"
    if not expected.exists():
        found = sorted(folder.glob("*.ipynb"))
        named = [p for p in found if p.name.startswith(assignment)] or found
        if len(named) != 1:
            return notes, (f"no {expected.name} in the submission (found "
                           f"{[p.name for p in found] or 'no notebook'})")
        named[0].rename(expected)
        notes.append(f"renamed {named[0].name!r} to {expected.name!r}")
    try:
        nb = json.loads(expected.read_text(encoding="utf-8"))
        cells = nb["cells"]
        assert isinstance(cells, list) and all(isinstance(c, dict) for c in cells)
    except (ValueError, KeyError, TypeError, AssertionError, UnicodeDecodeError):
        return notes, f"{expected.name} is not a readable notebook"
    known = release_cells(course, assignment)
    if known is None:
        return notes, f"{assignment} was never handed out (no release/{assignment})"
    repaired = 0
    for cell in cells:
        metadata = cell.setdefault("metadata", {})
        if not isinstance(metadata, dict):
            cell["metadata"] = metadata = {}
            repaired += 1
        meta = metadata.get("nbgrader")
        if meta is None:
            continue
        grade_id = meta.get("grade_id") if isinstance(meta, dict) else None
        if grade_id in known:
            cell_type, want = known[grade_id]
            if meta != want or cell.get("cell_type") != cell_type:
                metadata["nbgrader"] = dict(want)
                repaired += 1
        else:  # unknown or broken: not an nbgrader cell any more
            del metadata["nbgrader"]
            repaired += 1
    if repaired:
        set_aside(course, student_id, assignment, expected)
        expected.write_text(json.dumps(nb, indent=1, ensure_ascii=False),
                            encoding="utf-8")
        notes.append(f"restored the nbgrader metadata of {repaired} cell(s)")
    return notes, None


# --------------------------------------------------------------------------
# make grade

def sandbox_choice(mode):
    """``True`` to sandbox; prints the loud warning when it cannot."""
    if mode == "off":
        print(f"{BANNER}\nWARNING: grading WITHOUT the sandbox (--sandbox off): the "
              "students' code\nruns with your rights and can read and change your "
              f"files.\n{BANNER}", file=sys.stderr)
        return False
    from sandbox import probe

    works, why = probe()
    if works:
        print("Sandbox: bubblewrap works here; each kernel runs inside it.")
        return True
    if mode == "on":
        raise SystemExit(f"error: --sandbox on, but {why}")
    print(f"{BANNER}\nWARNING: the sandbox does not work here ({why}).\n"
          "Grading WITHOUT it: the students' code runs with your rights and can "
          "read\nand change your files, the other submissions and the gradebook. "
          "Install\nbubblewrap (make grade does it with apt-get) or grade on a "
          f"machine where it\nworks; see teachers.md, \"The sandbox\".\n{BANNER}",
          file=sys.stderr, flush=True)
    return False


def failures_in(log_text, course):
    """``{(student, assignment): why}`` from nbgrader's error lines."""
    found = {}
    pattern = re.compile(r"There was an error processing assignment: (\S+)")
    for match in pattern.finditer(log_text):
        parts = Path(match.group(1)).parts
        key = (parts[-2], parts[-1])
        tail = log_text[match.end():].split("[AutogradeApp", 2)
        lines = [line.strip() for line in tail[1].splitlines()[1:] if line.strip()] \
            if len(tail) > 1 else []
        why = next((line for line in reversed(lines)
                    if re.match(r"^[\w.]+(Error|Exception)\b", line)), "")
        found[key] = why or "nbgrader could not grade it (see grading.log)"
    return found


def graded_since(course, student_id, assignment, started):
    path = course / "autograded" / student_id / assignment / f"{assignment}.ipynb"
    return path.exists() and path.stat().st_mtime >= started - 1


def read_report(course):
    path = course / "grading-report.json"
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    return {}


def write_report(course, report):
    report = {s: a for s, a in sorted(report.items()) if a}
    (course / "grading-report.json").write_text(json.dumps(report, indent=1),
                                               encoding="utf-8")


def collect(course, log):
    """``nbgrader collect`` for each chapter that has something in the
    exchange's inbound folder (as nbgrader's own ``list --inbound`` says)."""
    code, output = nbgrader(course, "list", "--inbound", check=False, log=log)
    # "[ListApp | INFO] <course> <student> <chapter> <timestamp> ..."
    found = re.findall(r"INFO\] \S+ \S+ (\S+) \d{4}-\d\d-\d\d ", output)
    assignments = sorted(set(found) & {p.name for p in (course / "source").iterdir()})
    if code != 0:
        print("error: nbgrader list --inbound failed (see grading.log)")
    elif not assignments:
        print("Nothing to collect from the exchange.")
    for assignment in assignments:
        nbgrader(course, "collect", assignment, "--update", check=False, log=log)
    return assignments


def grade(course, csv_path, do_collect=False, force=False, sandbox="auto",
          feedback=True):
    """Collect (optional), repair, autograde, export, feedback; the rows."""
    if not (course / "gradebook.db").exists():
        raise SystemExit(f"error: {course} has no gradebook: run `make student` first")
    log = course / "grading.log"
    log.write_text("", encoding="utf-8")
    if do_collect:
        collect(course, log)
    handed_in = submissions(course)
    if not handed_in:
        raise SystemExit(f"error: nothing to grade in {course / 'submitted'}/"
                         "<student>/<chapter>/")
    report = read_report(course)
    for student_id, assignment in handed_in:
        notes, why = prepare(course, student_id, assignment)
        for note in notes:
            print(f"{student_id}/{assignment}: {note}")
        report.setdefault(student_id, {}).pop(assignment, None)
        if why:
            report[student_id][assignment] = why
    write_report(course, report)
    sandboxed = sandbox_choice(sandbox)
    started = time.time()
    args = ["autograde", "*", f"--ResilientExecute.sandbox={sandboxed}"]
    code, output = nbgrader(course, *args, *(["--force"] if force else []),
                            check=False, log=log)
    failed = failures_in(output, course)
    for (student_id, assignment), why in failed.items():
        report.setdefault(student_id, {}).setdefault(assignment, why)
    for student_id, assignment in handed_in:
        if report.get(student_id, {}).get(assignment) is None and \
                (student_id, assignment) not in failed and code != 0 and \
                not (course / "autograded" / student_id / assignment).exists():
            report.setdefault(student_id, {})[assignment] = (
                "nbgrader could not grade it (see grading.log)")
    write_report(course, report)
    nbgrader(course, "export", "--to", str(csv_path), log=log)
    if feedback:
        nbgrader(course, "generate_feedback", "*", check=False, log=log)
    with open(csv_path, encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    show(rows, handed_in, started, course)
    print(f"\nGrades: {csv_path}")
    if feedback:
        print(f"Feedback: {course / 'feedback'}/<student>/<chapter>/<chapter>.html")
    print(f"nbgrader's log: {log}")
    return rows


def show(rows, handed_in, started, course):
    """The scores of the submissions in ``submitted/``."""
    print(f"\n{'student':20} {'chapter':28} {'score':>9}  status")
    for row in rows:
        key = (row["student_id"], row["assignment"])
        if key in handed_in:
            fresh = "" if graded_since(course, *key, started) else " (graded before)"
            score = f"{float(row['score']):g} / {float(row['max_score']):g}"
            print(f"{row['student_id']:20} {row['assignment']:28} {score:>9}  "
                  f"{row['status']}{fresh if row['status'] == 'graded' else ''}")


def feedback(course, release=False):
    nbgrader(course, "generate_feedback", "*", "--force")
    if release:
        nbgrader(course, "release_feedback", "*")
    print(f"\nFeedback: {course / 'feedback'}/<student>/<chapter>/<chapter>.html")


# --------------------------------------------------------------------------
# make student-book: the website without the solutions

def student_edition(nb):
    """A chapter as the student edition shows it (``nb`` changed in place):
    each solution region is the stub, the solution markers and the
    self-check's output are gone."""
    cells = []
    for cell in nb["cells"]:
        text = exercise_cells.source(cell)
        meta = exercise_cells.nbgrader(cell) or {}
        if cell["cell_type"] == "markdown" and (
                exercise_cells.SOLUTION_START.search(text)
                or exercise_cells.SOLUTION_END.search(text)):
            continue
        if meta.get("solution"):
            cell["source"] = exercise_cells.student_source(
                text, exercise_cells.exercise_of(meta["grade_id"]))
        if meta:
            cell["outputs"], cell["execution_count"] = [], None
        cells.append(cell)
    nb["cells"] = cells
    return nb


def student_book(out):
    """Build the student edition of the website into ``out``/html."""
    source = out / "source"
    if source.exists():
        shutil.rmtree(source)
    source.mkdir(parents=True)
    for name in ("_toc.yml", "intro.md", "teachers.md"):
        shutil.copyfile(ROOT / name, source / name)
    for name in ("_static", "_ext"):
        shutil.copytree(ROOT / name, source / name)
    config = (ROOT / "_config.yml").read_text(encoding="utf-8")
    config = config.replace("title: Reading Keras with kerasmini",
                            "title: Reading Keras with kerasmini (student edition)")
    # no launch buttons (they open the repository's notebooks, solutions in)
    config = re.sub(r"\nlaunch_buttons:\n(  .*\n)+", "\n", config)
    (source / "_config.yml").write_text(config, encoding="utf-8")
    (source / "chapters").mkdir()
    for path in sorted((ROOT / "chapters").glob("*.ipynb")):
        nb = student_edition(exercise_cells.load(path))
        (source / "chapters" / path.name).write_text(exercise_cells.dump(nb),
                                                     encoding="utf-8")
    jupyter_book = Path(sys.executable).parent / "jupyter-book"
    subprocess.run([str(jupyter_book), "build", str(source), "--path-output",
                    str(out), "-W", "-n", "--keep-going"], check=True,
                   env=environment())
    print(f"\nStudent edition: {out / '_build' / 'html' / 'index.html'}")


# --------------------------------------------------------------------------

def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["student", "grade", "feedback",
                                            "student-book"])
    parser.add_argument("chapters", nargs="*", help="default: chapters/*.ipynb")
    parser.add_argument("--language", choices=["en", "zh_CN"], default="en",
                        help="student: without CHAPTERS, hand out every chapter "
                             "in this language (zh_CN: locales/zh_CN/chapters)")
    parser.add_argument("--course", default=str(ROOT / "classroom"))
    parser.add_argument("--csv", help="default: COURSE/grades.csv")
    parser.add_argument("--collect", action="store_true",
                        help="first `nbgrader collect` from the exchange")
    parser.add_argument("--force", action="store_true",
                        help="grade again what was graded before")
    parser.add_argument("--sandbox", choices=["auto", "on", "off"], default="auto",
                        help="run each kernel in bubblewrap (auto: if it works)")
    parser.add_argument("--no-feedback", action="store_true",
                        help="grade without making the feedback pages")
    parser.add_argument("--release", action="store_true",
                        help="feedback: also `nbgrader release_feedback`")
    parser.add_argument("--out", default=str(ROOT / "_build" / "student"),
                        help="student-book: where to build")
    args = parser.parse_intermixed_args(argv)
    course = Path(args.course).resolve()
    if args.command == "student":
        chapters = args.chapters
        folder = ROOT / "chapters" if args.language == "en" else (
            LOCALES / args.language / "chapters")
        student(course, chapters or sorted(glob.glob(str(folder / "*.ipynb"))),
                every=not chapters)
    elif args.command == "grade":
        csv_path = Path(args.csv).resolve() if args.csv else course / "grades.csv"
        grade(course, csv_path, do_collect=args.collect, force=args.force,
              sandbox=args.sandbox, feedback=not args.no_feedback)
    elif args.command == "feedback":
        feedback(course, release=args.release)
    else:
        student_book(Path(args.out).resolve())
    return 0


if __name__ == "__main__":
    sys.exit(main())
