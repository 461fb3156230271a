"""Shared fixtures: every test starts with fresh auto names and seed 0."""

import pytest

from kerasmini import backend, utils


@pytest.fixture(autouse=True)
def fresh_session():
    """``clear_session()`` (``dense`` is free again) and a fixed seed."""
    backend.clear_session()
    utils.set_random_seed(0)
    yield
    backend.clear_session()
