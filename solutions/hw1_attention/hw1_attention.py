# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [raw]
# # ASSIGNMENT CONFIG
# init_cell: true
# check_all_cell: true
# export_cell:
#   pdf: false
#   instructions: "Run this cell to make a zip of your notebook, then upload the zip (or the .ipynb) to Gradescope."
# generate: false
# run_tests: false
# tests:
#   files: false
#   ok_format: false

# %% [markdown]
# # Homework 1: attention and masks
#
# BERT and GPT are built from the same block: scaled dot-product attention.
# What separates an *encoder* that reads a sentence in both directions (BERT)
# from a *decoder* that writes text left to right (GPT) is one additive term
# inside that block, the mask. In this homework you write the three pieces:
#
# 1. `causal_mask(n)`: the mask that hides the future;
# 2. `scaled_dot_product_attention(q, k, v, mask=None)`: the attention formula itself;
# 3. `TinySelfAttn(h, heads)`: multi-head self-attention as a `torch.nn.Module`.
#
# Each part follows the same order: the idea, the equation, your code, then a
# small check you can run. Replace every `...` in the three answer cells and
# leave the function and class names and signatures as they are: the
# autograder calls them by name. `grader.check("<name>")` runs a few public
# checks; the autograder runs many more after you submit.

# %%
import math

import torch
from torch import nn

# %% [markdown]
# ## Part 1: who may look at whom
#
# Self-attention lets every position of a sequence (a *query*) collect
# information from positions of the same sequence (the *keys*). Which keys a
# query may use is a modelling decision:
#
# * **Bidirectional** (BERT, the encoder): every token may use every other
#   token, before and after it. The representation of "bank" in "the bank of
#   the river" can depend on "river", which comes later. That is what makes
#   encoders good at understanding a sentence that already exists
#   (classification, question answering, tagging).
# * **Causal** (GPT, the decoder): token $i$ may use tokens $0, \dots, i$ and
#   nothing to its right. A model trained to predict the next token must not
#   see it; and at generation time the tokens to the right do not exist yet.
#
# The restriction is written as an additive mask $M$ with one entry per
# (query $i$, key $j$) pair:
#
# $$M_{ij} = \begin{cases} 0 & j \le i \quad\text{(allowed)}\\ -\infty & j > i \quad\text{(hidden)}\end{cases}$$
#
# It is added to the attention scores *before* the softmax (Part 2 shows
# why that placement matters). A bidirectional model simply adds nothing.

# %% [raw]
# # BEGIN QUESTION
# name: causal_mask

# %% [markdown]
# **Question 1.** Write `causal_mask(n)`. It returns a `torch.float32` tensor
# of shape `(n, n)` holding `0.0` where key `j <= i` and `-inf` where
# `j > i` (row `i` is the query, column `j` the key); these are the same
# values as `torch.nn.Transformer.generate_square_subsequent_mask(n)`, but
# build it yourself. If `n` is not an `int` or is smaller than 1, raise
# `ValueError`.

# %% [raw]
# # BEGIN SOLUTION

# %%
def causal_mask(n):
    """Additive causal mask: 0.0 where key j <= query i, -inf where j > i.

    Args:
        n: sequence length, an int >= 1.

    Returns:
        A float32 tensor of shape (n, n).

    Raises:
        ValueError: if n is not an int or is smaller than 1.
    """
    # BEGIN SOLUTION
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"causal_mask needs an int n >= 1, got {n!r}")
    query_pos = torch.arange(n).unsqueeze(1)  # (n, 1): row i
    key_pos = torch.arange(n).unsqueeze(0)  # (1, n): column j
    future = key_pos > query_pos  # (n, n) True strictly above the diagonal
    return torch.zeros(n, n, dtype=torch.float32).masked_fill(future, float("-inf"))
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_causal_mask_shape_and_dtype(causal_mask, torch):
    m = causal_mask(3)
    assert isinstance(m, torch.Tensor), "causal_mask should return a torch.Tensor"
    assert tuple(m.shape) == (3, 3), f"causal_mask(3) has shape {tuple(m.shape)}, not (3, 3)"
    assert m.dtype == torch.float32, f"causal_mask(3) has dtype {m.dtype}, not torch.float32"

