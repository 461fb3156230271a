"""Shared fixtures: every test starts with fresh auto names and seed 0."""

import pytest

from kerasmini import backend, config, utils


@pytest.fixture(autouse=True)
def fresh_session():
    """``clear_session()`` (``dense`` is free again), a fixed seed, and the
    global settings of ``kerasmini.config`` put back after the test."""
    backend.clear_session()
    utils.set_random_seed(0)
    settings = (config.floatx(), config.epsilon(), config.image_data_format())
    yield
    backend.clear_session()
    config.set_floatx(settings[0])
    config.set_epsilon(settings[1])
    config.set_image_data_format(settings[2])


def pytest_collection_modifyitems(config, items):
    """The examples of the two modules that read Keras's releases need them.

    ``make test`` fetches them first (``make keras-releases``); a bare
    ``pytest`` without them skips those examples and says why.
    """
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
