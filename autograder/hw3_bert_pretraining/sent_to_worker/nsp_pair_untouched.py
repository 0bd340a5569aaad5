"""Sent by test_nsp_pair.py: does nsp_pair leave its input lists alone? Runs in the
worker, around the student's function."""


def run(f, a, b, cls_id, sep_id):
    before = (list(a), list(b))
    out = f(a, b, cls_id, sep_id)
    answered = isinstance(out, tuple) and len(out) == 2
    return answered, (list(a), list(b)) == before