# %%
def test_causal_mask_two_tokens(causal_mask, torch):
    m = causal_mask(2)
    assert isinstance(m, torch.Tensor) and m.shape == (2, 2), \
        f"causal_mask(2) should be a (2, 2) torch.Tensor, not {type(m).__name__}"
    assert m[0, 0] == 0 and m[1, 1] == 0, "the diagonal must be 0.0: each token sees itself"
    assert m[1, 0] == 0, "query 1 must see key 0: pairs j < i must be 0.0"
    assert torch.isinf(m[0, 1]) and m[0, 1] < 0, "query 0 must not see key 1: use -inf"

# %%
def test_causal_mask_rejects_zero(causal_mask):
    try:
        causal_mask(0)
    except ValueError:
        return
    raise AssertionError("causal_mask(0) should raise ValueError")

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# A quick look: each row is one query. Row 0 sees only itself; the last row
# sees the whole sequence. Count the zeros per row.

# %%
print(causal_mask(5))
print("keys visible to each query:", (causal_mask(5) == 0).sum(dim=1).tolist())

# %% [markdown]
# ## Part 2: scaled dot-product attention
#
# Each query vector $q_i$ is compared with every key vector $k_j$ by a dot
# product. The softmax turns one query's row of scores into weights that are
# positive and sum to one, and the output for that query is the weighted
# average of the value vectors:
#
# $$\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{Q K^\top}{\sqrt{d_k}} + M\right) V$$
#
# with $Q \in \mathbb{R}^{n_q \times d_k}$, $K \in \mathbb{R}^{n_k \times d_k}$,
# $V \in \mathbb{R}^{n_k \times d_v}$ and the softmax taken along each row
# (over the keys). Two details deserve a closer look before you write it.
#
# **Why divide by $\sqrt{d_k}$?** If the entries of $q$ and $k$ are
# independent with mean 0 and variance 1, then $q \cdot k$ is a sum of $d_k$
# such products, so its variance is $d_k$ and its typical size grows like
# $\sqrt{d_k}$. With wide heads the raw scores become large, the softmax of
# large numbers is almost one-hot, and its gradient almost vanishes: the
# model stops learning where to look. Dividing by $\sqrt{d_k}$ brings the
# scores back to unit scale whatever the head width. Measure it:

# %%
g = torch.Generator().manual_seed(0)
for d_k in (4, 64, 1024):
    q_demo = torch.randn(500, d_k, generator=g)
    k_demo = torch.randn(500, d_k, generator=g)
    dots = (q_demo * k_demo).sum(dim=-1)  # (500,) one score per pair
    print(f"d_k={d_k:5d}  std of q.k = {dots.std():7.2f}   "
          f"std of q.k/sqrt(d_k) = {(dots / math.sqrt(d_k)).std():.2f}")

row = torch.randn(8, 512, generator=g) @ torch.randn(512, generator=g)  # 8 scores, d_k = 512
print("largest softmax weight of one row, unscaled:", round(torch.softmax(row, 0).max().item(), 3),
      "  scaled:", round(torch.softmax(row / math.sqrt(512), 0).max().item(), 3))

# %% [markdown]
# **Why is the mask added, and why $-\infty$?** The softmax exponentiates
# each score, and $e^{-\infty} = 0$: a hidden key gets weight exactly zero,
# and the remaining weights are renormalised among the allowed keys, so
# every row still sums to one. Two tempting alternatives are wrong:
# multiplying the *scores* by a 0/1 mask turns a hidden score into $0$, and
# $e^0 = 1$ still gives the future a share of the weight; multiplying the
# *weights* by 0/1 after the softmax zeroes the future but leaves rows that
# no longer sum to one. The additive mask is also general: any
# tensor that broadcasts to the score shape works, such as a padding mask
# that hides the same keys for every query.
#
# **Large scores.** Computing $e^{s}$ directly overflows for scores in the
# hundreds (float32 tops out near $e^{88}$). `torch.softmax` subtracts
# each row's maximum first, which leaves the result unchanged and keeps
# every exponent $\le 0$. Use it rather than writing the exponentials
# yourself.

# %% [raw]
# # BEGIN QUESTION
# name: scaled_dot_product_attention

# %% [markdown]
# **Question 2.** Write `scaled_dot_product_attention(q, k, v, mask=None)`.
# `q` has shape `(..., n_q, d_k)`, `k` `(..., n_k, d_k)`, `v`
# `(..., n_k, d_v)`, where `...` stands for any number of leading batch
# dimensions (possibly none). `mask`, when given, is additive and
# broadcastable to `(..., n_q, n_k)`. Return the pair `(out, weights)`:
# `weights` of shape `(..., n_q, n_k)` as in the equation above, and
# `out = weights @ v` of shape `(..., n_q, d_v)`. Results must stay finite
# when the scores are in the thousands (wherever a row has an allowed key).

