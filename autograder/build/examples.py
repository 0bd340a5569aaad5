"""Demo submissions in examples/<id>/, made from the built student notebook
so that they stay in sync with it (`build` rewrites them; or run
`python -m autograder.build.examples hw1_attention`).

Each variant fills the student notebook's answer cells (found by the stub
they define) with the solution's code, a mistaken version, or nothing, and
may add cells. hw1_attention, with its 18 points:

    full_solution.ipynb     the solution's answers              18
    partial_mistakes.ipynb  no ValueError in causal_mask, no 1/sqrt(d_k)
                            and the mask multiplied into the weights,
                            TinySelfAttn left as given           low
    untouched.ipynb         the notebook as handed out            0
    otter_export.zip        the full solution zipped as the export
                            cell would                           18
    broken_cells.ipynb      a scratch cell that raises and a TinySelfAttn
                            cell with a syntax error: the other answers
                            still count                           12
"""
from __future__ import annotations

import copy
import re
import sys
import zipfile
from pathlib import Path

import nbformat

from autograder import paths
from autograder.build.transforms import StableCellIds, serialise

EPOCH = (1980, 1, 1, 0, 0, 0)

HW1_CAUSAL_MASK_NO_CHECK = '''\
def causal_mask(n):
    """Causal mask (forgets to reject bad n)."""
    return torch.triu(torch.full((n, n), float("-inf")), diagonal=1)
'''

HW1_SDPA_MISTAKES = '''\
def scaled_dot_product_attention(q, k, v, mask=None):
    """Two classic mistakes: no 1/sqrt(d_k), and the mask multiplied in after the softmax."""
    weights = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
    if mask is not None:
        weights = weights * (mask == 0)
    return weights @ v, weights
'''

HW1_SYNTAX_ERROR = '''\
class TinySelfAttn(nn.Module):
    def __init__(self, h, heads)
        super().__init__()
'''

HW1_SCRATCH_RAISES = '''\
# scratch work left in the notebook
print(undefined_variable)
'''


def _stub_of(source: str) -> str | None:
    m = re.match(r"\s*(?:def|class)\s+(\w+)", source)
    return m.group(1) if m else None


def answers_of(nb) -> dict[str, str]:
    """{stub name: source} of the cells that define a stub."""
    return {_stub_of(c.source): c.source for c in nb.cells
            if c.cell_type == "code" and _stub_of(c.source)}


def fill(student, answers: dict[str, str], extra: list[tuple[int, str]] = ()):
    """A copy of `student` with the answer cells of `answers` replaced and
    (position, source) code cells inserted."""
    nb = copy.deepcopy(student)
    for cell in nb.cells:
        if cell.cell_type == "code" and _stub_of(cell.source) in answers:
            cell.source = answers[_stub_of(cell.source)]
    for position, source in sorted(extra, reverse=True):
        nb.cells.insert(position, nbformat.v4.new_code_cell(source))
    return StableCellIds()(nb)


def _zip_bytes(name: str, data: bytes) -> bytes:
    import io
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        info = zipfile.ZipInfo(name, date_time=EPOCH)
        info.external_attr = 0o100644 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        zf.writestr(info, data)
    return buf.getvalue()


def hw1_variants(student, solution) -> dict[str, bytes]:
    full = answers_of(solution)
    stubs = [c for c in student.cells if c.cell_type == "code" and _stub_of(c.source)]
    after_first_stub = student.cells.index(stubs[0]) + 1
    full_nb = serialise(fill(student, full))
    return {
        "full_solution.ipynb": full_nb,
        "partial_mistakes.ipynb": serialise(fill(student, {
            "causal_mask": HW1_CAUSAL_MASK_NO_CHECK,
            "scaled_dot_product_attention": HW1_SDPA_MISTAKES})),
        "untouched.ipynb": serialise(student),
        "otter_export.zip": _zip_bytes("hw1_attention.ipynb", full_nb),
        "broken_cells.ipynb": serialise(fill(
            student, {**full, "TinySelfAttn": HW1_SYNTAX_ERROR},
            extra=[(after_first_stub, HW1_SCRATCH_RAISES)])),
    }


VARIANTS = {"hw1_attention": hw1_variants}


def write_examples(assignment_id: str, student_bytes: bytes, solution) -> list[Path]:
    """Regenerate examples/<id>/ (only the files this module makes); [] when
    the assignment has no variants."""
    make = VARIANTS.get(assignment_id)
    if make is None:
        return []
    student = nbformat.reads(student_bytes.decode("utf-8"), as_version=4)
    folder = paths.EXAMPLES / assignment_id
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in sorted(make(student, solution).items()):
        path = folder / name
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    from autograder.build import solution_notebook, student_notebook
    for assignment_id in argv or sorted(VARIANTS):
        for path in write_examples(assignment_id, student_notebook(assignment_id),
                                   solution_notebook(assignment_id)):
            print(path.relative_to(paths.ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
