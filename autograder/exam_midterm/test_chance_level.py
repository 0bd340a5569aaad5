"""Loss and perplexity of a uniform guess over the student's vocabulary."""
from autograder.testing import fail, grading

QUESTION = "chance_level"
FORMATS = {"CHANCE_LOSS": 0, "CHANCE_PERPLEXITY": 1}  # numbers, at least this (the public check's)


def test_answer_format(student):
    """CHANCE_LOSS is a number >= 0 and CHANCE_PERPLEXITY a number >= 1"""
    for name, low in FORMATS.items():
        grading.short_answer(student, name, "number", low)


def _where(p) -> str:
    return f"vocab_size={p['vocab_size']}, n_special={p['n_special']}"


def test_loss(student, submission, ref):
    """CHANCE_LOSS is within the stated tolerance (0.00002 nats) for your numbers"""
    p = grading.numbers(submission, student, QUESTION, ref)
    got = grading.short_answer(student, "CHANCE_LOSS", "number")
    grading.answered(student, QUESTION, p, got, name="CHANCE_LOSS")
    expected = ref.chance_loss(p["vocab_size"], p["n_special"])
    if not abs(got - expected) <= ref.TOLERANCE["chance_loss"]:
        fail(f"CHANCE_LOSS = {got!r} is not the loss at chance for {_where(p)} "
             "(in nats, tolerance 0.00002)")


def test_perplexity(student, submission, ref):
    """CHANCE_PERPLEXITY is within the stated relative tolerance (0.00002) for your numbers"""
    p = grading.numbers(submission, student, QUESTION, ref)
    got = grading.short_answer(student, "CHANCE_PERPLEXITY", "number")
    grading.answered(student, QUESTION, p, got, name="CHANCE_PERPLEXITY")
    expected = ref.chance_perplexity(p["vocab_size"], p["n_special"])
    if not abs(got - expected) <= ref.TOLERANCE["chance_perplexity"] * expected:
        fail(f"CHANCE_PERPLEXITY = {got!r} is not the perplexity at chance for {_where(p)} "
             "(relative tolerance 0.00002)")
