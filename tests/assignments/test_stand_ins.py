"""Do tests judged on the student's own answers pay for doing nothing?

A test whose subject is compared with the student's own answers (ignored
positions, stopping after eos, rng use) must not pay a stand-in that returns
a constant, its input, nan or nothing at all, or one that skips the stub's
work (an attention that never compares queries with keys): such an answer
earns only the tests declared about its format (type and shape, @format_test),
which it gets right. Hand-written stand-ins for every stub of hw1, hw3, hw5 and
hw6, and plausible ones (they change with their inputs, or answer nan) for some
stubs of every assignment, graded through the real engine. (The generic ones,
None, raising, the input, zeros and ones, are build's: autograder/build/stand_ins.py.)
"""
from __future__ import annotations

import inspect

import pytest

from autograder.build import stand_ins
from autograder.checks import is_format_test
from autograder.engine import assignment as assignment_mod

# Heavy (grades the stand-ins of every stub): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy

STAND_INS = {
    "hw1_attention": '''
import math
import torch
from torch import nn
def causal_mask(n):
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError("n")
    return torch.zeros(n, n)
def scaled_dot_product_attention(q, k, v, mask=None):
    # never compares q with k: every query gets the same scores, from the keys alone
    scores = k.sum(-1).unsqueeze(-2).expand(*k.shape[:-2], q.shape[-2], k.shape[-2])
    scores = scores / math.sqrt(q.shape[-1]) + (0 if mask is None else mask)
    w = torch.softmax(scores, dim=-1)
    return w @ v, w
class TinySelfAttn(nn.Module):  # nan without a mask, zeros with one
    def __init__(self, h, heads):
        super().__init__()
        if h % heads:
            raise ValueError("h must be divisible by heads")
        self.qkv = nn.Linear(h, 3 * h, bias=False)
        self.out = nn.Linear(h, h)
    def forward(self, x, mask=None):
        return torch.full_like(x, float("nan")) if mask is None else torch.zeros_like(x)
''',
    "hw3_bert_pretraining": '''
import numpy as np
import torch
def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng, select_prob=0.15,
                mask_prob=0.8, random_prob=0.1):
    ids = np.array(input_ids, dtype=np.int64)
    return ids.copy(), np.full(ids.shape, -100, dtype=np.int64)
def mlm_loss(logits, labels):
    return torch.zeros(())
def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    return [cls_id, sep_id, sep_id], [0, 0, 1]
''',
    "hw5_eeg_bert": '''
import numpy as np
def patchify(signal, patch_len):
    C, N = np.shape(signal)
    if not isinstance(patch_len, int) or patch_len < 1 or N % patch_len:
        raise ValueError("patch_len")
    return np.zeros((N // patch_len, C * patch_len))
def layer_norm(x, eps=1e-5):
    return np.zeros(np.shape(x))
def mask_patches(z, positions, mask_vector):
    return np.array(z, dtype=np.float64)
def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    T, d = np.shape(x)
    return np.zeros((T, d)), np.full((heads, T, T), 1.0 / T)
def masked_reconstruction_loss(recon, target, masked):
    if len(masked) == 0:
        raise ValueError("empty")
    return 0.0
def cls_probability(h_cls, w, b):
    return 0.5
''',
    "hw6_encoder_decoder": '''
import numpy as np
def xavier_uniform(fan_in, fan_out, rng):
    return np.zeros((fan_in, fan_out))
def teacher_forcing(continuation, sos_id, eos_id):
    return [sos_id], [eos_id]
def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    return np.zeros(np.shape(y)), np.full((heads, len(y), len(h)), 1.0 / len(h))
def greedy_decode(step, sos_id, eos_id, max_len):
    return [sos_id]
def sample_next(logits, temperature, rng, top_k=None):
    if temperature <= 0 or (top_k is not None and top_k < 1):
        raise ValueError("bad arguments")
    return 0
def sequence_cross_entropy(logits, labels):
    return float(np.log(np.shape(logits)[1]))
''',
}


