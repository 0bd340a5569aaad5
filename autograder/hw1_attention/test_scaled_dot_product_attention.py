"""Hidden tests: scaled_dot_product_attention."""
import torch

from autograder.testing import (agrees, changed, expect_close, expect_finite, expect_shape,
                                expect_tensor, fail, format_test)

QUESTION = "scaled_dot_product_attention"
SHAPES = [  # (batch dims, n_q, n_k, d_k, d_v)
    ((), 4, 4, 8, 8),
    ((), 3, 7, 5, 2),       # rectangular: more keys than queries, d_v != d_k
    ((2,), 6, 6, 16, 16),
    ((2, 3), 5, 9, 4, 6),   # several leading batch dims
]


def _inputs(batch, n_q, n_k, d_k, d_v, scale=1.0, seed=0):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(*batch, n_q, d_k, generator=g) * scale
    k = torch.randn(*batch, n_k, d_k, generator=g) * scale
    v = torch.randn(*batch, n_k, d_v, generator=g)
    return q, k, v


def _pair(result, what):
    if not isinstance(result, tuple) or len(result) != 2:
        fail(f"{what}: expected a tuple (out, weights), got {type(result).__name__}")
    return (expect_tensor(result[0], what + " out"), expect_tensor(result[1], what + " weights"))


@format_test
def test_shapes(student):
    """out is (..., n_q, d_v) and weights (..., n_q, n_k), batched and rectangular"""
    for batch, n_q, n_k, d_k, d_v in SHAPES:
        q, k, v = _inputs(batch, n_q, n_k, d_k, d_v)
        what = f"q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}"
        out, w = _pair(student.scaled_dot_product_attention(q, k, v), what)
        expect_shape(out, (*batch, n_q, d_v), what + ": out")
        expect_shape(w, (*batch, n_q, n_k), what + ": weights")


def test_values_without_mask(ref, student):
    """weights and output equal softmax(q k^T / sqrt(d_k)) and weights @ v"""
    for seed, (batch, n_q, n_k, d_k, d_v) in enumerate(SHAPES):
        q, k, v = _inputs(batch, n_q, n_k, d_k, d_v, seed=seed)
        what = f"q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}, no mask"
        out, w = _pair(student.scaled_dot_product_attention(q, k, v), what)
        ref_out, ref_w = ref.scaled_dot_product_attention(q, k, v)
        expect_close(w, ref_w, what + ": weights", rtol=1e-4, atol=1e-6)
        expect_close(out, ref_out, what + ": out", rtol=1e-4, atol=1e-5)


def _unmasked_right(ref, student, q, k, v) -> bool:
    """Whether the student's weights under a mask of zeros (the same as no mask, and
    asked with a mask so that an answer that needs one is judged too) are the
    reference's for q, k, v: a test about masks compares masked weights with the
    reference only then (the values without a mask are test_values_without_mask's
    subject)."""
    zeros = torch.zeros(q.shape[-2], k.shape[-2])
    _, w = _pair(student.scaled_dot_product_attention(q, k, v, zeros), "mask of zeros")
    return agrees(w, ref.scaled_dot_product_attention(q, k, v)[1], rtol=1e-4, atol=1e-6)


SWAY = 0.1
"""How much, at least, of the reference's change the weights must show when q or k
changes: an attention whose scale is off (no 1/sqrt(d_k), or 1/d_k) or whose softmax
runs over the queries moves a third as much or more; uniform weights nudged by a hair
that depends on q and k move a thousandth as much, and attend to nothing."""


