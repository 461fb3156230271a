"""The checks of the chapters' exercises, one module per chapter.

Each exercise of chapter ``NN`` has a check ``check_<slug>`` in module
``chNN``; the exercise's grade cell imports it and hands it the answer by
name, for example::

    from kerasmini.book.exercises.ch03 import check_scale_layer

    check_scale_layer(Scale)

A check prints ``✔ ch03-scale-layer: correct``, or raises ``AssertionError``
with a message that names the mistake. It builds everything it needs itself
(it never reads the notebook's names), computes what it expects without the
kerasmini code the exercise rebuilds, and refuses that code where the task
says to write it yourself.

The classroom (``tools/classroom.py``) grades with :func:`graded`: the same
check, loaded afresh from these files in the grade cell, so that a name the
notebook rebinds (``check_scale_layer = print``) or a check module it patched
cannot change the grade. This file imports only the standard library at the
top so that it can be executed on its own, from its path.
"""

import contextlib
import importlib
import importlib.util
import io
import os
import sys
import uuid

__all__ = ["check", "checks", "graded"]

HERE = os.path.dirname(os.path.abspath(__file__))


def _chapter(label):
    """``"ch03"`` for ``"ch03-scale-layer"``, refusing anything else."""
    chapter = label.split("-", 1)[0]
    if not (len(chapter) == 4 and chapter.startswith("ch") and chapter[2:].isdigit()):
        raise ValueError(f"an exercise label looks like 'ch03-scale-layer'. "
                         f"Received: label={label!r}")
    return chapter


def checks(module):
    """``{label: check}`` of a chapter module: its ``check_*`` functions.

    >>> from kerasmini.book.exercises import ch03
    >>> sorted(checks(ch03))
    ['ch03-add-weight', 'ch03-count-params', 'ch03-sample-counter', 'ch03-scale-layer']
    """
    found = {}
    for name, value in vars(module).items():
        if name.startswith("check_") and callable(value):
            found[getattr(value, "label", name)] = value
    return found


def check(label, *answers):
    """Run the check of exercise ``label`` on ``answers`` (the module as
    imported, for a reader's self-check).

    >>> check("ch05-resolve-training", lambda explicit, outer, default: (
    ...     explicit if explicit is not None else outer if outer is not None
    ...     else default))
    ✔ ch05-resolve-training: correct
    """
    __tracebackhide__ = True
    module = importlib.import_module(f"{__name__}.{_chapter(label)}")
    return _run(module, label, answers)


def _run(module, label, answers):
    __tracebackhide__ = True
    found = checks(module)
    if label not in found:
        raise ValueError(f"{module.__name__} has no check for exercise {label!r}. "
                         f"Received: label={label!r}; known: {sorted(found)}")
    found[label](*answers)


def graded(label, *answers):
    """Run the check of ``label`` loaded afresh from this folder's files.

    The package is executed again under a new name, from its files, and
    forgotten afterwards: nothing already imported (which the notebook may
    have patched) and none of the notebook's names take part, only the
    answers it is handed. It prints only what the check printed besides its
    "correct" line (the self-check before it printed that already).

    >>> graded("ch05-resolve-training", lambda explicit, outer, default: outer)
    Traceback (most recent call last):
    ...
    _kerasmini_graded_..._support.Mistake: ch05-resolve-training: ...
    False, expected True: an explicit value always wins
    """
    __tracebackhide__ = True
    name = f"_kerasmini_graded_{uuid.uuid4().hex}"
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(HERE, "__init__.py"), submodule_search_locations=[HERE])
    package = importlib.util.module_from_spec(spec)
    sys.modules[name] = package
    printed = io.StringIO()
    try:
        spec.loader.exec_module(package)
        module = importlib.import_module(f"{name}.{_chapter(label)}")
        with contextlib.redirect_stdout(printed):
            _run(module, label, answers)
    finally:
        for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
            del sys.modules[key]
        lines = [line for line in printed.getvalue().splitlines()
                 if not line.startswith(f"✔ {label}: correct")]
        if lines:
            print("\n".join(lines))
