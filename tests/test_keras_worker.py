"""The shared interpreter of the interop tests behaves as ``python -c`` does.

``keras_worker.run`` is checked here with this interpreter (no Keras), and,
under ``make interop``, with real Keras: each script starts from what a fresh
interpreter would have (layer names, registry, seeds, config).
"""

import os
import subprocess
import sys
import textwrap
import warnings

import keras_worker
import pytest

KERAS_PYTHON = os.environ.get("KERASMINI_REAL_KERAS_PYTHON")

SCRIPT = textwrap.dedent('''
    import os
    import sys
    import warnings

    class Thing:
        pass

    print("argv", sys.argv[1:], "stdin", sys.stdin.read())
    print("env", os.environ.get("WORKER_TEST"), "cwd", os.getcwd())
    print("module", Thing.__module__, __name__)
    warnings.warn("once per process?", UserWarning)
    os.environ["LEFT_BEHIND"] = "1"
    sys.stderr.write("to stderr\\n")
    os.write(1, b"fd 1\\n")
    if sys.argv[1] == "fail":
        raise ValueError("on purpose")
    if sys.argv[1] == "exit":
        sys.exit(3)
''')


def both(*args, **kwargs):
    """The worker's answer and a fresh interpreter's."""
    shared = keras_worker.run(sys.executable, SCRIPT, *args, **kwargs)
    saved = os.environ.get("KERASMINI_KERAS_WORKER")
    os.environ["KERASMINI_KERAS_WORKER"] = "0"
    try:
        fresh = keras_worker.run(sys.executable, SCRIPT, *args, **kwargs)
    finally:
        if saved is None:
            del os.environ["KERASMINI_KERAS_WORKER"]
        else:
            os.environ["KERASMINI_KERAS_WORKER"] = saved
    return shared, fresh


def _sorted_lines(text):
    return sorted(text.splitlines())


@pytest.mark.parametrize("how,code", [("ok", 0), ("fail", 1), ("exit", 3)])
def test_worker_answers_as_python_c(tmp_path, how, code):
    env = dict(os.environ, WORKER_TEST="here")
    for _ in range(2):  # the second run: same warning, same answer
        shared, fresh = both(how, tmp_path, input="some input", env=env)
        assert shared.returncode == fresh.returncode == code
        # (fd 1 and Python's buffered prints interleave differently)
        assert _sorted_lines(shared.stdout) == _sorted_lines(fresh.stdout)
        assert "module __main__ __main__" in shared.stdout
        assert f"argv ['{how}', '{tmp_path}'] stdin some input" in shared.stdout
        assert "env here" in shared.stdout
        assert "UserWarning: once per process?" in shared.stderr
        assert "to stderr" in shared.stderr
        if how == "fail":
            assert "ValueError: on purpose" in shared.stderr
            assert "Traceback" in fresh.stderr
    assert "LEFT_BEHIND" not in keras_worker.run(
        sys.executable, "import os; print(sorted(os.environ))").stdout


def test_one_worker_per_interpreter_and_a_dead_one_is_replaced():
    pid = "import os; print(os.getpid())"
    first = keras_worker.run(sys.executable, pid).stdout
    assert keras_worker.run(sys.executable, pid).stdout == first
    died = keras_worker.run(sys.executable, "import os; print('bye', flush=True); "
                            "os._exit(7)")
    assert died.returncode == 7 and died.stdout == "bye\n"
    assert keras_worker.run(sys.executable, pid).stdout != first


def test_timeout_kills_the_worker():
    with pytest.raises(subprocess.TimeoutExpired):
        keras_worker.run(sys.executable, "import time; time.sleep(60)", timeout=2)
    assert keras_worker.run(sys.executable, "print(1)").stdout == "1\n"


KERAS_STATE = textwrap.dedent('''
    import json
    import random
    import numpy as np
    import torch
    import keras

    @keras.saving.register_keras_serializable(package="worker_test")
    class Mine(keras.layers.Layer):
        pass

    first = [keras.layers.Dense(1).name, keras.layers.Dense(1).name]
    facts = {"names": first, "floatx": keras.config.floatx(),
             "format": keras.config.image_data_format(),
             "random": random.random(), "numpy": np.random.rand(),
             "torch": torch.rand(1).item(),
             "policy": keras.config.dtype_policy().name,
             "home": keras.src.backend.config.keras_home()}
    keras.config.set_floatx("float64")
    keras.config.set_image_data_format("channels_first")
    keras.config.set_dtype_policy("mixed_float16")
    print(json.dumps(facts))
''')


@pytest.mark.skipif(KERAS_PYTHON is None, reason="KERASMINI_REAL_KERAS_PYTHON is unset")
def test_each_keras_script_starts_fresh(tmp_path):
    env = dict(os.environ, KERAS_BACKEND="torch", KERAS_HOME=str(tmp_path))
    with warnings.catch_warnings():
        runs = [keras_worker.run(KERAS_PYTHON, KERAS_STATE, env=env) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr[-3000:]
    first, second = (run.stdout.strip().splitlines()[-1] for run in runs)
    assert first == second
    assert '"names": ["dense", "dense_1"]' in first
    assert '"floatx": "float32"' in first and '"policy": "float32"' in first
    assert f'"home": "{tmp_path}"' in first