def _expect_attention(ref, student, q, k, v, mask, what):
    """The answer for q, k, v is attention's work, judged without the reference's values
    (for a test whose subject is not the values): finite weights and output, the
    weights moving with q and with k by a tenth (SWAY) of what the reference's move at
    least, the output with v. A stand-in that never compares q with k (a softmax of the
    mask alone, or of the keys alone, or uniform over the visible keys but for a hair)
    earns nothing."""
    call = lambda *qkv: _pair(student.scaled_dot_product_attention(*qkv, mask), what)
    weights = lambda *qkv: ref.scaled_dot_product_attention(*qkv, mask)[1]
    out, w = call(q, k, v)
    g = torch.Generator().manual_seed(13)
    other = lambda t: torch.randn(t.shape, generator=g)
    reference = weights(q, k, v)
    for name, (q2, k2) in (("q", (other(q), k)), ("k", (q, other(k)))):
        sway = float((weights(q2, k2, v) - reference).abs().max())
        if not changed(w, call(q2, k2, v)[1], what + ": weights", atol=SWAY * sway):
            fail(f"{what}: the weights stay (almost) the same when {name} changes: they do "
                 "not compare the queries with the keys")
    if not changed(out, call(q, k, other(v))[0], what + ": out"):
        fail(f"{what}: the output stays the same when v changes: it is not weights @ v")


def _expect_mask_applied(w, mask, what):
    """Weights judged without the reference: keys the mask sets to -inf get weight 0."""
    hidden = torch.broadcast_to(torch.isinf(mask), w.shape)
    if not torch.all(w[hidden] == 0):
        fail(f"{what}: a key the mask sets to -inf has a weight other than 0")


def test_values_with_masks(ref, student):
    """an additive mask is added before the softmax, broadcast from (n_k,), (n_q, n_k) or with batch dims"""
    # No call here goes without a mask: an answer that is right with one but raises
    # without (test_values_without_mask's subject) earns these points.
    q, k, v = _inputs((2, 3), 6, 6, 8, 4, seed=7)
    unmasked_right = _unmasked_right(ref, student, q, k, v)
    causal = ref.causal_mask(6)
    padding = torch.zeros(2, 1, 1, 6)
    padding[0, ..., 4:] = float("-inf")  # the first batch item ignores its last two keys
    keys = torch.tensor([0.0, 0.0, float("-inf"), 0.0, 0.0, float("-inf")])  # one row for all
    for mask, name in ((causal, "causal (6, 6)"), (padding, "padding (2, 1, 1, 6)"),
                       (torch.randn(6, 6, generator=torch.Generator().manual_seed(2)), "random finite (6, 6)"),
                       (keys, "over the keys only (6,)")):
        what = f"mask {name}"
        out, w = _pair(student.scaled_dot_product_attention(q, k, v, mask), what)
        expect_shape(w, (2, 3, 6, 6), what + ": weights")  # read below, entry by entry
        expect_shape(out, (2, 3, 6, 4), what + ": out")
        if not unmasked_right:  # the values are another test's subject: only the mask here
            _expect_mask_applied(w, mask, what + ": weights")
            expect_finite(w, what + ": weights")
            continue
        ref_out, ref_w = ref.scaled_dot_product_attention(q, k, v, mask)
        expect_close(w, ref_w, what + ": weights", rtol=1e-4, atol=1e-6)
        expect_close(out, ref_out, what + ": out", rtol=1e-4, atol=1e-5)
    if not unmasked_right:  # masks applied to weights that must still be attention's
        _expect_attention(ref, student, q, k, v, causal, "mask causal (6, 6)")


def test_keyword_mask(ref, student):
    """accepts the mask as a keyword argument mask=..., with the effect it has in place"""
    # Compared with the student's own call with the mask in place, so a wrong value (the
    # other tests' subject) does not fail this test too.
    q, k, v = _inputs((), 5, 5, 4, 4, seed=3)
    mask = ref.causal_mask(5)
    _, w = _pair(student.scaled_dot_product_attention(q, k, v, mask=mask), "mask=causal_mask(5)")
    _, in_place = _pair(student.scaled_dot_product_attention(q, k, v, mask), "causal_mask(5)")
    expect_close(w, in_place, "mask=causal_mask(5): weights, compared with the mask given in "
                 "place", rtol=1e-6, atol=1e-7)
    _, unmasked = _pair(student.scaled_dot_product_attention(q, k, v, torch.zeros(5, 5)),
                        "mask of zeros")  # no mask, asked with one: see test_values_with_masks
    if agrees(w, unmasked, rtol=1e-6, atol=1e-7):
        fail("mask=causal_mask(5): the weights are those without a mask")
    # Compared with itself, an answer must first be attention's work at all: the
    # reference's weights are; other weights are judged without the reference.
    if not agrees(w, ref.scaled_dot_product_attention(q, k, v, mask)[1], rtol=1e-4, atol=1e-6):
        _expect_attention(ref, student, q, k, v, mask, "causal_mask(5)")