# %% [raw]
# # BEGIN SOLUTION

# %%
def scaled_dot_product_attention(q, k, v, mask=None):
    """softmax(q k^T / sqrt(d_k) + mask) v, over the last two dimensions.

    Args:
        q: queries, shape (..., n_q, d_k).
        k: keys, shape (..., n_k, d_k).
        v: values, shape (..., n_k, d_v).
        mask: optional additive mask broadcastable to (..., n_q, n_k).

    Returns:
        (out, weights) of shapes (..., n_q, d_v) and (..., n_q, n_k).
    """
    # BEGIN SOLUTION
    d_k = q.shape[-1]
    logits = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)  # (..., n_q, n_k)
    if mask is not None:
        logits = logits + mask  # -inf entries get weight exactly 0
    attn = logits.softmax(dim=-1)  # each row sums to 1; max-shifted, so no overflow
    return torch.matmul(attn, v), attn  # (..., n_q, d_v), (..., n_q, n_k)
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_sdpa_shapes(scaled_dot_product_attention, torch):
    q, k, v = torch.ones(2, 3, 4), torch.ones(2, 5, 4), torch.ones(2, 5, 6)
    try:
        result = scaled_dot_product_attention(q, k, v)
    except TypeError as exc:
        raise AssertionError(f"called without a mask it raised TypeError ({exc}): "
                             "mask=None means no mask") from exc
    assert isinstance(result, tuple) and len(result) == 2, "return the pair (out, weights)"
    out, weights = result
    assert isinstance(out, torch.Tensor) and isinstance(weights, torch.Tensor), \
        f"out and weights should be tensors, not {type(out).__name__} and {type(weights).__name__}"
    assert tuple(out.shape) == (2, 3, 6), f"out has shape {tuple(out.shape)}, not (2, 3, 6)"
    assert tuple(weights.shape) == (2, 3, 5), f"weights has shape {tuple(weights.shape)}, not (2, 3, 5)"

# %%
def test_sdpa_equal_scores_give_equal_weights(scaled_dot_product_attention, torch):
    q, k = torch.zeros(1, 2), torch.zeros(4, 2)
    v = torch.tensor([[1.0], [2.0], [3.0], [4.0]])
    try:
        result = scaled_dot_product_attention(q, k, v)
    except TypeError as exc:
        raise AssertionError(f"called without a mask it raised TypeError ({exc}): "
                             "mask=None means no mask") from exc
    assert isinstance(result, tuple) and len(result) == 2, "return the pair (out, weights)"
    out, weights = result
    assert isinstance(out, torch.Tensor) and isinstance(weights, torch.Tensor) \
        and weights.shape == (1, 4) and out.shape == (1, 1), \
        "out should be a (1, 1) tensor and weights a (1, 4) tensor here"
    assert torch.allclose(weights.sum(dim=-1), torch.ones(1)), \
        "each row of weights (one query, over the keys) must sum to 1: softmax over the last dimension"
    assert torch.allclose(weights, torch.full((1, 4), 0.25)), "equal scores should give equal weights"
    assert torch.allclose(out, torch.tensor([[2.5]])), "out should be the weighted average of v"

# %%
def test_sdpa_mask_hides_a_key(scaled_dot_product_attention, torch):
    q, k, v = torch.zeros(1, 2), torch.zeros(2, 2), torch.tensor([[1.0], [3.0]])
    mask = torch.tensor([[0.0, float("-inf")]])
    result = scaled_dot_product_attention(q, k, v, mask)
    assert isinstance(result, tuple) and len(result) == 2, "return the pair (out, weights)"
    out, weights = result
    assert isinstance(out, torch.Tensor) and isinstance(weights, torch.Tensor) \
        and weights.shape == (1, 2) and out.shape == (1, 1), \
        "out should be a (1, 1) tensor and weights a (1, 2) tensor here"
    assert weights[0, 1] == 0, f"the key masked with -inf must get weight 0, not {weights[0, 1].item():.3g}"
    assert torch.allclose(weights.sum(dim=-1), torch.ones(1)), \
        "each row of weights must still sum to 1: add the mask to the scores before the softmax"
    assert torch.allclose(weights, torch.tensor([[1.0, 0.0]])), "the allowed key should get all the weight"
    assert torch.allclose(out, torch.tensor([[1.0]])), "out should use the allowed key only"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# ### Check: a BERT table and a GPT table from the same scores
