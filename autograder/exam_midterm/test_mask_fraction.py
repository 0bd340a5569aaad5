"""Expected fraction of input positions that show [MASK] for the student's rates."""
from autograder.testing import fail, grading

QUESTION = "mask_fraction"
NAME = "MASK_FRACTION"
FORMAT = ("number", 0, 1)  # as the notebook's public check has it


def test_answer_format(student):
    """MASK_FRACTION is a number between 0 and 1"""
    grading.short_answer(student, NAME, *FORMAT)


def test_fraction(student, submission, ref):
    """MASK_FRACTION is within the stated tolerance (0.0001) for your numbers"""
    p = grading.numbers(submission, student, QUESTION, ref)
    got = grading.short_answer(student, NAME, "number")
    grading.answered(student, QUESTION, p, got)
    expected = ref.mask_fraction(**{k: v for k, v in p.items() if k != "variant"})
    if not abs(got - expected) <= ref.TOLERANCE[QUESTION]:
        fail(f"{NAME} = {got!r} is not the expected fraction of [MASK] inputs for seq_len="
             f"{p['seq_len']}, n_special={p['n_special']}, select_prob={p['select_prob']}, "
             f"mask_prob={p['mask_prob']}, random_prob={p['random_prob']} "
             "(tolerance 0.0001)")
