"""Demo exam submissions in examples/exam_midterm/, made by
`python -m autograder build` (or `python -m autograder.build.examples
exam_midterm`) from the built student notebook and the master's solutions.
Out of 21 points:

    s1001.ipynb     full marks: right answers for s1001, both free responses  21
    s1002.ipynb     typical mistakes: the 12 d^2 rule, [CLS]/[SEP] selected
                    too, source and target swapped, a boolean padding mask;
                    one free response left blank                             10.5
    s1003.ipynb     s1001's notebook handed in by s1003 (STUDENT_ID still
                    s1001): flagged, graded with s1003's numbers              12.5
    s1004.ipynb     the notebook as handed out                                0
    123456/         a submission folder of a Gradescope export: the export's
                    submission_metadata.yml names the user (sid s1005, e-mail
                    grace@example.edu), the notebook says
                    STUDENT_ID = "Grace@Example.edu"                          21

EXPECTED holds each submission's total (tests/exam/test_grading.py checks it).
"""
from __future__ import annotations

import copy
import re

from autograder.build.examples import corpus_cell
from autograder.build.transforms import StableCellIds, serialise

ASSIGNED = re.compile(r"^(?:def |class )?([A-Za-z_]\w*)")
PLACEHOLDER = "_Type your answer here, replacing this text._"

FREE_RESPONSES = [
    "Next-token prediction asks position i for token i+1, so if position i could attend "
    "to i+1 it would copy the answer: the decoder must hide the future. In masked-LM the "
    "target is the original token at a corrupted position, which the input no longer "
    "shows, so both sides may be used. Only the selected positions give a training signal "
    "(select_prob of the ordinary positions). With [MASK] everywhere, the model would only "
    "learn to predict at [MASK] inputs, which never occur when fine-tuning.",
    "Attention: 4 d^2 + 4 d; feed-forward: 2 d d_ff + d_ff + d; the rest is LayerNorms. "
    "12 d^2 assumes d_ff = 4 d and no biases; my d_ff is 3 d, so the rule is off by "
    "about 2 d^2.",
]

S1002_MISTAKES = {  # answer name -> its corpus variant (the mistake, in s1002's notebook)
    "ENCODER_LAYER_PARAMS": "buggy/encoder_params_12_d_squared",
    "MASK_FRACTION": "buggy/mask_fraction_specials_selected",
    "CROSS_ATTENTION_SHAPE": "buggy/cross_attention_shape_source_first",
    "key_padding_mask": "buggy/key_padding_mask_boolean",
}


def s1002_answers() -> dict[str, str]:
    """{answer name: cell} of s1002's mistakes, from the corpus; a short answer's
    cell ends without a newline, as the student notebook's answer cells do."""
    cells = {name: corpus_cell("exam_midterm", variant) for name, variant in S1002_MISTAKES.items()}
    return {name: cell.rstrip("\n") if name.isupper() else cell for name, cell in cells.items()}


def answer_name(cell) -> str | None:
    """The answer variable or function a code answer cell defines."""
    if cell.cell_type != "code" or "otter_answer_cell" not in cell.metadata.get("tags", []):
        return None
    lines = [ln for ln in cell.source.splitlines() if ln.strip() and not ln.startswith("#")]
    names = [ASSIGNED.match(ln).group(1) for ln in lines if ASSIGNED.match(ln)]
    for name in names:
        if name.isupper() or name in ("key_padding_mask", "perplexity"):
            return name
    return None


def solution_answers(solution) -> dict[str, str]:
    """{answer name: the solution's cell source} (the last cell naming it)."""
    out = {}
    for cell in solution.cells:
        if cell.cell_type != "code":
            continue
        for name in ("STUDENT_ID", "ENCODER_LAYER_PARAMS", "CROSS_ATTENTION_SHAPE",
                     "MASK_FRACTION", "CHANCE_LOSS", "key_padding_mask", "perplexity"):
            if re.search(rf"^(def )?{name}\b", cell.source, re.M):
                out[name] = cell.source
    return out


def fill(student, answers: dict[str, str], student_id: str | None, responses: list[str | None]):
    nb = copy.deepcopy(student)
    free = iter(responses)
    for cell in nb.cells:
        name = answer_name(cell)
        if name == "STUDENT_ID" and student_id is not None:
            cell.source = f"STUDENT_ID = {student_id!r}"
        elif name == "CHANCE_LOSS" and "CHANCE_LOSS" in answers:
            cell.source = answers["CHANCE_LOSS"]
        elif name in answers:
            cell.source = answers[name]
        elif cell.cell_type == "markdown" and cell.source.strip() == PLACEHOLDER:
            text = next(free, None)
            if text:
                cell.source = text
    return StableCellIds()(nb)


EXPECTED = {"s1001": 21.0, "s1002": 10.5, "s1003": 12.5, "s1004": 0.0, "123456": 21.0}
"""Total of each demo submission (by submission id)."""


EXPORT_METADATA = """\
'123456':
  :submitters:
  - :name: Grace H
    :sid: s1005
    :email: grace@example.edu
  :created_at: 2026-03-02 10:05:00.000000000 -08:00
"""
"""The export's submission_metadata.yml: who submitted the folder 123456 (the
other demo submissions are files, known by their names)."""


def variants(student, solution) -> dict[str, bytes]:
    right = solution_answers(solution)
    return {
        "s1001.ipynb": serialise(fill(student, right, "s1001", FREE_RESPONSES)),
        "s1002.ipynb": serialise(fill(student, {**right, **s1002_answers()}, "s1002",
                                      [FREE_RESPONSES[0], None])),
        "s1003.ipynb": serialise(fill(student, right, "s1001", FREE_RESPONSES)),
        "s1004.ipynb": serialise(student),
        "123456/exam_midterm.ipynb": serialise(fill(student, right, "Grace@Example.edu",
                                                    FREE_RESPONSES)),
        "submission_metadata.yml": EXPORT_METADATA.encode(),
    }
