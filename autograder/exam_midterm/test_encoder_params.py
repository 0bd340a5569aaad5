"""Parameter count of nn.TransformerEncoderLayer at the student's sizes."""
from autograder.testing import fail, grading

QUESTION = "encoder_params"
NAME = "ENCODER_LAYER_PARAMS"


def test_answer_format(student):
    """ENCODER_LAYER_PARAMS is a positive whole number (a numpy integer too)"""
    grading.short_answer(student, NAME, "count", 1)


def test_parameter_count(student, submission, ref):
    """ENCODER_LAYER_PARAMS is the exact parameter count for your numbers"""
    p = grading.numbers(submission, student, QUESTION, ref)
    got = grading.short_answer(student, NAME, "count")
    grading.answered(student, QUESTION, p, got)
    if got != ref.encoder_params(p["d_model"], p["heads"], p["d_ff"]):
        fail(f"{NAME} = {got} is not the parameter count of a TransformerEncoderLayer with "
             f"d_model={p['d_model']}, nhead={p['heads']}, dim_feedforward={p['d_ff']} "
             "(an exact count is expected)")
