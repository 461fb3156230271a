"""Drop what a run writes into a notebook that no reader needs.

``jupyter nbconvert --execute`` records each cell's execution timestamps in
``metadata.execution``; they change at every run and make merges of the
chapters conflict for no reason. ``make notebooks`` calls this after running.

    python tools/clean_notebooks.py chapters/*.ipynb
"""

import json
import sys


def clean(path):
    """Remove per-cell execution timestamps; return True if the file changed."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    nb = json.loads(text)
    changed = False
    for cell in nb.get("cells", []):
        if cell.get("metadata", {}).pop("execution", None) is not None:
            changed = True
    if changed:
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    return changed


if __name__ == "__main__":
    for name in sys.argv[1:]:
        if clean(name):
            print(f"cleaned {name}")
