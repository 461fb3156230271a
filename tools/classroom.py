"""The chapters as nbgrader assignments: ``make student`` and ``make grade``.

Thin glue around nbgrader's own commands. The course folder (``classroom/`` by
default; ``make student COURSE=...`` to put it elsewhere) is an ordinary
nbgrader course, one assignment per chapter that has exercises::

    classroom/
      nbgrader_config.py     the book's settings, rewritten by `student`
      teacher_config.py      yours (course_id, exchange, ...), read last
      gradebook.db           nbgrader's database
      source/03_layer/03_layer.ipynb       a copy of chapters/03_layer.ipynb
      release/03_layer/03_layer.ipynb      the student version
      submitted/<student>/03_layer/03_layer.ipynb   handed back
      autograded/<student>/03_layer/03_layer.ipynb  as graded
      grades.csv             `nbgrader export`

Usage::

    python tools/classroom.py student [--course DIR] [chapters/03_layer.ipynb ...]
    python tools/classroom.py grade [--course DIR] [--csv FILE] [--collect] [--force]

``student`` copies the chapters into ``source/`` and runs
``nbgrader generate_assignment`` (solutions replaced by stubs that name their
exercise, check and grade cells locked, checksums recorded in the gradebook).
``grade`` runs ``nbgrader collect`` (with ``--collect``, for an nbgrader
exchange), ``nbgrader autograde`` on everything new in ``submitted/`` (locked
cells a student edited are restored first; ``--force`` grades everything
again), then ``nbgrader export`` to a CSV.
"""

import argparse
import csv
import glob
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
ROOT = TOOLS.parent

CONFIG = '''\
# nbgrader's settings for the kerasmini book. `make student` (tools/classroom.py)
# rewrites this file: put your own settings in teacher_config.py, read last.
import sys

sys.path.insert(0, {tools!r})
from nbgrader_stubs import generate_assignment_preprocessors  # noqa: E402

c = get_config()  # noqa: F821
c.CourseDirectory.course_id = "kerasmini-book"
# the student version: each stub names its exercise (tools/nbgrader_stubs.py)
c.GenerateAssignment.preprocessors = generate_assignment_preprocessors()
# a check may train a small network: give a cell minutes, not nbgrader's 30 s
c.Execute.timeout = 600

load_subconfig("teacher_config.py")  # noqa: F821
'''


def has_exercises(path):
    """True if the notebook has nbgrader cells (tools/exercise_cells.py)."""
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    return any("nbgrader" in cell.get("metadata", {}) for cell in nb["cells"])


def nbgrader(course, *args):
    """Run ``nbgrader ARGS`` in the course folder, with this Python's nbgrader."""
    command = [sys.executable, "-m", "nbgrader", *args]
    # nbgrader runs the `alembic` program (a new gradebook) from PATH: the
    # virtualenv's bin/ has to be on it even when make calls .venv/bin/python.
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent),
                                   env.get("PATH", "")])
    print("$ nbgrader " + " ".join(args), flush=True)
    subprocess.run(command, cwd=course, env=env, check=True)


def lay_out(course, chapters):
    """Write the config and copy the chapters into ``source/``; the ids."""
    course.mkdir(parents=True, exist_ok=True)
    (course / "nbgrader_config.py").write_text(
        CONFIG.format(tools=str(TOOLS)), encoding="utf-8")
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


def submissions(course):
    """``(student, assignment)`` of every folder in ``submitted/``."""
    return sorted((Path(p).parent.name, Path(p).name)
                  for p in glob.glob(str(course / "submitted" / "*" / "*"))
                  if Path(p).is_dir())


def grade(course, csv_path, collect=False, force=False):
    """Collect (optional), autograde and export; the CSV's rows."""
    if not (course / "gradebook.db").exists():
        raise SystemExit(f"error: {course} has no gradebook: run `make student` first")
    if collect:
        for assignment in sorted(p.name for p in (course / "source").iterdir()):
            nbgrader(course, "collect", assignment, "--update")
    handed_in = submissions(course)
    if not handed_in:
        raise SystemExit(f"error: nothing to grade in {course / 'submitted'}/"
                         "<student>/<chapter>/")
    nbgrader(course, "autograde", "*", *(["--force"] if force else []))
    nbgrader(course, "export", "--to", str(csv_path))
    with open(csv_path, encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    print(f"\n{'student':20} {'chapter':28} score")
    for row in rows:
        if (row["student_id"], row["assignment"]) in handed_in:
            print(f"{row['student_id']:20} {row['assignment']:28} "
                  f"{float(row['score']):g} / {float(row['max_score']):g}")
    print(f"\nGrades: {csv_path}")
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["student", "grade"])
    parser.add_argument("chapters", nargs="*", help="default: chapters/*.ipynb")
    parser.add_argument("--course", default=str(ROOT / "classroom"))
    parser.add_argument("--csv", help="default: COURSE/grades.csv")
    parser.add_argument("--collect", action="store_true",
                        help="first `nbgrader collect` from the exchange")
    parser.add_argument("--force", action="store_true",
                        help="grade again what was graded before")
    args = parser.parse_intermixed_args(argv)
    course = Path(args.course).resolve()
    if args.command == "student":
        chapters = args.chapters
        student(course, chapters or sorted(glob.glob(str(ROOT / "chapters" / "*.ipynb"))),
                every=not chapters)
    else:
        csv_path = Path(args.csv).resolve() if args.csv else course / "grades.csv"
        grade(course, csv_path, collect=args.collect, force=args.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