def _large_scores(ref, student, mask, name):
    """Scores in the thousands under `mask` give finite weights, the reference's where the
    student's weights for moderate scores are the reference's."""
    q, k, v = _inputs((2,), 6, 6, 8, 8, seed=11)
    what = f"|q k^T| in the thousands, {name}"
    out, w = _pair(student.scaled_dot_product_attention(q * 40.0, k * 40.0, v, mask), what)
    if not (torch.isfinite(out).all() and torch.isfinite(w).all()):
        fail(f"{what}: the result holds nan or inf")
    # Stability is this test's subject: weights that are wrong for moderate scores too
    # (the values tests' subject) need only stay finite here, and change with the scores.
    _, moderate = _pair(student.scaled_dot_product_attention(q, k, v, mask), name)
    if agrees(w, moderate, rtol=0, atol=1e-12):
        fail(f"{what}: the weights are those of the unscaled scores: they ignore the scores")
    if agrees(moderate, ref.scaled_dot_product_attention(q, k, v, mask)[1], 1e-4, 1e-6):
        ref_out, ref_w = ref.scaled_dot_product_attention(q * 40.0, k * 40.0, v, mask)
        expect_close(w, ref_w, what + ": weights", rtol=1e-4, atol=1e-5)
    else:  # finite and changing, but are they attention's weights at all?
        _expect_attention(ref, student, q, k, v, mask, name)


def test_large_scores_stay_finite(ref, student):
    """scores in the thousands, no mask: finite weights, the reference's wherever moderate scores give them"""
    _large_scores(ref, student, None, "no mask")


def test_large_scores_stay_finite_with_mask(ref, student):
    """scores in the thousands, causal mask: finite weights, the reference's wherever moderate scores give them"""
    # A test of its own, so that an answer that needs a mask keeps these points.
    _large_scores(ref, student, ref.causal_mask(6), "causal mask")


def _seed_table(student, mask, table, name):
    # the lesson's recipe: seed 0 for x, seed 1 for the two N(0, 0.1^2) projections. Its
    # sentence is batched with another, which leaves its table as it is: a batch of one is
    # an edge (size-1 dimensions are test_values_with_masks' broadcasting), not the subject.
    x = torch.cat([torch.randn(1, 4, 8, generator=torch.Generator().manual_seed(0)),
                   torch.randn(1, 4, 8, generator=torch.Generator().manual_seed(2))])
    g = torch.Generator().manual_seed(1)
    w_q, w_k = (torch.empty(4, 8).normal_(0.0, 0.1, generator=g) for _ in range(2))
    q, k = x @ w_q.T, x @ w_k.T
    _, w = _pair(student.scaled_dot_product_attention(q, k, k, mask), name)
    expect_shape(w, (2, 4, 4), name)
    expect_close(w[0], table, name, rtol=0, atol=6e-5)


def test_seed_tables(student):
    """reproduces the lesson's 4x4 BERT attention table (no mask)"""
    bert = torch.tensor([[0.2442, 0.2573, 0.2261, 0.2724], [0.2360, 0.2580, 0.2568, 0.2492],
                         [0.2167, 0.2684, 0.2686, 0.2463], [0.2472, 0.2479, 0.2559, 0.2489]])
    _seed_table(student, None, bert, "BERT table (no mask)")


def test_seed_table_causal(student):
    """reproduces the lesson's 4x4 GPT attention table (causal mask)"""
    # A test of its own, so that an answer that needs a mask keeps these points.
    gpt = torch.tensor([[1.0, 0, 0, 0], [0.4777, 0.5223, 0, 0],
                        [0.2875, 0.3561, 0.3564, 0], [0.2472, 0.2479, 0.2559, 0.2489]])
    causal = torch.nn.Transformer.generate_square_subsequent_mask(4)
    _seed_table(student, causal, gpt, "GPT table (causal)")
