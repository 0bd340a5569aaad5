"""Known mistakes of hw1_attention, each explained for the student.

Each mistake is the stub written wrong, as students write it (the corpus's
buggy variants, tests/assignments/corpus/hw1_attention/buggy/, make them): the
grader replays it, in the trusted process only, on the inputs of a failing test
and names it when the student's answers are its answers (see
autograder/engine/diagnoses/). Sections are the master's headings.

TinySelfAttn's mistakes are modules, driven as the test drove the student's
(weights loaded, outputs read); each uses the correct attention, which is what
the grader lends the student's module during those tests.
"""
import math

import torch
from torch import nn

from autograder.hw1_attention import reference
from autograder.testing import Diagnosis, accepted_unchecked, refused_with_assert

PART1 = "Part 1: who may look at whom"
PART2 = "Part 2: scaled dot-product attention"
PART3 = "Part 3: several heads, one matrix product"


def _valid(n):
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(n)


def mask_hides_diagonal(n):
    _valid(n)
    return torch.triu(torch.full((n, n), float("-inf")), diagonal=0)


def mask_hides_past(n):
    _valid(n)
    return torch.tril(torch.full((n, n), float("-inf")), diagonal=-1)


LARGE_NEGATIVE = -1e3
"""Where a mask's finite entries count as "a large negative number" (-1e4, -1e9, -1e10,
float32's lowest): e^-1000 is 0 in float32 already; a milder one is another mistake."""


def mask_large_negative(calls):
    """A sign, whatever the constant: every mask the test read is float32 (n, n), 0 on
    and below the diagonal and a finite large negative number above it (one entry at
    least), which no correct mask is."""
    masked = 0
    for args, kwargs, mask in calls:
        n = args[0] if args else kwargs.get("n")
        if not (isinstance(mask, torch.Tensor) and mask.dtype == torch.float32
                and isinstance(n, int) and tuple(mask.shape) == (n, n)):
            return False
        above = torch.ones(n, n, dtype=torch.bool).triu(1)
        if (mask[~above] != 0).any() or not torch.isfinite(mask[above]).all() \
                or (mask[above] > LARGE_NEGATIVE).any():
            return False
        masked += int(above.sum())
    return masked > 0


def mask_boolean(n):
    _valid(n)
    return torch.ones(n, n, dtype=torch.bool).triu(1)


_TABLE = 512


def mask_from_table(n):
    _valid(n)
    return torch.triu(torch.full((_TABLE, _TABLE), float("-inf")), diagonal=1)[:n, :n].clone()


def _scores(q, k, scale):
    return q @ k.transpose(-2, -1) / scale


def sdpa_unscaled(q, k, v, mask=None):
    scores = _scores(q, k, 1)
    w = torch.softmax(scores if mask is None else scores + mask, dim=-1)
    return w @ v, w


def _attention_call(args, kwargs, answer):
    """(q k^T in float64, the mask broadcast to it or None, d_k, the weights in float64)
    of one recorded call, or None where it is not a call with float tensors answered by
    a pair (out, weights) of the scores' shape."""
    names = ("q", "k", "v", "mask")
    given = {**dict(zip(names, args)), **{n: kwargs[n] for n in names if n in kwargs}}
    q, k, mask = given.get("q"), given.get("k"), given.get("mask")
    if not (isinstance(answer, tuple) and len(answer) == 2):
        return None
    w = answer[1]
    tensors = (q, k, w) if mask is None else (q, k, w, mask)
    if not all(isinstance(t, torch.Tensor) and t.is_floating_point() for t in tensors) \
            or q.dim() < 2 or k.dim() < 2 or q.shape[-1] != k.shape[-1]:
        return None
    try:
        scores = q.double() @ k.double().transpose(-2, -1)
        added = None if mask is None else mask.double().expand_as(scores)
    except RuntimeError:
        return None
    if tuple(w.shape) != tuple(scores.shape):
        return None
    return scores, added, q.shape[-1], w.double()


_READ: tuple = (None, [])
"""(the calls last read, what _attention_call made of each): the record's signs read the
same calls one after the other, and q k^T is computed once for all of them."""


def _attention_calls(calls) -> list:
    """_attention_call of each of `calls` (a record's own calls, one object for all of
    its signs: Calls.own), computed once; the last record's are kept."""
    global _READ
    last = _READ  # one read: grading threads replace it side by side
    if last[0] is calls:
        return last[1]
    read = [_attention_call(*call) for call in calls]
    _READ = (calls, read)
    return read


