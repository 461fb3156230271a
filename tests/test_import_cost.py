"""`import kerasmini` must stay cheap: heavy optional packages, the saving
archive floor, NumPy's random module and the callbacks a user picks load on
first use. (What is measured is which modules load, not time: a timed test
would fail on a busy machine.)"""

import subprocess
import sys

HEAVY = ("h5py", "matplotlib", "graphviz", "pygments", "PIL")

# loaded on first use (module __getattr__, PEP 562, or a lazy generator)
ON_FIRST_USE = (
    "kerasmini.saving.saving_api", "kerasmini.saving.saving_lib",
    "kerasmini.saving.stores", "kerasmini.callbacks.early_stopping",
    "kerasmini.callbacks.model_checkpoint", "kerasmini.callbacks.lambda_callback",
    "kerasmini.callbacks.learning_rate_scheduler",
    "kerasmini.callbacks.terminate_on_nan", "kerasmini.utils.plot",
    "kerasmini.utils.plotting", "kerasmini.book", "numpy.random", "zipfile",
    "json", "tempfile",
    # the data helpers: downloads, archives, images, the dataset loaders
    "kerasmini.utils.file_utils", "kerasmini.utils.archive_utils", "kerasmini.utils.errors",
    "kerasmini.utils.image_utils",
    "kerasmini.utils.sequence_utils", "kerasmini.utils.numerical_utils",
    "kerasmini.datasets.mnist", "kerasmini.datasets.imdb",
    "kerasmini.datasets.image_dataset", "kerasmini.datasets.timeseries_dataset",
    "urllib.request", "tarfile",
)


def _loaded_after(code, names):
    # a fresh interpreter, so modules imported by other tests do not count
    code = (
        f"import sys\n{code}\n"
        f"print(','.join(m for m in {names!r} if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True,
                            text=True, check=True)
    return [name for name in result.stdout.strip().split(",") if name]


def test_import_kerasmini_does_not_load_heavy_packages():
    assert _loaded_after("import kerasmini", HEAVY) == []


def test_import_kerasmini_leaves_rarely_used_parts_for_first_use():
    assert _loaded_after("import kerasmini", ON_FIRST_USE) == []


def test_rarely_used_public_names_load_on_first_access():
    code = (
        "import kerasmini\n"
        "assert kerasmini.callbacks.EarlyStopping.__name__ == 'EarlyStopping'\n"
        "assert kerasmini.saving.load_model.__name__ == 'load_model'\n"
        "assert kerasmini.models.save_model.__name__ == 'save_model'\n"
        "from kerasmini.callbacks import ModelCheckpoint\n"
        "from kerasmini.models import load_model\n"
    )
    loaded = _loaded_after(code, ON_FIRST_USE)
    assert "kerasmini.callbacks.early_stopping" in loaded
    assert "kerasmini.callbacks.model_checkpoint" in loaded
    assert "kerasmini.saving.saving_api" in loaded


def test_the_book_sees_every_public_name_in_the_registry():
    # the book reads the whole library: importing it loads what `import
    # kerasmini` leaves for first use, so the registry lists those names too
    code = (
        "import kerasmini.book\n"
        "from kerasmini.api_export import REGISTERED_NAMES_TO_OBJS as names\n"
        "assert 'kerasmini.callbacks.EarlyStopping' in names\n"
        "assert 'kerasmini.saving.load_model' in names\n"
    )
    assert "kerasmini.callbacks.early_stopping" in _loaded_after(code, ON_FIRST_USE)


def test_the_data_helpers_load_on_first_use():
    code = (
        "import kerasmini\n"
        "assert kerasmini.utils.load_img.__name__ == 'load_img'\n"
        "assert kerasmini.datasets.mnist.load_data.__name__ == 'load_data'\n"
    )
    loaded = _loaded_after(code, ON_FIRST_USE + HEAVY)
    assert {"kerasmini.utils.image_utils", "PIL", "kerasmini.datasets.mnist",
            "kerasmini.utils.file_utils"} <= set(loaded)
    assert "kerasmini.datasets.image_dataset" not in loaded
