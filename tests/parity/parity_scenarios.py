"""The book's scenarios, written once and run by both kerasmini and real Keras.

Importing this module registers every scenario (chapters 1-4, 5-8 and 9-14
live in their own files); ``SCENARIOS`` maps a name to its function, ``CHAPTER`` to its
chapter, ``KNOWN`` to its documented differences, ``XFAIL`` to the reason it is
expected to fail, ``TOLERANCE`` to the tolerance for its floats and ``CELLS``
to the chapter's code cells it re-runs.

>>> sorted(set(CHAPTER.values()))
[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
"""

import parity_chapters_1_4  # noqa: F401  (registers its scenarios)
import parity_chapters_5_8
import parity_chapters_9_14  # noqa: F401
from parity_registry import CELLS, CHAPTER, KNOWN, SCENARIOS, TOLERANCE, XFAIL

write_cross_loading_file = parity_chapters_5_8.write_cross_loading_file

__all__ = ["CELLS", "CHAPTER", "KNOWN", "SCENARIOS", "TOLERANCE", "XFAIL",
           "write_cross_loading_file"]
