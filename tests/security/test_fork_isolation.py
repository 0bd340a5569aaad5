"""Does forking every worker from one template leak state between submissions?

One batch, --jobs 1, so the same template forks the workers one after the
other: a probe notebook, then a notebook that patches torch and numpy and
changes torch's global settings, then the same probe again. Each probe prints
what it finds; the second probe must find exactly what the first found, and
both must get full marks.
"""
from __future__ import annotations

import inspect

import pytest

from autograder.engine import assignment as assignment_mod
from autograder.engine import batch
from tests.conftest import FAST_LIMITS, write_notebook

PATCH = '''
import random, builtins
import numpy as np
import torch
torch.set_num_threads(2)
torch.set_default_dtype(torch.float64)
torch.manual_seed(123)
np.random.seed(123)
random.seed(123)
torch.set_grad_enabled(False)
torch.use_deterministic_algorithms(True)
torch.set_printoptions(precision=1)
np.set_printoptions(precision=1)
torch.softmax = lambda x, dim=-1, **kw: torch.ones_like(x)
torch.nn.functional.softmax = lambda x, dim=-1, **kw: torch.ones_like(x)
torch.Tensor.softmax = lambda self, dim=-1, **kw: torch.ones_like(self)
np.allclose = lambda *a, **k: True
torch.allclose = lambda *a, **k: True
torch.leaked_marker = "from an earlier submission"
builtins.leaked_marker = "from an earlier submission"
'''

PROBE = '''
import random, builtins
import numpy as np
import torch
print("threads", torch.get_num_threads())
print("dtype", torch.get_default_dtype())
print("grad", torch.is_grad_enabled(), "deterministic",
      torch.are_deterministic_algorithms_enabled())
print("torch draws", torch.rand(3).tolist(), torch.randn(2, generator=None).tolist())
print("numpy draws", np.random.rand(3).tolist(), "random", random.random())
print("softmax", type(torch.softmax).__name__, torch.softmax(torch.tensor([0.0, 1.0]), 0).tolist(),
      torch.nn.functional.softmax(torch.tensor([0.0, 1.0]), dim=0).tolist(),
      torch.tensor([0.0, 1.0]).softmax(0).tolist())
print("allclose", np.allclose(0.0, 1.0), torch.allclose(torch.zeros(1), torch.ones(1)))
print("markers", hasattr(torch, "leaked_marker"), hasattr(builtins, "leaked_marker"))
print("printoptions", repr(np.array([1.23456])), repr(torch.tensor([1.23456])))
'''


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("isolation")
    subs = root / "subs"
    subs.mkdir()
    a = assignment_mod.load("hw1_attention")
    reference = inspect.getsource(a.reference)
    write_notebook(subs / "1_probe.ipynb", [reference, PROBE])
    write_notebook(subs / "2_patch.ipynb", [reference, PATCH])
    write_notebook(subs / "3_probe.ipynb", [reference, PROBE])
    result = batch.grade_folder("hw1_attention", subs, root / "out", jobs=1, progress=False,
                                limits=FAST_LIMITS)
    return a, {r.submission: r for r in result.results}


def test_patching_submission_ran(graded):
    """Did the patching notebook run without a cell error (so its patches took effect)?"""
    _, results = graded
    assert not [n for n in results["2_patch"].notes if "raised" in n], results["2_patch"].notes


def test_next_submission_sees_pristine_torch_and_numpy(graded):
    """Does the probe after the patching notebook print exactly what the probe before it did?"""
    _, results = graded
    before, after = results["1_probe"].notebook_output, results["3_probe"].notebook_output
    assert "threads" in before and "markers False False" in before, before
    assert "allclose False False" in before and "dtype torch.float32" in before, before
    assert "softmax builtin_function_or_method" in before, before
    assert after == before


def test_next_submission_keeps_full_marks(graded):
    """Are both probes (the reference solution) graded full marks, before and after?"""
    a, results = graded
    for name in ("1_probe", "3_probe"):
        assert results[name].score == a.max_total, [
            (t.name, t.output) for t in results[name].tests if t.status == "failed"]
