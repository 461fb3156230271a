"""Run ``python -c SCRIPT ARGS...`` in a long-lived interpreter of another venv.

The interop tests (``make interop``) run their Keras side as scripts in the
real-Keras virtualenvs. Starting a fresh interpreter for each costs the import
of Keras and torch (or TensorFlow) every time, 3-10 s, about 50 times a run.
:func:`run` keeps one worker process per interpreter and ``KERAS_BACKEND``
for the whole pytest session and runs each script in it as ``python -c``
would: the script is the code of a new ``__main__`` module, ``sys.argv`` is
``["-c", *args]``, ``sys.stdin`` reads ``input``, the request's environment
and working directory are in force while it runs, and its file descriptors 1
and 2 go to files (so Python's prints, warnings, ``logging`` and C-level
output are all captured). It returns a :class:`subprocess.CompletedProcess`,
like ``subprocess.run(..., capture_output=True, text=True)``.

Before each script the worker puts back what a fresh interpreter would have
after importing Keras: ``keras.backend.clear_session()`` (layer names, the
dtype policy, safe mode), the module globals of ``keras.src.backend.config``
(floatx, epsilon, image data format; ``KERAS_HOME`` of the request's
environment is Keras's home as it would be on import), the custom-object registry, the
random states of ``random``, NumPy and torch, ``sys.path``, ``sys.modules``'
new entries are kept (imports are what the worker saves). A script that
exits with ``sys.exit(n)`` returns ``n``; an exception prints its traceback
and returns 1, as ``python -c`` does; a worker that dies (``os._exit``, a
crash) is replaced by the next call.

``KERASMINI_KERAS_WORKER=0`` runs every script in a fresh interpreter
instead (``subprocess.run``), the way to check that a result does not depend
on the shared worker.
"""

import atexit
import json
import os
import select
import subprocess
import tempfile

# The worker's own code, run as `python -c` so that its sys.path[0] is "" as
# in the scripts' own `python -c` (tests/ is not importable there).
WORKER = r'''
import contextlib
import io
import json
import os
import random
import sys
import traceback
import types
import warnings

protocol_in = os.fdopen(os.dup(0), "r")
protocol_out = os.fdopen(os.dup(1), "w")
devnull = os.open(os.devnull, os.O_RDONLY)
os.dup2(devnull, 0)

import numpy as np
try:
    import keras
    import keras.layers  # noqa: F401 (paid once)
    from keras.src.backend import config as keras_config
    from keras.src.saving import object_registration
except ImportError:
    keras = None
torch = sys.modules.get("torch")

CONFIG = {name: value for name, value in vars(keras_config).items()
          if name.startswith("_") and not name.startswith("__")
          and isinstance(value, (str, int, float, bool, type(None)))} \
    if keras is not None else {}
REGISTRY = (dict(object_registration.GLOBAL_CUSTOM_OBJECTS),
            dict(object_registration.GLOBAL_CUSTOM_NAMES)) \
    if keras is not None else None
RANDOM = random.getstate()
NUMPY = np.random.get_state()
TORCH = torch.get_rng_state() if torch is not None else None
PATH = list(sys.path)
ENVIRON = dict(os.environ)
CWD = os.getcwd()
MAIN = sys.modules["__main__"]
WARNINGS = list(warnings.filters)


def fresh_state():
    if keras is not None:
        keras.backend.clear_session()
        for name, value in CONFIG.items():
            setattr(keras_config, name, value)
        for live, saved in zip((object_registration.GLOBAL_CUSTOM_OBJECTS,
                                object_registration.GLOBAL_CUSTOM_NAMES), REGISTRY):
            live.clear()
            live.update(saved)
    random.setstate(RANDOM)
    np.random.set_state(NUMPY)
    if torch is not None:
        torch.set_rng_state(TORCH)
    sys.path[:] = PATH


def run(request):
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])
    fresh_state()
    if keras is not None and "KERAS_HOME" in os.environ:  # read on import
        keras_config._KERAS_DIR = os.environ["KERAS_HOME"]
    main = types.ModuleType("__main__")
    main.__builtins__ = __builtins__
    sys.modules["__main__"] = main
    sys.argv = ["-c", *request["args"]]
    sys.stdin = io.StringIO(request["input"])
    code = 0
    with open(request["stdout"], "w") as out, open(request["stderr"], "w") as err:
        sys.stdout.flush(), sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        os.dup2(out.fileno(), 1), os.dup2(err.fileno(), 2)
        try:
            with warnings.catch_warnings():  # each script sees its warnings
                warnings.filters[:] = WARNINGS
                warnings._filters_mutated()
                exec(compile(request["source"], "<string>", "exec"), vars(main))
        except SystemExit as stop:
            if stop.code is None or isinstance(stop.code, int):
                code = stop.code or 0
            else:
                print(stop.code, file=sys.stderr)
                code = 1
        except BaseException:  # noqa: BLE001 (reported as python -c would)
            traceback.print_exc()
            code = 1
        finally:
            with contextlib.suppress(Exception):
                sys.stdout.flush(), sys.stderr.flush()
            os.dup2(saved[0], 1), os.dup2(saved[1], 2)
            os.close(saved[0]), os.close(saved[1])
            sys.modules["__main__"] = MAIN
            sys.stdin = io.StringIO("")
            os.environ.clear()
            os.environ.update(ENVIRON)
            os.chdir(CWD)
    return code


protocol_out.write("ready\n")
protocol_out.flush()
for line in protocol_in:
    code = run(json.loads(line))
    protocol_out.write(json.dumps({"returncode": code}) + "\n")
    protocol_out.flush()
'''

