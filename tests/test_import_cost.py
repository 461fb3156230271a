"""`import kerasmini` must stay cheap: heavy optional packages load on first use."""

import subprocess
import sys

HEAVY = ("h5py", "matplotlib", "graphviz", "pygments")


def test_import_kerasmini_does_not_load_heavy_packages():
    # a fresh interpreter, so modules imported by other tests do not count
    code = (
        "import sys, kerasmini\n"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True,
                            text=True, check=True)
    assert result.stdout.strip() == "", result.stdout
