"""The line each chapter shows: "verified against Keras 3.15.1".

``make parity`` runs every scenario of the book twice, with kerasmini and with
real Keras (``tests/parity/``), and writes the per-chapter figures to
``_build/parity/results.json``. ``tools/parity_summary.py --write`` copies those
figures into ``parity_results.json`` beside this file, and ``make parity``
fails while the copy is stale; the chapters read the copy, so the sentence a
reader sees is produced by the last parity run, never typed by hand.

>>> line = verified(8)
>>> line.chapter, line.keras_version
(8, '3.15.1')
>>> "scenarios" in repr(line)
True
"""

import json
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

RESULTS = Path(__file__).with_name("parity_results.json")


def load_results(path=RESULTS) -> dict:
    """The recorded parity figures: ``{"keras_version", "backend", "chapters"}``.

    >>> sorted(load_results())[:2]
    ['backend', 'chapters']
    """
    return json.loads(Path(path).read_text())


def _count(n, noun):
    return f"{n} {noun}" + ("" if n == 1 else "s")


@dataclass(frozen=True)
class Verified:
    """One chapter's parity figures, shown as a sentence (Markdown and text).

    >>> line = Verified(1, "3.15.1", "torch", scenarios=2, equal=2,
    ...                 observations=9)
    >>> print(line)  # doctest: +NORMALIZE_WHITESPACE
    Verified against Keras 3.15.1 (torch backend) by `make parity`: this
    chapter's 2 scenarios (9 observations) run in kerasmini and in Keras,
    and all behave the same.
    >>> print(Verified(14, "3.15.1", "torch", scenarios=1, equal=1,
    ...                observations=4))  # doctest: +NORMALIZE_WHITESPACE
    Verified against Keras 3.15.1 (torch backend) by `make parity`: this
    chapter's 1 scenario (4 observations) runs in kerasmini and in Keras,
    and it behaves the same.
    """

    chapter: int
    keras_version: str
    backend: str
    scenarios: int
    equal: int
    observations: int
    known: dict = field(default_factory=dict)  # observation -> why it differs
    # the chapter's code cells the scenarios re-run: cell id -> scenario names
    # (the website marks each such cell; the sentence itself stays the same)
    cells: dict = field(default_factory=dict)

    def sentences(self) -> list:
        same = ("all behave the same" if self.equal == self.scenarios
                else f"{self.equal} behave the same")
        scenarios = _count(self.scenarios, "scenario")
        observations = _count(self.observations, "observation")
        same = same if self.scenarios > 1 else (
            "it behaves the same" if self.equal == 1 else "it differs")
        lines = [
            f"Verified against Keras {self.keras_version} ({self.backend} "
            f"backend) by `make parity`: this chapter's {scenarios} "
            f"({observations}) {'run' if self.scenarios > 1 else 'runs'} in "
            f"kerasmini and in Keras, and {same}."
        ]
        if self.known:
            lines.append("Different on purpose, and checked to stay different:")
            lines.extend(f"- `{key}`: {why}" for key, why in sorted(self.known.items()))
        return lines

    def _repr_markdown_(self) -> str:
        first, *rest = self.sentences()
        return "\n".join([f"**{first}**", "", *rest])

    def __repr__(self) -> str:  # the plain text, within 79 columns
        return "\n".join(textwrap.fill(line, 79, subsequent_indent="  "
                                        if line.startswith("- ") else "")
                         for line in self.sentences())


def verified(chapter: int, path=RESULTS) -> Verified:
    """The parity figures of ``chapter`` from the last recorded ``make parity``.

    >>> verified(5).scenarios >= verified(5).equal
    True
    """
    results = load_results(path)
    entry = results["chapters"].get(str(chapter))
    if entry is None:
        raise ValueError(
            f"No parity scenarios are recorded for chapter {chapter}. Add some in "
            "tests/parity/ and run `make parity`, then "
            "`python tools/parity_summary.py --write`.")
    return Verified(chapter=chapter, keras_version=results["keras_version"],
                    backend=results["backend"], scenarios=entry["scenarios"],
                    equal=entry["equal"], observations=entry["observations"],
                    known=dict(entry.get("known", {})),
                    cells={cell: list(names)
                           for cell, names in entry.get("cells", {}).items()})


def badge_html(line: Verified, names) -> str:
    """The mark the website puts under a cell that ``names`` re-run in Keras.

    Language-free on purpose (a tick and a version: the translated editions
    share it); it links to the chapter's verified line, and its tooltip names
    the scenarios (``tests/parity/``).

    >>> html = badge_html(Verified(11, "3.15.1", "torch", 1, 1, 2),
    ...                   ["ch11_fit_history"])
    >>> "Keras 3.15.1" in html and 'title="ch11_fit_history"' in html
    True
    """
    title = ", ".join(names)
    return ('<p class="kerasmini-verified"><a href="#kerasmini-parity" '
            f'title="{title}">&#10003; Keras {line.keras_version}</a></p>')
