"""Can a reference the grader lends be made to answer an input the student chose,
or to do unbounded work?

Hidden tests lend known-good pieces to the student's code (engine/isolation/callbacks.py):
hw1's attention inside TinySelfAttn, hw2's encoder count inside the decoder
count, hw4's reference model to train_classifier. The student's code can call
them with anything, such as inputs kept from another question's hidden tests,
whose answers would be that question's expected values. Each lent reference
answers only what its test made; its work is counted from the shapes before any
is done. hw1's replay is also an attack of the corpus, graded in every sandbox
mode (tests/security/attacks/hw1_attention/replay_lent_attention.py).
"""
from __future__ import annotations

import inspect
import re

import pytest
import torch

from autograder import registry
from autograder.engine import assignment as assignment_mod
from autograder.hw1_attention import reference as hw1
from autograder.hw1_attention import lent_attention
from autograder.hw1_attention.lent_attention import LentAttention

MARK = "ANSWERED-UNASKED"
REPLAYS = {
    # the decoder count asks the lent encoder count about widths of its own choosing
    "hw2_positions_params": f'''
_own_decoder = decoder_layer_param_count
def decoder_layer_param_count(d, d_ff=None):
    lent = globals()["encoder_layer_param_count"]
    try:
        answer = lent(d + 7, 9)
    except Exception:  # refused
        answer = None
    if answer is not None:
        raise ValueError("{MARK} " + str(answer))
    return _own_decoder(d, d_ff)
''',
    # every state and every ids TinyBertForClassification's hidden tests give the
    # model are kept, then asked of the model lent to train_classifier
    "hw4_bert_finetuning": f'''
import torch
STATES, IDS = [], []
_Model = TinyBertForClassification
class TinyBertForClassification(_Model):
    def load_state_dict(self, state, *args, **kwargs):
        STATES.append(state)
        return super().load_state_dict(state, *args, **kwargs)
    def forward(self, ids):
        IDS.append(ids.clone())
        return super().forward(ids)
_own_train = train_classifier
def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    params = list(model.parameters())
    before = [p.detach().clone() for p in params]
    answered = []
    for state in STATES:
        values = list(state.values())
        if [v.shape for v in values] != [p.shape for p in params]:
            continue
        with torch.no_grad():
            for p, v in zip(params, values):
                p.copy_(v)
        for x in IDS:
            if x.shape == ids.shape and torch.equal(x, ids):
                continue  # the test's own ids: the model answers them
            try:
                answered.append(model(x))
            except Exception:  # refused
                pass
    with torch.no_grad():
        for p, v in zip(params, before):
            p.copy_(v)
    if answered:
        raise ValueError("{MARK} " + str(answered[0].reshape(-1)[:8].tolist()))
    return _own_train(model, ids, labels, epochs, lr)
''',
}
"""Per assignment that lends (hw1's replay is in the attack corpus): a notebook,
after the reference, whose code asks the lent reference what no test made and
raises MARK with whatever it answers."""


def test_every_assignment_that_lends_has_a_replay():
    """A hidden test that lends (student.callback, student.lend, lend_module) has a
    replay here."""
    lending = {a.id for a in registry.all_assignments()
               if any(re.search(r"\.callback\(|\.lend\(|lend_module\(", p.read_text())
                      for p in a.test_files())}
    assert "hw1_attention" in lending and set(REPLAYS) | {"hw1_attention"} == lending


@pytest.mark.parametrize("assignment_id", sorted(REPLAYS))
def test_a_lent_reference_answers_only_what_its_test_made(grade_notebooks, assignment_id):
    a = assignment_mod.load(assignment_id)
    result = grade_notebooks(assignment_id, {"replay": [inspect.getsource(a.reference),
                                                        REPLAYS[assignment_id]]})["replay"]
    answered = [f"{t.question}::{t.name}: {t.output[:200]}" for t in result.tests
                if MARK in t.output]
    assert not answered
    assert result.score == a.max_total, [t.output for t in result.tests if t.score == 0]


H = 8


def _declared():
    """A LentAttention allowed one input and weights: (lent, their q, k, v, the weights)."""
    g = torch.Generator().manual_seed(0)
    x, weight = torch.randn(2, 5, H, generator=g), torch.randn(3 * H, H, generator=g)
    lent = LentAttention(hw1.scaled_dot_product_attention)
    lent.allow(x, {"qkv.weight": weight})
    q, k, v = (x @ weight.T).chunk(3, dim=-1)
    return lent, q, k, v, weight


