"""How long does ``import kerasmini`` take on top of ``import numpy``?

``python -m benchmarks.import_cost`` runs ``--repeat`` fresh interpreters;
each imports NumPy first, then times ``import kerasmini`` alone (wall
clock and CPU time, the second being what a busy shared machine disturbs
least) and counts the modules it loaded. It prints the fastest and the
median, with bytecode caches (written once to a temporary directory, as a
user has them after the first import) and compiled from source (no caches:
a first import after an install or an edit).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

CODE = """\
import sys, time
import numpy
before = set(sys.modules)
start, cpu = time.perf_counter(), time.process_time()
import kerasmini
print(time.perf_counter() - start, time.process_time() - cpu,
      len(set(sys.modules) - before))
"""


def run_once(cache_dir):
    """(wall seconds, CPU seconds, modules) of one fresh interpreter; with
    ``cache_dir=None`` no bytecode cache is read or written."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if cache_dir is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        cache_dir = os.path.join(os.devnull, "none")  # nothing to read there
    env["PYTHONPYCACHEPREFIX"] = cache_dir
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True,
                         text=True, check=True, env=env).stdout.split()
    return float(out[0]), float(out[1]), int(out[2])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args(argv)
    print(f"import kerasmini after import numpy, {args.repeat} fresh interpreters")
    print(f"{'':24s} {'wall min':>9s} {'median':>7s} {'CPU min':>8s} {'median':>7s} "
          f"{'modules':>8s}")
    with tempfile.TemporaryDirectory() as cache_dir:
        run_once(cache_dir)  # writes the caches
        for label, caches in (("with bytecode caches", cache_dir),
                              ("compiled from source", None)):
            runs = [run_once(caches) for _ in range(args.repeat)]
            wall = [run[0] * 1e3 for run in runs]
            cpu = [run[1] * 1e3 for run in runs]
            print(f"{label:24s} {min(wall):9.1f} {statistics.median(wall):7.1f} "
                  f"{min(cpu):8.1f} {statistics.median(cpu):7.1f} {runs[0][2]:8d}")


if __name__ == "__main__":
    main()
