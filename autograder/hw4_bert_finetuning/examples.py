"""Demo submissions of hw4_bert_finetuning in examples/hw4_bert_finetuning/,
made by `python -m autograder build` (or `python -m autograder.build.examples
hw4_bert_finetuning`) from the built student notebook.

    full_solution.ipynb     the solution's answers                          16 / 16
    partial_mistakes.ipynb  post-norm encoder layers and a loop that records
                            the loss after the step, from a second forward
                            pass; everything else correct                   6 / 16
    loop_only_mistake.ipynb the model right, the loop with a hard-coded
                            learning rate: only train_classifier loses      13 / 16
    untouched.ipynb         the notebook as handed out                       0
"""
from __future__ import annotations

from autograder.build.examples import answers_of, corpus_answers, fill, serialise


def variants(student, solution) -> dict[str, bytes]:
    full = answers_of(solution)
    return {
        "full_solution.ipynb": serialise(fill(student, full)),
        "partial_mistakes.ipynb": serialise(fill(student, {**full, **corpus_answers(
            "hw4_bert_finetuning", "buggy/post_norm", "buggy/loss_after_step")})),
        "loop_only_mistake.ipynb": serialise(fill(student, {**full, **corpus_answers(
            "hw4_bert_finetuning", "buggy/hard_coded_lr")})),
        "untouched.ipynb": serialise(student),
    }