#
# A toy sequence of 4 tokens of width 8, one head with $d_k = 4$. The query
# and key projections are bias-free linear maps whose weights are drawn
# from $N(0, 0.1^2)$. The seeds make the numbers reproducible: `x` comes
# from seed 0 and the projection weights from seed 1, in the order written.
# Keys double as values here, since only the weights matter.

# %%
torch.manual_seed(0)
x = torch.randn(1, 4, 8)  # (batch, tokens, width)
to_query = nn.Linear(8, 4, bias=False)
to_key = nn.Linear(8, 4, bias=False)
torch.manual_seed(1)
with torch.no_grad():
    to_query.weight.normal_(mean=0.0, std=0.1)  # (4, 8)
    to_key.weight.normal_(mean=0.0, std=0.1)  # (4, 8)
    q_toy, k_toy = to_query(x), to_key(x)  # each (1, 4, 4)
    _, bert_table = scaled_dot_product_attention(q_toy, k_toy, k_toy)  # no mask
    _, gpt_table = scaled_dot_product_attention(q_toy, k_toy, k_toy, causal_mask(4))

torch.set_printoptions(precision=4, sci_mode=False)
print("BERT (bidirectional), row = query, column = key:\n", bert_table[0])
print("GPT (causal):\n", gpt_table[0])
assert torch.allclose(bert_table[0, 0], torch.tensor([0.2442, 0.2573, 0.2261, 0.2724]), atol=1e-4), \
    "the BERT table's first row is not the lesson's: check scaled_dot_product_attention above"

# %% [markdown]
# Read the two tables row by row:
#
# * In the BERT table every entry is positive: token 0 already draws on
#   tokens 2 and 3, which come after it. The weights are close to $1/4$
#   because the projections are small, so the scores are close to zero.
# * In the GPT table everything above the diagonal is exactly 0. Token 0
#   can only attend to itself (weight 1), token 1 splits its attention
#   between tokens 0 and 1, and the surviving weights of each row are the
#   BERT scores renormalised over the allowed keys.
# * The last row is identical in both tables: the last token is allowed to
#   see everything either way.
#
# A consequence worth remembering: you cannot turn a pretrained BERT into a
# text generator by "switching the mask on". Its weights were learnt with
# every token seeing the right-hand context, never with the objective of
# predicting the next token from the left alone.

# %% [markdown]
# ## Part 3: several heads, one matrix product
#
# One attention pattern per layer is limiting: a token may want to look at
# its verb for one purpose and at the previous word for another. Multi-head
# attention runs several attentions side by side, each on its own slice of
# the features, and mixes their outputs at the end.
#
# The implementation trick is that the heads need no separate weights. One
# linear map produces $Q$, $K$ and $V$ for all heads at once (width $h$
# each), and head $i$ simply uses the block of columns
# $[i\,h/H,\ (i+1)\,h/H)$ of each, where $H$ is the number of heads and
# $d_k = h/H$:
#
# $$[Q \mid K \mid V] = X W_{qkv}^\top, \qquad
# \mathrm{head}_i = \mathrm{Attention}(Q_{[:,\,i]}, K_{[:,\,i]}, V_{[:,\,i]}), \qquad
# \mathrm{out} = [\mathrm{head}_1 \mid \dots \mid \mathrm{head}_H]\, W_o^\top + b_o$$
#
# Reshaping the last dimension from `h` to `(H, h/H)` and moving the head
# axis in front of the token axis turns "$H$ attentions" into one batched
# call of your Part 2 function, which already accepts leading batch
# dimensions. Concatenating the heads is the inverse reshape.

# %% [raw]
# # BEGIN QUESTION
# name: TinySelfAttn

# %% [markdown]
# **Question 3.** Write the module `TinySelfAttn(h, heads)`:
#
# * `__init__` creates exactly two layers, `self.qkv = nn.Linear(h, 3 * h, bias=False)`
#   and `self.out = nn.Linear(h, h)`, and no other parameters. If `h` is not
#   divisible by `heads`, raise `ValueError`.
# * `forward(x, mask=None)` takes `x` of shape `(B, T, h)` and returns
#   `(B, T, h)`: $Q$, $K$, $V$ are the three equal chunks of `self.qkv(x)`
#   along the last dimension, in that order; head `i` uses columns
#   `[i*h/heads, (i+1)*h/heads)` of each; every head runs your
#   `scaled_dot_product_attention` with the optional additive `(T, T)` mask;
#   the heads are concatenated in order and passed through `self.out`.
#   No mask means bidirectional attention.

