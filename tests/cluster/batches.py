"""The batches the cluster tests grade, beyond the bundled examples."""
from __future__ import annotations

from pathlib import Path

import nbformat

from autograder import paths

EXAMPLES = paths.EXAMPLES / "hw1_attention"


def slow_batch(folder: Path, n: int, seconds: float) -> list[str]:
    """n copies of hw1's full solution that sleep `seconds` first: long enough
    to be caught mid-grading. Every one scores full marks."""
    nb = nbformat.read(EXAMPLES / "full_solution.ipynb", as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(f"import time\ntime.sleep({seconds})"))
    folder.mkdir()
    ids = [f"s{i:02d}" for i in range(n)]
    for sid in ids:
        nbformat.write(nb, str(folder / f"{sid}.ipynb"))
    return ids
