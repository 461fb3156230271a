"""Run the same scenarios with kerasmini here and with real Keras 3.15.1 there.

A test module writes its scenarios once, as source text that uses the names
``keras``, ``layers``, ``ops`` and ``np``, and ends with a dict ``SCENARIOS``
of functions returning JSON-ready observations (numbers, lists, strings,
dicts). :func:`run_mine` executes the text with ``import kerasmini as
keras``; :func:`run_keras` executes it with real Keras (the interpreter
named by ``KERASMINI_REAL_KERAS_PYTHON``, as ``make interop`` sets it, with
``KERAS_BACKEND=torch``; in the session's shared worker, ``keras_worker.py``),
and :func:`differences` compares
the two, numbers to 1e-6. Without that variable the Keras side is skipped
(``needs_keras``).

An observation may be an error: a scenario that returns
``error_of(lambda: ...)`` records ``"TypeError"`` (the exception's type
name) or ``"ok"``, so error types are compared like values.
"""

import json
import math
import os
import textwrap

import keras_worker
import numpy as np
import pytest

import kerasmini

KERAS_PYTHON = os.environ.get("KERASMINI_REAL_KERAS_PYTHON")
needs_keras = pytest.mark.skipif(
    KERAS_PYTHON is None, reason="KERASMINI_REAL_KERAS_PYTHON is unset")

PRELUDE = textwrap.dedent('''
    def error_of(fn):
        """The type name of the exception ``fn()`` raises, or ``"ok"``."""
        try:
            fn()
        except Exception as error:  # noqa: BLE001 (the type is the observation)
            return type(error).__name__
        return "ok"

    def numbers(x):
        """A tensor as nested lists of Python floats."""
        return np.asarray(keras.ops.convert_to_numpy(x), "float64").tolist()
''')

KERAS_MAIN = textwrap.dedent('''
    import json
    import sys

    import numpy as np
    import keras
    from keras import layers, ops

    namespace = {"keras": keras, "layers": layers, "ops": ops, "np": np}
    exec(sys.stdin.read(), namespace)
    results = {}
    for name, scenario in namespace["SCENARIOS"].items():
        keras.backend.clear_session()
        keras.utils.set_random_seed(0)
        try:
            results[name] = {"value": scenario()}
        except Exception as error:  # noqa: BLE001 (reported to the test)
            results[name] = {"crash": f"{type(error).__name__}: {error}"}
    print(json.dumps(results, default=str))
''')


def _jsonable(value):
    return json.loads(json.dumps(value, default=str))


def run_mine(source):
    """The namespace of ``source`` executed with kerasmini (its
    ``SCENARIOS``, and whatever else it defines)."""
    namespace = {"keras": kerasmini, "layers": kerasmini.layers,
                 "ops": kerasmini.ops, "np": np}
    exec(PRELUDE + source, namespace)
    return namespace


def observe_mine(scenario):
    """One scenario's observations, as JSON would carry them."""
    return _jsonable(scenario())


def run_keras(source, timeout=600):
    """``{name: {"value": ...} or {"crash": "..."}}`` from real Keras."""
    env = dict(os.environ, KERAS_BACKEND="torch")
    result = keras_worker.run(KERAS_PYTHON, KERAS_MAIN, input=PRELUDE + source,
                              env=env, timeout=timeout)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def differences(mine, theirs, tol=1e-6, where=""):
    """The places where two observations differ, one line each.

    >>> differences({"a": [1.0, 2.0], "b": "x"}, {"a": [1.0, 2.0000001], "b": "y"})
    ["['b']: kerasmini 'x' != keras 'y'"]
    """
    if isinstance(mine, bool) or isinstance(theirs, bool):
        same = mine is theirs
    elif isinstance(mine, (int, float)) and isinstance(theirs, (int, float)):
        same = math.isclose(mine, theirs, rel_tol=tol, abs_tol=tol)
    elif isinstance(mine, list) and isinstance(theirs, list) \
            and len(mine) == len(theirs):
        return [d for i, (a, b) in enumerate(zip(mine, theirs))
                for d in differences(a, b, tol, f"{where}[{i}]")]
    elif isinstance(mine, dict) and isinstance(theirs, dict) \
            and mine.keys() == theirs.keys():
        return [d for key in mine
                for d in differences(mine[key], theirs[key], tol, f"{where}[{key!r}]")]
    else:
        same = mine == theirs
    return [] if same else [f"{where}: kerasmini {mine!r} != keras {theirs!r}"]
