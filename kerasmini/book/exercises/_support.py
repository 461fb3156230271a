"""What the checks of every chapter share.

* :func:`exercise` turns a function into the check of one exercise: it names
  the exercise in every message, turns the stub's ``NotImplementedError`` into
  "not written yet", and prints ``✔ <label>: correct`` when all is well. A
  warning (or anything written to stderr) while it runs is printed on stdout:
  the rule is "the check runs without an error", and nbgrader counts stderr as
  one.
* :class:`Refuse` is a tripwire on kerasmini's own code: where a task says
  "write it yourself", the check runs the answer inside it and refuses an
  answer that calls kerasmini's implementation (or a thin wrapper of it).
* :func:`own` finds a function of kerasmini by name wherever the library keeps
  it, so the checks name as few private paths as possible.
"""

import contextlib
import functools
import os
import sys
import textwrap
import warnings

import kerasmini

# kerasmini's files, and this package's (whose code is never refused)
_LIBRARY = os.path.dirname(os.path.abspath(kerasmini.__file__)) + os.sep
_CHECKS = os.path.dirname(os.path.abspath(__file__)) + os.sep


class Mistake(AssertionError):
    """A wrong answer: the message names the exercise and the mistake.

    An ``AssertionError``, so that any check that fails reads the same.

    >>> isinstance(Mistake("ch00-demo: wrong"), AssertionError)
    True
    """


def exercise(label, writes):
    """Decorator: the check of exercise ``label``, whose student writes
    ``writes`` (for the "not written yet" message).

    >>> @exercise("ch00-double", "double")
    ... def check_double(double):
    ...     expect(double(2) == 4, f"double(2) should be 4, got {double(2)}")
    >>> check_double(lambda x: 2 * x)
    ✔ ch00-double: correct
    >>> check_double(lambda x: x + 2)  # it happens to work for 2
    ✔ ch00-double: correct
    >>> check_double(lambda x: x * x + 1)
    Traceback (most recent call last):
    ...
    kerasmini.book.exercises._support.Mistake: ch00-double: double(2) should be 4, got 5
    """

    def decorate(check):
        @functools.wraps(check)
        def run(*answers):
            __tracebackhide__ = True  # IPython shows the cell, then the message
            try:
                with _warnings_on_stdout():
                    detail = check(*answers)
            except NotImplementedError as error:
                raise Mistake(_wrap(f"{label}: {writes} is not written yet "
                                    f"(NotImplementedError: {error})")) from None
            except Mistake as mistake:
                text = " ".join(str(mistake).split())
                if not text.startswith(label):
                    text = f"{label}: {text}"
                raise Mistake(_wrap(text)) from mistake.__cause__
            print(f"✔ {label}: correct" + (f" ({detail})" if detail else ""))

        run.label = label
        return run

    return decorate


def _wrap(text):
    """A message in lines of at most 72 characters: ``nbgrader validate`` cuts
    each line of an error at 90, indent and exception name included."""
    return "\n".join(textwrap.wrap(text, 72, break_long_words=False,
                                   break_on_hyphens=False))


@contextlib.contextmanager
def _warnings_on_stdout():
    """Show warnings and stderr text on stdout, after the block."""
    with warnings.catch_warnings(record=True) as caught:
        try:
            with contextlib.redirect_stderr(sys.stdout):
                yield
        finally:
            for warning in caught:
                print(f"warning: {warning.category.__name__}: {warning.message}")


def expect(condition, message):
    """Raise :class:`Mistake` with ``message`` unless ``condition``.

    >>> expect(1 + 1 == 2, "arithmetic")
    >>> expect(1 + 1 == 3, "1 + 1 is 2")
    Traceback (most recent call last):
    ...
    kerasmini.book.exercises._support.Mistake: 1 + 1 is 2
    """
    __tracebackhide__ = True
    if not condition:
        raise Mistake(message)