# %% [raw]
# # BEGIN SOLUTION

# %%
class TinySelfAttn(nn.Module):
    """Multi-head self-attention with one fused Q/K/V projection."""

    def __init__(self, h, heads):
        super().__init__()
        # BEGIN SOLUTION
        if h % heads != 0:
            raise ValueError(f"width h={h} must be divisible by heads={heads}")
        self.heads = heads
        self.qkv = nn.Linear(h, 3 * h, bias=False)  # W_q, W_k, W_v stacked by rows
        self.out = nn.Linear(h, h)  # W_o, b_o: mixes the concatenated heads
        # END SOLUTION

    def forward(self, x, mask=None):
        # BEGIN SOLUTION
        B, T, h = x.shape
        d_head = h // self.heads
        queries, keys, values = self.qkv(x).split(h, dim=-1)  # 1) each (B, T, h)

        def per_head(t):  # 2) column block i -> head i
            return t.reshape(B, T, self.heads, d_head).transpose(1, 2)  # (B, heads, T, d_head)

        mixed, _ = scaled_dot_product_attention(
            per_head(queries), per_head(keys), per_head(values), mask)  # 3) (B, heads, T, d_head)
        joined = mixed.transpose(1, 2).reshape(B, T, h)  # 4) heads side by side, in order
        return self.out(joined)  # 5) (B, T, h)
        # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_tiny_self_attn_output_shape(TinySelfAttn, torch):
    layer = TinySelfAttn(8, 2)
    y = layer(torch.zeros(1, 3, 8))
    assert isinstance(y, torch.Tensor), f"forward should return a tensor, not {type(y).__name__}"
    assert tuple(y.shape) == (1, 3, 8), f"output has shape {tuple(y.shape)}, not (1, 3, 8)"

# %%
def test_tiny_self_attn_parameters(TinySelfAttn):
    names = sorted(name for name, _ in TinySelfAttn(8, 2).named_parameters())
    assert names == ["out.bias", "out.weight", "qkv.weight"], f"parameters are {names}"

# %%
def test_tiny_self_attn_rejects_indivisible_heads(TinySelfAttn):
    try:
        TinySelfAttn(10, 3)
    except ValueError:
        return
    raise AssertionError("TinySelfAttn(10, 3) should raise ValueError")

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# ### Check: against PyTorch's own multi-head attention
#
# `torch.nn.MultiheadAttention` splits heads the same way. Give it your
# layer's weights (its input projection has a bias, which we set to zero)
# and the two outputs should agree, with and without a causal mask. Then
# the property that defines an encoder: without a mask, changing the *last*
# token changes the *first* output; with a causal mask it cannot.

# %%
torch.manual_seed(0)
h_demo, heads_demo, T_demo = 16, 4, 5
mine = TinySelfAttn(h_demo, heads_demo)
theirs = nn.MultiheadAttention(h_demo, heads_demo, batch_first=True)
with torch.no_grad():
    theirs.in_proj_weight.copy_(mine.qkv.weight)  # (3h, h): W_q, W_k, W_v
    theirs.in_proj_bias.zero_()
    theirs.out_proj.weight.copy_(mine.out.weight)
    theirs.out_proj.bias.copy_(mine.out.bias)
    x_demo = torch.randn(2, T_demo, h_demo)  # (B, T, h)
    for m in (None, causal_mask(T_demo)):
        ours = mine(x_demo, m)
        expected, _ = theirs(x_demo, x_demo, x_demo, attn_mask=m, need_weights=False)
        print("mask" if m is not None else "no mask", "-> max difference:",
              f"{(ours - expected).abs().max().item():.1e}")

    x_changed = x_demo.clone()
    x_changed[:, -1] += 1.0  # change only the last token
    for m, name in ((None, "bidirectional"), (causal_mask(T_demo), "causal")):
        moved = (mine(x_changed, m)[:, 0] - mine(x_demo, m)[:, 0]).abs().max().item()
        print(f"{name:13s}: first output moved by {moved:.2e}")

# %% [markdown]
# You have now written the attention at the heart of both model families.
# Run the cell below to check everything, then export and submit.