PARTIAL_STAND_INS = {
    ("hw1_attention", "uniform"): '''
import torch
def scaled_dot_product_attention(q, k, v, mask=None):
    # the average of the visible values, the weights nudged by a hair that moves with q
    # and k (the means of each): no query is ever compared with a key
    hair = 1e-4 * (q.mean(-1).unsqueeze(-1) - k.mean(-1).unsqueeze(-2)) ** 2
    w = torch.softmax(hair if mask is None else hair + mask, dim=-1)
    return w @ v, w
''',
    ("hw5_eeg_bert", "plausible"): '''
import numpy as np
def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    # every query gets the same weights, from the keys alone: no query is compared
    T, d = np.shape(x)
    k, v = (x @ Wk).reshape(T, heads, -1), (x @ Wv).reshape(T, heads, -1)
    s = np.broadcast_to(k.sum(-1).T[:, None, :], (heads, T, T))
    w = np.exp(s - s.max(-1, keepdims=True))
    w = w / w.sum(-1, keepdims=True)
    out = np.einsum("hqk,khd->qhd", w, v).reshape(T, d)
    return out @ Wo, w
def layer_norm(x, eps=1e-5):
    return x - np.mean(x, axis=-1, keepdims=True)  # centred, never scaled
def mask_patches(z, positions, mask_vector):
    return np.array(z, dtype=np.float64) + 1.0  # every row changed
def masked_reconstruction_loss(recon, target, masked):
    if len(masked) == 0:
        raise ValueError("empty")
    return float("nan")
''',
    ("hw6_encoder_decoder", "plausible"): '''
import numpy as np
def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    # every decoder position gets the same weights, from the keys alone; out reads y only
    k = (h @ Wk).reshape(len(h), heads, -1)
    s = np.broadcast_to(k.sum(-1).T[:, None, :], (heads, len(y), len(h)))
    w = np.exp(s - s.max(-1, keepdims=True))
    return y @ Wv @ Wo, w / w.sum(-1, keepdims=True)
def sequence_cross_entropy(logits, labels):
    logits = np.asarray(logits, dtype=np.float64)  # stable, but never reads the labels
    top = logits.max(-1, keepdims=True)
    return float(np.mean(top[:, 0] + np.log(np.exp(logits - top).sum(-1))))
''',
    ("hw3_bert_pretraining", "plausible"): '''
import torch
def mlm_loss(logits, labels):
    # the selected positions' log-sum-exp: stable, differentiable, never reads the ids
    keep = labels.reshape(-1) != -100
    rows = logits.reshape(-1, logits.shape[-1])[keep]
    return torch.logsumexp(rows, -1).mean() if len(rows) else logits.sum() * 0.0
''',
    ("hw2_positions_params", "plausible"): '''
import numpy as np
def sinusoidal_pe(n_pos, d):
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (n_pos, d)) \\
            or d < 1 or d % 2 or n_pos < 0:
        raise ValueError("n_pos and d")
    return np.zeros((n_pos, d))
def encoder_layer_param_count(d, d_ff=None):
    return 12 * d + (4 * d if d_ff is None else d_ff)  # grows with d, but no matrix
def decoder_layer_param_count(d, d_ff=None):
    return 16 * d + (4 * d if d_ff is None else d_ff)
''',
    ("hw4_bert_finetuning", "nan"): '''
import torch
_Built = TinyBertForClassification
class TinyBertForClassification(_Built):  # the reference's layers, logits of nan
    def forward(self, ids):
        return torch.full((ids.shape[0], self.head.out_features), float("nan"))
def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    with torch.no_grad():  # "trains" the model into nan
        for p in model.parameters():
            p.fill_(float("nan"))
    return [0.7] * epochs
''',
    ("exam_midterm", "constant"): '''
import numpy as np
def key_padding_mask(lengths, n_src):
    lengths = [int(n) for n in lengths]
    if any(not 1 <= n <= n_src for n in lengths):
        raise ValueError("lengths")
    return np.zeros((len(lengths), n_src))  # hides nothing
def perplexity(logits, labels, ignore_index=-100):
    if np.all(np.asarray(labels) == ignore_index):
        raise ValueError("nothing to score")
    return 1.0  # a perplexity, of nothing
''',
}
"""Stand-ins for some stubs that look like work (they change with their inputs):
graded after the reference, on the tests of the stubs they define only."""


RIGHT_BY_CHANCE = {"hw6_encoder_decoder": {
    # log V is the right answer for the uniform logits this lesson figure uses
    "sequence_cross_entropy::test_uniform_logits_give_log_v"}}
"""Tests of values (not declared format tests) that a stand-in above answers right."""


def allowed(assignment_id: str) -> set[str]:
    """The tests a stand-in may earn: those declared about the answer's format
    (autograder.testing.format_test, as build reads them), and RIGHT_BY_CHANCE."""
    return {c.id for c in assignment_mod.load(assignment_id).cases
            if is_format_test(c.collected.func)} | RIGHT_BY_CHANCE.get(assignment_id, set())


@pytest.mark.parametrize("assignment_id", sorted(STAND_INS))
def test_stand_ins_earn_only_format_points(grade_notebooks, assignment_id):
    a = assignment_mod.load(assignment_id)
    result = grade_notebooks(assignment_id, {"stand_in": [inspect.getsource(a.reference),
                                                      STAND_INS[assignment_id]]})["stand_in"]
    earned = {f"{t.question}::{t.name}" for t in result.tests if t.score > 0}
    assert earned, "every stand-in here answers some format test right"  # graded at all
    assert earned <= allowed(assignment_id), sorted(earned - allowed(assignment_id))


@pytest.mark.parametrize("assignment_id, name", sorted(PARTIAL_STAND_INS))
def test_plausible_stand_ins_earn_only_format_points(grade_notebooks, assignment_id, name):
    source = PARTIAL_STAND_INS[assignment_id, name]
    a = assignment_mod.load(assignment_id)
    defined = stand_ins.defined([source]) & set(a.questions)
    result = grade_notebooks(assignment_id, {"stand_in": [inspect.getsource(a.reference),
                                                      source]})["stand_in"]
    earned = {f"{t.question}::{t.name}" for t in result.tests
              if t.score > 0 and t.question in defined}
    assert defined and earned, "every stand-in here answers some format test right"
    assert earned <= allowed(assignment_id), sorted(earned - allowed(assignment_id))

