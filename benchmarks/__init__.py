"""Benchmarks run as scripts (``python -m benchmarks.fit_digits``), not tests."""
