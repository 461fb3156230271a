"""Shared fixtures: every test starts with fresh auto names, seed 0 and no
global dtype policy."""

import pytest

from kerasmini import backend, config, dtype_policies, utils


@pytest.fixture(autouse=True)
def fresh_session():
    """``clear_session()`` (``dense`` is free again), a fixed seed, no global
    dtype policy, and the global settings of ``kerasmini.config`` put back
    after the test.

    kerasmini's ``clear_session`` keeps the global policy, and a test (or a
    doctest) that sets ``mixed_float16`` and then ``"float32"`` leaves a policy
    set, which ``set_floatx("float64")`` no longer changes: without the reset,
    the float64 gradient checks fail when they run after it on the same worker.
    (Real Keras, under ``tools/guide_tests_on_keras.py``, has no
    ``reset_dtype_policy``: its ``clear_session`` forgets the policy.)
    """
    reset_policy = getattr(dtype_policies, "reset_dtype_policy", lambda: None)
    backend.clear_session()
    reset_policy()
    utils.set_random_seed(0)
    settings = (config.floatx(), config.epsilon(), config.image_data_format())
    yield
    backend.clear_session()
    reset_policy()
    config.set_floatx(settings[0])
    config.set_epsilon(settings[1])
    config.set_image_data_format(settings[2])


# The files (xdist scopes) that take longest, longest first. `make test` runs
# pytest-xdist with --dist loadscope --no-loadscope-reorder: each worker takes
# the next file in this order when it runs out of work, so the long ones start
# at once and the many short ones fill in at the end, and the two workers finish
# together. (The nbgrader round trip alone is about a third of a worker's time.)
LONGEST_FIRST = (
    "tests/test_classroom_nbgrader.py",
    "tests/test_errors_fuzz.py",
    "tests/test_morelayers_examples.py",
    "tests/test_memory.py",
    "tests/test_keras_lines.py",
    "tests/test_i18n.py",
    "tests/test_licence.py",
    "tests/test_guide_engineers.py",
    "tests/test_package.py",
    "tests/test_backup_and_restore.py",
    "tests/test_ops_errors.py",
    "tests/test_saving_optimizers.py",
    "tests/test_saving.py",
    "chapters/14_capstone.ipynb",
    "tests/test_exercises.py",
    "tests/test_import_cost.py",
)


def _longest_first(item):
    path = item.nodeid.split("::")[0]
    return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)


def pytest_collection_modifyitems(config, items):
    """The files of LONGEST_FIRST first (the order of everything else, and of
    the tests inside a file, is kept). The examples of the two modules that
    read Keras's releases need them.

    ``make test`` fetches them first (``make keras-releases``); a bare
    ``pytest`` without them skips those examples and says why.
    """
    items.sort(key=_longest_first)  # stable
    names = ("kerasmini/book/keras_lines.py", "kerasmini/book/keras_releases.py")
    if not any(item.nodeid.startswith(names) for item in items):
        return  # (also: tools/guide_tests_on_keras.py lends real Keras this name)
    from kerasmini.book import keras_releases

    if keras_releases.available():
        return
    skip = pytest.mark.skip(reason="the pinned Keras releases are not cached: "
                            "run `make keras-releases`")
    for item in items:
        if item.nodeid.startswith(names):
            item.add_marker(skip)
