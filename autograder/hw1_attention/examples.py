"""Demo submissions of hw1_attention in examples/hw1_attention/, made by
`python -m autograder build` (or `python -m autograder.build.examples
hw1_attention`) from the built student notebook. Out of 18 points:

    full_solution.ipynb     the solution's answers                          18
    partial_mistakes.ipynb  no ValueError in causal_mask, no 1/sqrt(d_k)
                            and the mask multiplied into the weights,
                            TinySelfAttn left as given                      low
    untouched.ipynb         the notebook as handed out                        0
    otter_export.zip        the full solution zipped as the export
                            cell would                                      18
    broken_cells.ipynb      a scratch cell that raises and a TinySelfAttn
                            cell with a syntax error: the other answers
                            still count                                     12
"""
from __future__ import annotations

from autograder.build.examples import _stub_of, _zip_bytes, answers_of, corpus_answers, fill, serialise

# Broken cells, not mistakes of the corpus (which holds Python that runs): a
# definition that does not parse, and scratch work that raises.
SYNTAX_ERROR = '''\
class TinySelfAttn(nn.Module):
    def __init__(self, h, heads)
        super().__init__()
'''

SCRATCH_RAISES = '''\
# scratch work left in the notebook
print(undefined_variable)
'''


def variants(student, solution) -> dict[str, bytes]:
    full = answers_of(solution)
    stubs = [c for c in student.cells if c.cell_type == "code" and _stub_of(c.source)]
    after_first_stub = student.cells.index(stubs[0]) + 1
    full_nb = serialise(fill(student, full))
    return {
        "full_solution.ipynb": full_nb,
        "partial_mistakes.ipynb": serialise(fill(student, corpus_answers(
            "hw1_attention", "buggy/causal_mask_no_validation",
            "buggy/sdpa_unscaled_weights_times_mask"))),
        "untouched.ipynb": serialise(student),
        "otter_export.zip": _zip_bytes("hw1_attention.ipynb", full_nb),
        "broken_cells.ipynb": serialise(fill(
            student, {**full, "TinySelfAttn": SYNTAX_ERROR},
            extra=[(after_first_stub, SCRATCH_RAISES)])),
    }
