"""Demo submissions of hw3_bert_pretraining in examples/hw3_bert_pretraining/,
made by `python -m autograder build` (or `python -m autograder.build.examples
hw3_bert_pretraining`) from the built student notebook.

    full_solution.ipynb     the solution's answers                          25 / 25
    loop_solution.ipynb     correct answers written differently: a loop over
                            the tokens with its own draw order, the loss by
                            hand with logsumexp, the pair built by appends   25 / 25
    partial_mistakes.ipynb  mask_tokens with an `elif` that never reaches the
                            random branch, mlm_loss that returns nan when no
                            token is selected, nsp_pair with the first [SEP]
                            in segment B                                     low
    untouched.ipynb         the notebook as handed out                        0
"""
from __future__ import annotations

from autograder.build.examples import answers_of, corpus_answers, fill, serialise


def variants(student, solution) -> dict[str, bytes]:
    full = answers_of(solution)
    return {
        "full_solution.ipynb": serialise(fill(student, full)),
        "loop_solution.ipynb": serialise(fill(student, {**full, **corpus_answers(
            "hw3_bert_pretraining", "correct/loops_segment_by_segment")})),
        "partial_mistakes.ipynb": serialise(fill(student, {**full, **corpus_answers(
            "hw3_bert_pretraining", "buggy/mt_elif_never_random",
            "buggy/mlm_nan_when_nothing_selected", "buggy/nsp_first_sep_in_segment_b")})),
        "untouched.ipynb": serialise(student),
    }
