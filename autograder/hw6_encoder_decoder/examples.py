"""Demo submissions of hw6_encoder_decoder in examples/hw6_encoder_decoder/,
made by `python -m autograder build` (or `python -m autograder.build.examples
hw6_encoder_decoder`) from the built student notebook.

    full_solution.ipynb     the solution's answers                          24.5 / 24.5
    partial_mistakes.ipynb  U(0, 1) weights as in the old notebook, keys and
                            values from the decoder in cross-attention, eos
                            dropped by greedy_decode, temperature multiplied
                            in; the other answers correct                    low
    untouched.ipynb         the notebook as handed out                       0
"""
from __future__ import annotations

from autograder.build.examples import answers_of, corpus_answers, fill, serialise


def variants(student, solution) -> dict[str, bytes]:
    full = answers_of(solution)
    return {
        "full_solution.ipynb": serialise(fill(student, full)),
        "partial_mistakes.ipynb": serialise(fill(student, {**full, **corpus_answers(
            "hw6_encoder_decoder", "buggy/xavier_u01_like_the_old_notebook",
            "buggy/ca_keys_from_decoder", "buggy/gd_drops_eos",
            "buggy/sn_multiplies_by_temperature")})),
        "untouched.ipynb": serialise(student),
    }
