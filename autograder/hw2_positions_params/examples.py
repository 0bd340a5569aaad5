"""Demo submissions of hw2_positions_params in examples/hw2_positions_params/,
made by `python -m autograder build` (or `python -m autograder.build.examples
hw2_positions_params`) from the built student notebook. Out of 26 points:

    full_solution.ipynb     the solution's answers                          26
    partial_mistakes.ipynb  [sin..., cos...] halves layout, parameters
                            summed from the state dict, the source notes'
                            "8 d^2" per encoder layer, decoder untouched    low
    typical_slips.ipynb     float32 position table, trainable_only ignored,
                            encoder without its LayerNorms, decoder without
                            its third LayerNorm: each loses a little          mid
    untouched.ipynb         the notebook as handed out                        0
"""
from __future__ import annotations

from autograder.build.examples import answers_of, corpus_answers, fill, serialise


def variants(student, solution) -> dict[str, bytes]:
    return {
        "full_solution.ipynb": serialise(fill(student, answers_of(solution))),
        "partial_mistakes.ipynb": serialise(fill(student, corpus_answers(
            "hw2_positions_params", "buggy/pe_halves_layout", "buggy/count_state_dict",
            "buggy/enc_seed_notes_8d2"))),
        "typical_slips.ipynb": serialise(fill(student, corpus_answers(
            "hw2_positions_params", "buggy/pe_float32_torch",
            "buggy/count_ignores_trainable_only", "buggy/enc_no_norms", "buggy/dec_two_norms"))),
        "untouched.ipynb": serialise(student),
    }
