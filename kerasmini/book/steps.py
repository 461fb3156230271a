"""The numbered steps of a function, read from its banner comments.

``Layer.__call__`` is written as a pipeline whose steps open with a banner
comment, ``# 4. Call build (once).``, numbered as Keras 3 numbers them. The
book cuts the source at those banners and draws the pipeline from them, so
text, figure and library cannot drift apart.

>>> from kerasmini import Layer
>>> [step.label for step in call_steps(Layer.__call__)]
['1', '2', '3', '4', '5', '6', '7', '8']
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass

_BANNER = re.compile(r"\s*# (\d+[a-z]?)\. (.*)")


@dataclass(frozen=True)
class Step:
    """One banner: its label (``"4"``), title, and 1-based lines ``start`` to
    ``end`` (inclusive), counted from the ``def`` line of the function.

    >>> Step("4", "Call build (once).", 17, 18).end
    18
    """

    label: str
    title: str
    start: int
    end: int


def call_steps(fn) -> list[Step]:
    """The banner steps of ``fn``, in source order.

    A step ends on the line before the next banner (the last one at the end
    of the function). A banner's title may continue on the next comment
    lines; only its first line is kept.

    Raises:
        ValueError: if ``fn`` has no numbered banner comments.

    >>> from kerasmini import Layer
    >>> step = call_steps(Layer.__call__)[3]
    >>> step.label, step.title
    ('4', 'Call build (once).')
    """
    lines = inspect.getsource(fn).splitlines()
    found = []
    for number, line in enumerate(lines, start=1):
        match = _BANNER.match(line)
        if match:
            found.append((number, *match.groups()))
    if not found:
        raise ValueError(
            f"{getattr(fn, '__qualname__', fn)!r} has no numbered banner comments "
            "('# 1. ...'). Received: a function without steps."
        )
    ends = [start - 1 for start, _, _ in found[1:]] + [len(lines)]
    return [Step(label, title, start, end)
            for (start, label, title), end in zip(found, ends)]


def step_lines(fn, label: str) -> tuple[int, int]:
    """``(start, end)`` of step ``label`` of ``fn``, for ``show_source(lines=...)``.

    >>> from kerasmini import Layer
    >>> start, end = step_lines(Layer.__call__, "4")
    >>> end - start
    1
    """
    for step in call_steps(fn):
        if step.label == label:
            return step.start, step.end
    labels = [step.label for step in call_steps(fn)]
    raise KeyError(f"No step {label!r}; the steps are {labels}.")


__all__ = ["Step", "call_steps", "step_lines"]
