"""Shape of the cross-attention weights for the student's batch, heads and lengths."""
from autograder.testing import fail, grading

QUESTION = "cross_attention_shape"
NAME = "CROSS_ATTENTION_SHAPE"


def test_answer_format(student):
    """CROSS_ATTENTION_SHAPE is a tuple of positive ints (a torch.Size or a list too)"""
    grading.short_answer(student, NAME, "shape")


def test_shape(student, submission, ref):
    """CROSS_ATTENTION_SHAPE is the shape of the weights for your numbers"""
    p = grading.numbers(submission, student, QUESTION, ref)
    got = grading.short_answer(student, NAME, "shape")
    grading.answered(student, QUESTION, p, got)
    if got != ref.cross_attention_shape(**{k: v for k, v in p.items() if k != "variant"}):
        fail(f"{NAME} = {got} is not the shape of the cross-attention weights for batch="
             f"{p['batch']}, heads={p['heads']}, n_src={p['n_src']}, n_tgt={p['n_tgt']}")