_WORKERS = {}


def _shared():
    return os.environ.get("KERASMINI_KERAS_WORKER", "1") != "0"


class _Worker:
    def __init__(self, python, env, cwd):
        self.log = tempfile.TemporaryFile("w+")  # its own stderr (imports)
        self.process = subprocess.Popen(
            [python, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self.log, env=env, cwd=cwd, text=True)
        self.python = python

    def own_stderr(self):
        self.log.seek(0)
        return self.log.read()

    def read_line(self, timeout):
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        if not ready:
            self.close()
            raise subprocess.TimeoutExpired(self.python, timeout)
        line = self.process.stdout.readline()
        if not line:  # the worker died
            self.process.wait()
            return None
        return line

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def _close_all():
    for worker in _WORKERS.values():
        if worker.process.poll() is None:
            worker.process.stdin.close()
            try:
                worker.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.close()
    _WORKERS.clear()


atexit.register(_close_all)


def _worker(python, env, cwd, timeout):
    key = (python, env.get("KERAS_BACKEND"))
    worker = _WORKERS.get(key)
    if worker is not None and worker.process.poll() is None:
        return worker
    worker = _Worker(python, env, cwd)
    if worker.read_line(timeout) != "ready\n":
        worker.close()
        error = worker.own_stderr()
        raise RuntimeError(f"the Keras worker of {python} did not start:\n"
                           f"{error[-3000:]}")
    _WORKERS[key] = worker
    return worker


def run(python, source, *args, input=None, env=None, timeout=600):
    """``subprocess.run([python, "-c", source, *args], input=input, env=env,
    capture_output=True, text=True, timeout=timeout)``, in a shared worker."""
    args = [str(arg) for arg in args]
    env = dict(os.environ if env is None else env)
    if not _shared():
        return subprocess.run([python, "-c", source, *args], input=input,
                              capture_output=True, text=True, env=env,
                              timeout=timeout, check=False)
    cwd = os.getcwd()
    worker = _worker(python, env, cwd, timeout)
    with tempfile.TemporaryDirectory(prefix="keras-worker-") as folder:
        out, err = os.path.join(folder, "out"), os.path.join(folder, "err")
        request = {"source": source, "args": args, "input": input or "",
                   "env": env, "cwd": cwd, "stdout": out, "stderr": err}
        worker.process.stdin.write(json.dumps(request) + "\n")
        worker.process.stdin.flush()
        line = worker.read_line(timeout)
        if line is None:  # died: what it wrote, and its own stderr
            returncode = worker.process.returncode
            extra = worker.own_stderr()
        else:
            returncode, extra = json.loads(line)["returncode"], ""
        outputs = []
        for path in (out, err):
            try:
                with open(path) as file:
                    outputs.append(file.read())
            except FileNotFoundError:
                outputs.append("")
    return subprocess.CompletedProcess([python, "-c", source, *args], returncode,
                                       outputs[0], outputs[1] + extra)
