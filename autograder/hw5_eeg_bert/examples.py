"""Demo submissions of hw5_eeg_bert in examples/hw5_eeg_bert/,
made by `python -m autograder build` (or `python -m autograder.build.examples
hw5_eeg_bert`) from the built student notebook.

    full_solution.ipynb     the solution's answers                          25 / 25
    partial_mistakes.ipynb  patches sample-major, layer_norm with ddof=1,
                            a causal mask in the attention, the loss over
                            every row; the other answers correct           low
    untouched.ipynb         the notebook as handed out                       0
"""
from __future__ import annotations

from autograder.build.examples import answers_of, corpus_answers, fill, serialise


def variants(student, solution) -> dict[str, bytes]:
    full = answers_of(solution)
    return {
        "full_solution.ipynb": serialise(fill(student, full)),
        "partial_mistakes.ipynb": serialise(fill(student, {**full, **corpus_answers(
            "hw5_eeg_bert", "buggy/patchify_sample_major", "buggy/layer_norm_sample_variance",
            "buggy/attention_causal", "buggy/loss_all_rows")})),
        "untouched.ipynb": serialise(student),
    }