def _fitted_scale(scores, added, weights) -> float | None:
    """The c for which weights = softmax(scores / c + mask): fitted by least squares on
    each row's log-weights over the keys the mask keeps (entries 0; the others -inf),
    then checked on every weight; None where no c fits."""
    keep = torch.ones_like(scores, dtype=torch.bool) if added is None else added == 0
    if added is not None and not torch.isneginf(added[~keep]).all():
        return None
    log_w = weights.log()
    if not torch.isfinite(log_w[keep]).all():
        return None
    count = keep.sum(-1, keepdim=True).clamp(min=1)

    def centred(t):  # each row minus its mean over the kept keys; 0 elsewhere
        kept = torch.where(keep, t, 0)
        return torch.where(keep, t - kept.sum(-1, keepdim=True) / count, 0)
    ds, dl = centred(scores), centred(log_w)
    num, den = float((ds * ds).sum()), float((ds * dl).sum())
    if num < 1e-12 or den <= 0:
        return None
    c = num / den
    fit = torch.softmax(scores / c + (0 if added is None else added), dim=-1)
    return c if torch.allclose(fit, weights, rtol=1e-3, atol=1e-6) else None


SCALES = 64.0
"""How far from sqrt(d_k), either way, a fitted scale is still read as a scale: further
out, the weights are all but uniform or one-hot, which a stand-in that never compares
q with k also gives."""


def sdpa_scaled_otherwise(calls):
    """A sign, whatever the number: in every call the weights are softmax(q k^T / c +
    mask) for one c that is neither sqrt(d_k) nor 1 (sdpa_unscaled): d_k, a hard-coded
    8, sqrt(d_k) multiplied, the length of another axis. d_k is one of them, not a
    diagnosis of its own: a failing test holds the calls up to its first wrong answer,
    mostly one d_k, and a number written in that equals it (graykode's sqrt(64) where
    d_k is 8) gives the same answers."""
    fitted = 0
    for call in _attention_calls(calls):
        c = None if call is None else _fitted_scale(call[0], call[1], call[3])
        if c is None:
            return False
        d_k = call[2]
        if any(math.isclose(c, x, rel_tol=0.02) for x in (math.sqrt(d_k), 1.0)) \
                or not 1 / SCALES < c / math.sqrt(d_k) < SCALES:
            return False
        fitted += 1
    return fitted > 0


def sdpa_mask_after_softmax(calls):
    """A sign, whatever stands where the mask hides (0, a constant, the mask's own
    values): in every call the weights the mask keeps are the unmasked softmax's, and
    in one at least a hidden key's weight is not (the mask acted, after the softmax), so
    that its row no longer sums to one. A mask never read leaves every weight as the
    unmasked softmax's: that is no mask after the softmax."""
    moved = False
    for call in _attention_calls(calls):
        if call is None:
            return False
        scores, added, d_k, weights = call
        soft = torch.softmax(scores / math.sqrt(d_k), dim=-1)
        keep = torch.ones_like(soft, dtype=torch.bool) if added is None else added == 0
        if not torch.allclose(weights[keep], soft[keep], rtol=1e-3, atol=1e-6):
            return False
        moved = moved or bool(((weights - soft).abs()[~keep] > 1e-3).any())
    return moved


def sdpa_mask_read_as_keep(calls):
    """A sign, whatever the fill (-inf, -1e9): in every masked call each row with keys
    both where the mask is 0 and where it is not has its weights spread, by the softmax
    of q k^T / sqrt(d_k), over the keys where the mask is not 0 only (a keep-mask,
    masked_fill(mask == 0, ...), reads the additive mask the other way round); rows
    with no such key, all filled, are not read."""
    rows = 0
    for call in _attention_calls(calls):
        if call is None:
            return False
        scores, added, d_k, weights = call
        if added is None:
            continue
        kept = added != 0
        spread = kept.any(-1) & (~kept).any(-1)
        fit = torch.softmax((scores / math.sqrt(d_k)).masked_fill(~kept, float("-inf")), dim=-1)
        if not torch.allclose(weights[spread], fit[spread], rtol=1e-3, atol=1e-6):
            return False
        rows += int(spread.sum())
    return rows > 0


def sdpa_mask_multiplied(q, k, v, mask=None):
    scores = _scores(q, k, math.sqrt(q.shape[-1]))
    if mask is not None:
        scores = scores * torch.where(torch.isinf(mask), 0.0, 1.0)
    w = torch.softmax(scores, dim=-1)
    return w @ v, w


