"""Keep the book's "verified against Keras" lines in step with the parity run.

``make parity`` writes ``_build/parity/results.json`` (every scenario, run by
kerasmini and by real Keras). The chapters show the per-chapter figures from
``kerasmini/book/parity_results.json``, a small copy kept in the repository so
the notebooks (and nbval) read them without real Keras installed.

    python tools/parity_summary.py --check   # fail if the copy is stale
    python tools/parity_summary.py --write   # refresh it, then `make notebooks`
    python tools/parity_summary.py --cells chapters/*.ipynb   # add the lines
"""

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / "_build" / "parity" / "results.json"
RECORDED = ROOT / "kerasmini" / "book" / "parity_results.json"
FIELDS = ("scenarios", "equal", "observations", "known", "cells")


def summary(run: dict) -> dict:
    """The part of a parity run the chapters show."""
    return {"keras_version": run["keras_version"], "backend": run["backend"],
            "chapters": {chapter: {key: entry[key] for key in FIELDS}
                         for chapter, entry in sorted(run["chapters"].items(),
                                                      key=lambda kv: int(kv[0]))}}


TAG = "parity-verified"


def add_verified_cell(path: Path) -> bool:
    """Put a ``verified(N)`` cell under the chapter's "Keras 2 vs Keras 3"
    heading; ``False`` if the chapter has one already or no scenarios."""
    import nbformat  # only this mode needs it (it comes with jupyter)

    chapter = int(path.name.split("_")[0])
    recorded = json.loads(RECORDED.read_text())
    nb = nbformat.read(path, as_version=4)
    cells = nb.cells
    if str(chapter) not in recorded["chapters"] or any(
            TAG in c.metadata.get("tags", []) for c in cells):
        return False
    heading = next((i for i, c in enumerate(cells) if c.cell_type == "markdown"
                    and "## Keras 2 vs Keras 3" in c.source), None)
    if heading is None:
        raise SystemExit(f"{path}: no '## Keras 2 vs Keras 3' section")
    cell = nbformat.v4.new_code_cell(
        f"from kerasmini.book.parity import verified\n\nverified({chapter})",
        metadata={"tags": ["remove-input", TAG]})
    cell.id = TAG
    cells.insert(heading + 1, cell)
    nbformat.write(nb, path)
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--cells", nargs="+", metavar="NOTEBOOK",
                      help="add the verified line to these chapters (idempotent)")
    args = parser.parse_args(argv)
    if args.cells:
        for path in args.cells:
            if add_verified_cell(Path(path)):
                print(f"{path}: verified line added (run it to store its output)")
        return 0
    if not RUN.exists():
        print(f"{RUN} is missing: run `make parity` first.", file=sys.stderr)
        return 2
    fresh = summary(json.loads(RUN.read_text()))
    if args.write:
        RECORDED.write_text(json.dumps(fresh, indent=1, sort_keys=True) + "\n")
        print(f"wrote {RECORDED.relative_to(ROOT)}; now re-run the chapters "
              "(make notebooks) so their stored lines match.")
        return 0
    recorded = json.loads(RECORDED.read_text()) if RECORDED.exists() else {
        "chapters": {}}
    if recorded != fresh:
        print("kerasmini/book/parity_results.json is stale: the chapters would "
              "show figures the last parity run did not produce. Run "
              "`python tools/parity_summary.py --write`, then `make notebooks`.",
              file=sys.stderr)
        for chapter in sorted(set(recorded["chapters"]) | set(fresh["chapters"]),
                              key=int):
            old = recorded["chapters"].get(chapter)
            new = fresh["chapters"].get(chapter)
            if old != new:
                print(f"  chapter {chapter}: recorded {old} / this run {new}",
                      file=sys.stderr)
        return 1
    total = sum(entry["scenarios"] for entry in fresh["chapters"].values())
    print(f"parity figures up to date: {total} scenarios in "
          f"{len(fresh['chapters'])} chapters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
