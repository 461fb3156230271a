"""nbgrader's ClearSolutions, with a stub that names its exercise.

nbgrader replaces each ``### BEGIN SOLUTION`` ... ``### END SOLUTION`` region
by one fixed ``code_stub``, whose ``raise NotImplementedError()`` says nothing.
:class:`NamedStubs` formats the book's stub (``STUB`` in exercise_cells.py)
with the exercise of the cell (its nbgrader ``grade_id``), so an untouched
exercise fails with, e.g.,
``NotImplementedError: ch03-scale-layer: write your code here``.

The course's ``nbgrader_config.py`` (written by tools/classroom.py) puts it in
``generate_assignment``'s list in place of ClearSolutions; everything else
(LockCells, the checksums, the gradebook) is nbgrader's own.
"""

from exercise_cells import STUB, exercise_of
from nbgrader.converters import GenerateAssignment
from nbgrader.preprocessors import ClearSolutions


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


def generate_assignment_preprocessors():
    """nbgrader's own list for generate_assignment, NamedStubs for ClearSolutions."""
    default = GenerateAssignment.class_traits()["preprocessors"].default()
    return [NamedStubs if pp is ClearSolutions else pp for pp in default]