def fail(message):
    """Raise :class:`Mistake` with ``message``.

    >>> fail("not yet")
    Traceback (most recent call last):
    ...
    kerasmini.book.exercises._support.Mistake: not yet
    """
    __tracebackhide__ = True
    raise Mistake(message)


def owns(name):
    """Every function or class of kerasmini called ``name``, wherever it lives.

    Looks through the kerasmini modules already imported, so a check can name
    ``map_graph`` without knowing which file of the library holds it (and finds
    ``softmax`` in ``ops`` and in ``activations`` alike).

    >>> sorted(f.__module__.split(".")[1] for f in owns("log_softmax"))
    ['activations', 'ops']
    """
    found = {}
    for module_name in sorted(sys.modules):
        if module_name == "kerasmini" or module_name.startswith("kerasmini."):
            value = getattr(sys.modules[module_name], name, None)
            if (callable(value) and getattr(value, "__name__", None) == name
                    and getattr(value, "__module__", "").startswith("kerasmini")):
                found[id(value)] = value
    return list(found.values())


def own(name):
    """kerasmini's function or class called ``name`` (the first found).

    >>> own("map_graph").__name__
    'map_graph'
    """
    found = owns(name)
    if not found:
        raise LookupError(f"kerasmini has no {name!r} among its imported modules")
    return found[0]


def _code(obj):
    """The code object behind a function, method, property or class."""
    if isinstance(obj, property):
        obj = obj.fget
    obj = getattr(obj, "__func__", obj)
    while hasattr(obj, "__wrapped__"):
        obj = obj.__wrapped__
    return obj.__code__


class Refuse:
    """A tripwire: ``with Refuse(label, {thing: "X"}, when=...)``.

    Every Python call made inside the block is watched (``sys.setprofile``);
    if one of them runs the code of a refused ``thing`` (and ``when(frame)``
    is true, if given), the block ends with a :class:`Mistake` that says the
    task asks for the reader's own version. A ``thing`` given as a string is a
    function name: any function of that name in kerasmini's files is refused,
    wherever the library keeps it and whether or not it is imported yet. An
    exception raised by the answer itself still comes out, after the refusal
    if both happened.

    >>> module = kerasmini.Module(name="m")
    >>> with Refuse("ch00-demo", {kerasmini.Module.variables: "Module.variables"}):
    ...     module.variables
    Traceback (most recent call last):
    ...
    kerasmini.book.exercises._support.Mistake: ch00-demo: your answer calls ...
    """

    def __init__(self, label, refused, when=None):
        self.label = label
        self.codes = {_code(thing): name for thing, name in refused.items()
                      if not isinstance(thing, str)}
        self.names = {thing: name for thing, name in refused.items()
                      if isinstance(thing, str)}
        self.when = when
        self.calls = []

    def _refused(self, code):
        if code in self.codes:
            return self.codes[code]
        if code.co_name in self.names:
            path = os.path.abspath(code.co_filename)
            if path.startswith(_LIBRARY) and not path.startswith(_CHECKS):
                return self.names[code.co_name]
        return None

    def _profile(self, frame, event, arg):
        if event == "call":
            name = self._refused(frame.f_code)
            if name is not None and (self.when is None or self.when(frame)):
                self.calls.append(name)

    def __enter__(self):
        self.previous = sys.getprofile()
        sys.setprofile(self._profile)
        return self

    def __exit__(self, kind, value, traceback):
        __tracebackhide__ = True
        sys.setprofile(self.previous)
        if self.calls:
            raise Mistake(
                f"{self.label}: your answer calls kerasmini's own "
                f"{self.calls[0]}; the task asks you to write it yourself, "
                "without it") from value
        return False


def fresh_name_scope():
    """Forget auto names (``dense``, ``dense_1``) so a check's layers get the
    names it expects, whatever the notebook made before; close any name scope
    an answer left open.

    >>> _ = kerasmini.layers.Dense(1)
    >>> fresh_name_scope()
    >>> kerasmini.layers.Dense(1).name
    'dense'
    """
    kerasmini.backend.clear_session()