def _split(t, heads):
    B, T, h = t.shape
    return t.view(B, T, heads, h // heads).transpose(1, 2)  # (B, heads, T, h / heads)


def test_the_test_s_own_heads_are_answered_however_they_are_split():
    lent, q, k, v, _ = _declared()
    heads = _split(q, 2), _split(k, 2), _split(v, 2)
    out, w = lent(*heads, hw1.causal_mask(5))
    assert torch.allclose(w, hw1.scaled_dot_product_attention(*heads, hw1.causal_mask(5))[1])
    lent(q[..., :4], k[..., :4], v[..., :4])  # one head at a time
    lent(*(t[..., 1::2] for t in (q, k, v)))  # heads interleaved (a mistake, still answered)
    lent(*(t.double() for t in heads))  # computed in float64


@pytest.mark.parametrize("scale, answered", [(0.9, True), (1.1, False)])
def test_rows_are_answered_up_to_the_tolerance_and_no_further(scale, answered):
    """Each entry moved up by `scale` times the tolerance (ATOL + RTOL x |entry|): the
    rows' sums move as far as they can, and a lookup by sum must still find (or not)
    the row they came from."""
    lent, q, k, v, _ = _declared()
    heads = [_split(t, 2).double() for t in (q, k, v)]
    moved = heads[0] + scale * (lent_attention.ATOL + lent_attention.RTOL * heads[0].abs())
    if answered:
        lent(moved, *heads[1:])
    else:
        with pytest.raises(ValueError, match="answers only q, k and v made of this test"):
            lent(moved, *heads[1:])


@pytest.mark.parametrize("what", ["hidden input", "another input", "perturbed", "mixed"])
def test_inputs_the_test_did_not_make_are_refused(what):
    lent, q, k, v, weight = _declared()
    heads = [_split(t, 2) for t in (q, k, v)]
    g = torch.Generator().manual_seed(1)
    if what == "hidden input":  # as kept from scaled_dot_product_attention's tests
        args = [torch.randn(4, 4, generator=g) for _ in range(3)]
    elif what == "another input":  # the test's weights on an input of the student's
        args = [_split(t, 2) for t in (torch.randn(2, 5, H, generator=g) @ weight.T).chunk(3, -1)]
    elif what == "perturbed":
        args = [heads[0] + 1e-3, heads[1], heads[2]]
    else:  # a row of its own among the test's
        q2 = heads[0].clone()
        q2[0, 0, 0] = torch.randn(4, generator=g)
        args = [q2, heads[1], heads[2]]
    with pytest.raises(ValueError, match="answers only q, k and v made of this test"):
        lent(*args)


def test_a_kept_verdict_answers_only_the_same_rows_under_the_same_declared_input(monkeypatch):
    """Verdicts are kept for the batch (a correct module sends the same rows in every
    submission), keyed by the declared projections and the rows: a verdict kept under
    one input never answers another's, and the kept ones stay within KEPT_BYTES."""
    lent, q, k, v, weight = _declared()
    heads = [_split(t, 2) for t in (q, k, v)]
    lent(*heads)  # checked, and kept
    checked = []
    real_check = LentAttention._check
    monkeypatch.setattr(LentAttention, "_check",
                        lambda self, *a: checked.append(a) or real_check(self, *a))
    again, *_ = _declared()  # the next submission: the same input and rows
    again(*heads)
    assert checked == []  # answered from the kept verdict
    g = torch.Generator().manual_seed(7)
    other = LentAttention(hw1.scaled_dot_product_attention)
    other.allow(torch.randn(2, 5, H, generator=g), {"qkv.weight": weight})
    with pytest.raises(ValueError, match="answers only q, k and v made of this test"):
        other(*heads)  # the rows allowed above, not under this input
    assert checked  # checked afresh, not answered from the verdict kept above
    monkeypatch.setattr(lent_attention._KEPT, "bound", 4096)
    for n in range(20):  # twenty more verdicts, each its own
        with pytest.raises(ValueError, match="answers only"):
            lent(heads[0] + n + 1, *heads[1:])
    assert 0 < lent_attention._KEPT.size <= 4096


def test_nothing_is_answered_before_the_test_declares_its_input():
    _, q, k, v, _ = _declared()
    fresh = LentAttention(hw1.scaled_dot_product_attention)
    with pytest.raises(ValueError, match="answers only"):
        fresh(q, k, v)
    fresh.allow(torch.ones(1, 5, 8), {"qkv.weight": torch.ones(8, 8)})  # not (3h, h): nothing
    with pytest.raises(ValueError, match="answers only"):
        fresh(q, k, v)


@pytest.mark.parametrize("shapes", [
    ((1, 1, 10**4, 1), (10**4, 1, 1, 1), (10**4, 1, 1, 1), None),  # the 80 KB
    ((1, 1, 1 << 16, 1), (1 << 16, 1, 1, 1), (1 << 16, 1, 1, 1), None),  # 768 KB: 2^32 scores
    ((1, 1, 300, 1), (1, 1, 300, 1), (1, 1, 300, 1), (1000, 1, 1, 1)),  # through the mask
    ((1, 1, 4, 2), (1, 1, 4, 2), (50_000, 1, 4, 1), None),  # through v
])
def test_work_is_counted_from_the_shapes_before_any_is_done(shapes):
    """Broadcasting included: q (1, 1, 10^4, 1) with k (10^4, 1, 1, 1) once took the
    grader to 1.8 GB; the attention is never called for it."""
    called = []
    lent = LentAttention(lambda *args: called.append(args))
    lent.allow(torch.ones(1, 3, 3), {"qkv.weight": torch.ones(9, 3)})
    q, k, v, mask = (None if s is None else torch.ones(s) for s in shapes)
    with pytest.raises(ValueError, match="broadcast to more than"):
        lent(q, k, v, mask)
    assert called == []


def test_rows_beyond_what_a_forward_sends_are_refused_before_comparing():
    """2^15 rows of q within the scores' bound would be 2^15 x 120 allowed rows x 4
    entries compared: refused from the shapes, like the scores."""
    lent, *_ = _declared()
    few = torch.ones(1, 2, 4)
    assert 2 * (1 << 15) <= lent_attention.MAX_SCORES
    with pytest.raises(ValueError, match="more rows than"):
        lent(torch.ones(1, 1 << 15, 4), few, torch.ones(1, 2, 1))