def sdpa_mask_sliced(q, k, v, mask=None):
    scores = _scores(q, k, math.sqrt(q.shape[-1]))
    if mask is not None:
        scores = scores + mask[..., :q.shape[-2], :k.shape[-2]]
    w = torch.softmax(scores, dim=-1)
    return w @ v, w


def sdpa_naive_softmax(q, k, v, mask=None):
    scores = _scores(q, k, math.sqrt(q.shape[-1]))
    e = torch.exp(scores if mask is None else scores + mask)
    w = e / e.sum(dim=-1, keepdim=True)
    return w @ v, w


def sdpa_needs_mask(q, k, v, mask=None):
    w = torch.softmax(_scores(q, k, math.sqrt(q.shape[-1])) + mask, dim=-1)
    return w @ v, w


def sdpa_out_only(q, k, v, mask=None):
    scores = _scores(q, k, math.sqrt(q.shape[-1]))
    return torch.softmax(scores if mask is None else scores + mask, dim=-1) @ v


def sdpa_over_queries(q, k, v, mask=None):
    scores = _scores(q, k, math.sqrt(q.shape[-1]))
    w = torch.softmax(scores if mask is None else scores + mask, dim=-2)
    return w @ v, w


class _Attn(nn.Module):
    """TinySelfAttn with the switches its mistakes flip."""

    qkv_bias, causal, interleaved, order, by_width = False, False, False, "qkv", False

    def __init__(self, h, heads):
        super().__init__()
        if h % heads:
            raise ValueError(f"h={h} is not divisible by heads={heads}")
        self.heads = heads
        self.qkv = nn.Linear(h, 3 * h, bias=self.qkv_bias)
        self.out = nn.Linear(h, h)

    def forward(self, x, mask=None):
        B, T, h = x.shape
        chunks = dict(zip(self.order, self.qkv(x).chunk(3, dim=-1)))
        if self.interleaved:
            split = lambda t: t.view(B, T, h // self.heads, self.heads).permute(0, 3, 1, 2)
        else:
            split = lambda t: t.view(B, T, self.heads, h // self.heads).transpose(1, 2)
        q, k, v = split(chunks["q"]), split(chunks["k"]), split(chunks["v"])
        if self.causal:
            mask = reference.causal_mask(T)
        if self.by_width:
            scores = q @ k.transpose(-2, -1) / math.sqrt(h)
            y = torch.softmax(scores if mask is None else scores + mask, dim=-1) @ v
        else:
            y, _ = reference.scaled_dot_product_attention(q, k, v, mask)
        y = y.permute(0, 2, 3, 1) if self.interleaved else y.transpose(1, 2)
        return self.out(y.reshape(B, T, h))


class tsa_always_causal(_Attn):
    causal = True


class tsa_heads_interleaved(_Attn):
    interleaved = True


class tsa_kqv(_Attn):
    order = "kqv"


class tsa_qkv_bias(_Attn):
    qkv_bias = True


class tsa_by_model_width(_Attn):
    by_width = True


DIAGNOSES = [
    Diagnosis("causal_mask", mask_hides_diagonal,
              "your mask hides the diagonal too; a query may always use its own key "
              "(j = i), only the keys after it (j > i) get -inf", PART1),
    Diagnosis("causal_mask", mask_hides_past,
              "your mask hides the past instead of the future; row i is the query and "
              "column j the key, and it is the keys after the query (j > i, above the "
              "diagonal) that must get -inf", PART1),
    Diagnosis("causal_mask", mask_large_negative,
              "a large negative number stands where -inf belongs; its softmax weight is "
              "tiny but not exactly 0, so the future still leaks into the output", PART1,
              replay=False),
    Diagnosis("causal_mask", mask_boolean,
              "a boolean mask (True where hidden) instead of an additive one; the mask is "
              "added to the scores, so it holds float32 0.0 where allowed and -inf where "
              "hidden", PART1),
    accepted_unchecked("causal_mask", reference.causal_mask, "Question 1", "mask_unchecked",
                       "the argument is not checked before the mask is built; n must be an "
                       "int >= 1, and anything else raises ValueError"),
    refused_with_assert("causal_mask", reference.causal_mask, "Question 1", "mask_asserted"),
    Diagnosis("causal_mask", mask_from_table,
              "the mask is sliced from a table of fixed size; build it for the n asked, "
              "however large", PART1),
    Diagnosis("scaled_dot_product_attention", sdpa_unscaled,
              "the scores are not scaled; without dividing q k^T by sqrt(d_k), wide heads "
              "give large scores and an almost one-hot softmax",
              f"{PART2}, \"Why divide by sqrt(d_k)?\""),
    Diagnosis("scaled_dot_product_attention", sdpa_scaled_otherwise,
              "the scores are divided by another number than sqrt(d_k) (d_k itself, or a "
              "number written in), where d_k is the size of q's and k's last dimension; "
              "q.k has variance d_k, so its typical "
              "size is sqrt(d_k), and that is what brings it back to unit scale",
              f"{PART2}, \"Why divide by sqrt(d_k)?\"", replay=False),
    Diagnosis("scaled_dot_product_attention", sdpa_mask_after_softmax,
              "the mask is applied to the weights after the softmax; hidden keys lose "
              "their weight, but the rows no longer sum to one: add the mask to the "
              "scores before the softmax", f"{PART2}, \"Why is the mask added, and why -inf?\"",
              replay=False),
    Diagnosis("scaled_dot_product_attention", sdpa_mask_read_as_keep,
              "the mask is read as a keep-mask (masked_fill(mask == 0, ...), as some "
              "tutorials write it): the keys it allows are hidden and the ones it hides "
              "are used; here the mask is additive, 0 where a key may be used and -inf "
              "where it is hidden, so add it to the scores",
              f"{PART2}, \"Why is the mask added, and why -inf?\"", replay=False),
    Diagnosis("scaled_dot_product_attention", sdpa_mask_multiplied,
              "the scores are multiplied by a 0/1 mask; a hidden score becomes 0, and "
              "e^0 = 1 still gives that key a share of the weight: add the mask (0 or "
              "-inf) instead", f"{PART2}, \"Why is the mask added, and why -inf?\""),
    Diagnosis("scaled_dot_product_attention", sdpa_mask_sliced,
              "the mask is cut to (n_q, n_k) instead of being added as given; a mask only "
              "has to broadcast to the scores' shape, such as a single row over the keys",
              f"{PART2}, \"Why is the mask added, and why -inf?\""),
    Diagnosis("scaled_dot_product_attention", sdpa_naive_softmax,
              "the softmax is computed as exp(s) / sum(exp(s)), which overflows for large "
              "scores; torch.softmax subtracts each row's maximum first",
              f"{PART2}, \"Large scores\""),
    Diagnosis("scaled_dot_product_attention", sdpa_needs_mask,
              "the mask is added even when none is given; mask=None means no mask, so add "
              "it only when it is not None", "Question 2"),
    Diagnosis("scaled_dot_product_attention", sdpa_out_only,
              "only the output is returned; the function returns the pair (out, weights)",
              "Question 2"),
    Diagnosis("scaled_dot_product_attention", sdpa_over_queries,
              "the softmax is taken over the queries (dim=-2) instead of over the keys; "
              "each query's row of weights must sum to one, so use dim=-1", PART2),
    Diagnosis("TinySelfAttn", tsa_always_causal,
              "the module builds a causal mask of its own when none is given; mask=None "
              "means bidirectional attention, every position sees every other", "Question 3"),
    Diagnosis("TinySelfAttn", tsa_heads_interleaved,
              "each head takes every heads-th column instead of a block of consecutive "
              "ones; head i uses columns [i*h/heads, (i+1)*h/heads): reshape the last "
              "dimension to (heads, h/heads), then move the head axis", PART3),
    accepted_unchecked("TinySelfAttn", reference.TinySelfAttn, "Question 3", "tsa_unchecked",
                       "the constructor does not check that h is divisible by heads; when it "
                       "is not, the heads cannot split the features evenly, so raise "
                       "ValueError"),
    refused_with_assert("TinySelfAttn", reference.TinySelfAttn, "Question 3", "tsa_asserted"),
    Diagnosis("TinySelfAttn", tsa_kqv,
              "Q, K and V are taken from self.qkv(x) in another order; its three chunks "
              "along the last dimension are Q, K and V, in that order", "Question 3"),
    Diagnosis("TinySelfAttn", tsa_qkv_bias,
              "self.qkv has a bias; it is nn.Linear(h, 3 * h, bias=False), and the only "
              "bias of the module is self.out's", "Question 3"),
    Diagnosis("TinySelfAttn", tsa_by_model_width,
              "the scores are divided by sqrt(h), the model's width; each head's q.k is a "
              "sum over its own d_k = h/heads features, so divide by sqrt(h/heads)",
              f"{PART2}, \"Why divide by sqrt(d_k)?\""),
]
