"""The assumption variants of `audit` (autograder/audit/assumptions.py): which are
made, and what each may lose. Graded on every assignment by
tests/audit/test_every_assignment.py; on a planted cascade by
tests/build/test_scaffold.py."""
from __future__ import annotations

import ast

import pytest

from autograder.audit import assumptions

REFERENCE = '''
import torch


def loss(logits, labels):
    return logits.sum()


class Model(torch.nn.Module):
    def forward(self, x):
        return x


def helper(x):
    return x
'''


def test_every_kind_for_every_stub_and_rank_only_where_the_lesson_says():
    made = assumptions.variants(REFERENCE, ["loss", "Model", "absent"], {"loss": [3, 2]})
    assert [a.id for a in made] == [
        "loss:assumes:rank", "loss:assumes:size-one", "loss:assumes:empty", "loss:assumes:shape",
        "Model:assumes:size-one", "Model:assumes:empty", "Model:assumes:shape"]
    for a in made:
        ast.parse(a.cell)  # a cell Python runs after the reference's
        assert f"_reference_{a.stub} = {a.stub}" in a.cell


def _run(cell, name, *args, **kwargs):
    """`name` called as a notebook defines it: the reference's cell, then `cell`."""
    namespace = {}
    exec(compile("def loss(logits, labels):\n    return logits\n", "ref", "exec"), namespace)
    exec(compile(cell, "cell", "exec"), namespace)
    return namespace[name](*args, **kwargs)


def test_each_wrapper_raises_or_reshapes_only_where_its_assumption_fails():
    import numpy as np
    cells = {a.kind: a.cell for a in assumptions.variants(
        "def loss(logits, labels):\n    return logits\n", ["loss"], {"loss": [3, "any"]})}
    ok, labels = np.zeros((2, 3, 4)), [1, 2]
    for kind in ("rank", "size-one", "empty"):
        assert _run(cells[kind], "loss", ok, labels) is not None
    with pytest.raises(RuntimeError, match="rank 3"):
        _run(cells["rank"], "loss", np.zeros((6, 4)), labels)
    with pytest.raises(RuntimeError, match="size 1"):
        _run(cells["size-one"], "loss", np.zeros((1, 3, 4)), labels)
    with pytest.raises(RuntimeError, match="size 1"):
        _run(cells["size-one"], "loss", ok, [7])  # a list of one item
    assert _run(cells["size-one"], "loss", ok, "x") is not None  # a string is no sequence
    with pytest.raises(RuntimeError, match="size 0"):
        _run(cells["empty"], "loss", np.zeros((2, 0, 4)), labels)
    assert _run(cells["shape"], "loss", ok, labels).shape == (1, 2, 3, 4)


def test_what_a_variant_may_lose():
    """One test of its own question (the one it lost most on) for rank and the edges;
    for a shape, anything of its question but a test of refusing bad input; another
    question's points never."""
    lost = {"f.test_values": 2.0, "f.test_rank": 1.0, "f.test_rejects": 1.0, "g.test_x": 0.5}
    edge = assumptions.Assumption("f", "size-one", "")
    assert assumptions.beyond(edge, lost, {"f.test_rejects"}) == {
        "f.test_rank": 1.0, "f.test_rejects": 1.0, "g.test_x": 0.5}
    assert assumptions.beyond(edge, {"f.test_rank": 1.0}, set()) == {}
    shape = assumptions.Assumption("f", "shape", "")
    assert assumptions.beyond(shape, lost, {"f.test_rejects"}) == {
        "f.test_rejects": 1.0, "g.test_x": 0.5}
    assert assumptions.beyond(shape, {}, {"f.test_rejects"}) == {}


def test_refusing_tests_are_those_that_call_expect_raises():
    source = '''
def test_values(student):
    expect_close(student.f(1), 2, "f(1)")


def test_rejects(student):
    with expect_raises(ValueError, "f(-1)"):
        student.f(-1)


def _helper():
    expect_raises(ValueError, "x")
'''
    assert assumptions.refusing_tests({"f": source}) == {"f.test_rejects"}
