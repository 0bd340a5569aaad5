"""Is the notebook the submitter's own? (STUDENT_ID against the grader's identity)"""
from autograder.testing import fail, grading

QUESTION = "identity"


def test_student_id_matches_submitter(student, submission):
    """STUDENT_ID is the identity of whoever submitted this notebook"""
    who = grading.resolution(submission, student)
    if who.flagged:
        if who.message() not in submission.notes:
            submission.notes.insert(0, who.message())
        fail(who.message())
