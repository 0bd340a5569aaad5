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
# # Homework 2: positions and parameter counts
#
# Homework 1 built attention. This one asks two questions about the
# Transformer that surrounds it:
#
# * **Where is each token?** Attention by itself cannot tell. You will write
#   the fixed sinusoidal position code of the original Transformer and
#   check, with your own code, the properties that made it a good choice.
# * **How big is the model?** You will count parameters twice: once by
#   asking PyTorch (and getting shared weights and buffers right), once with
#   pen and paper as a closed formula per layer, and then use both to settle
#   a disagreement between published BERT sizes.
#
# The four answers are
#
# 1. `sinusoidal_pe(n_pos, d)`: the position table;
# 2. `count_parameters(model, trainable_only=False)`: the size of any torch model;
# 3. `encoder_layer_param_count(d, d_ff=None)`: one encoder layer, by formula;
# 4. `decoder_layer_param_count(d, d_ff=None)`: one decoder layer, by formula.
#
# Every part goes the same way: the idea, the equation, your code, then a
# check you can run. Replace each `...` in the four answer cells and keep
# the names and signatures: the autograder calls them by name.
# `grader.check("<name>")` runs a few public checks; many more run after you
# submit.

# %%
import math

import numpy as np
import torch
from torch import nn

# %% [markdown]
# ## Part 1: attention does not know the order
#
# Self-attention compares every token with every other token and averages
# values with the resulting weights. Nothing in that recipe refers to *where*
# a token sits: shuffle the input tokens and the outputs are shuffled in
# exactly the same way, and otherwise unchanged. Mathematically, attention is
# *permutation-equivariant*. For a sentence this is a disaster: "dog bites
# man" and "man bites dog" contain the same three tokens, so the word "dog"
# receives the same representation in both. Check it on PyTorch's own
# attention layer:

# %%
torch.manual_seed(0)
attention = nn.MultiheadAttention(embed_dim=8, num_heads=2, batch_first=True)
tokens = torch.randn(1, 3, 8)  # (batch, 3 tokens: "dog", "bites", "man", width 8)
order = torch.tensor([2, 1, 0])  # the same tokens as "man bites dog"
with torch.no_grad():
    out, _ = attention(tokens, tokens, tokens)
    out_swapped, _ = attention(tokens[:, order], tokens[:, order], tokens[:, order])
print("'dog' gets the same vector in both sentences:",
      torch.allclose(out[0, 0], out_swapped[0, 2], atol=1e-6))

# %% [markdown]
# The fix is to make the *input* depend on the position: to each token's
# embedding, add a vector $\mathrm{PE}(p)$ that depends only on the token's
# position $p$. After that, the same word at two positions enters the first
# layer as two different vectors, and order becomes visible to attention.
# The vector is added rather than concatenated, so the width $d$ does not
# change.
#
# ### The sinusoidal code
#
# The original Transformer does not learn these vectors; it computes them.
# The $d$ coordinates come in $d/2$ pairs. Pair $i$ (columns $2i$ and
# $2i+1$) holds a sine and a cosine of the position at its own angular
# frequency $\omega_i$:
#
# $$\mathrm{PE}(p, 2i) = \sin(p\,\omega_i), \qquad \mathrm{PE}(p, 2i+1) = \cos(p\,\omega_i),
# \qquad \omega_i = \frac{1}{10000^{2i/d}}, \quad i = 0, 1, \dots, d/2 - 1.$$
#
# Positions start at $p = 0$. The wavelength of pair $i$, the number of
# positions after which it repeats, is $\lambda_i = 2\pi \cdot 10000^{2i/d}$:
# from $2\pi \approx 6.3$ positions for the first pair up to almost
# $2\pi \cdot 10000 \approx 62{,}832$ for the last, in a geometric
# progression. For $d = 8$ the four wavelengths are about 6.3, 62.8, 628.3
# and 6,283.2 positions. Think of a row of clock hands, each turning
# $10000^{2/d}$ times slower than the one before it (10 times for $d = 8$):
# the fast pairs separate neighbouring positions, the slow pairs tell
# position 40 from position 4,000, and together they give every position
# its own reading.

# %%
d_demo = 8
print("wavelengths for d = 8:",
      [round(2 * math.pi * 10000 ** (2 * i / d_demo), 1) for i in range(d_demo // 2)])

# %% [raw]
# # BEGIN QUESTION
# name: sinusoidal_pe

# %% [markdown]
# **Question 1.** Write `sinusoidal_pe(n_pos, d)`. It returns a `float64`
# NumPy array of shape `(n_pos, d)` whose row `p` is $\mathrm{PE}(p)$ for
# `p = 0, ..., n_pos - 1`, with the sine in the even columns and the cosine
# in the odd ones, as in the equation. `d` must be a positive even `int` and
# `n_pos` an `int` $\ge 0$ (`n_pos = 0` gives an empty `(0, d)` array);
# anything else raises `ValueError`. Work in `float64` throughout: the
# hidden tests look at positions in the tens of thousands, where single
# precision has already lost the third decimal.

# %% [raw]
# # BEGIN SOLUTION

# %%
def sinusoidal_pe(n_pos, d):
    """The sinusoidal position table of the original Transformer.

    Args:
        n_pos: number of positions, an int >= 0 (rows 0, ..., n_pos - 1).
        d: model width, a positive even int.

    Returns:
        A float64 array of shape (n_pos, d): sin(p w_i) in column 2i and
        cos(p w_i) in column 2i + 1, with w_i = 10000 ** (-2i / d).

    Raises:
        ValueError: if d is not a positive even int or n_pos not an int >= 0.
    """
    # BEGIN SOLUTION
    if isinstance(d, bool) or not isinstance(d, int) or d <= 0 or d % 2 != 0:
        raise ValueError(f"d must be a positive even int, got {d!r}")
    if isinstance(n_pos, bool) or not isinstance(n_pos, int) or n_pos < 0:
        raise ValueError(f"n_pos must be an int >= 0, got {n_pos!r}")
    positions = np.arange(n_pos, dtype=np.float64).reshape(-1, 1)  # (n_pos, 1)
    omega = 10000.0 ** (-np.arange(0, d, 2, dtype=np.float64) / d)  # (d/2,) one rate per pair
    angles = positions * omega  # (n_pos, d/2)
    table = np.zeros((n_pos, d), dtype=np.float64)
    table[:, 0::2] = np.sin(angles)  # columns 0, 2, 4, ...
    table[:, 1::2] = np.cos(angles)  # columns 1, 3, 5, ...
    return table
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_pe_shape_and_dtype(sinusoidal_pe, np):
    pe = sinusoidal_pe(5, 4)
    assert isinstance(pe, np.ndarray), "sinusoidal_pe should return a numpy array"
    assert pe.shape == (5, 4), f"sinusoidal_pe(5, 4) has shape {pe.shape}, not (5, 4)"
    assert pe.dtype == np.float64, f"sinusoidal_pe(5, 4) has dtype {pe.dtype}, not float64"

# %%
def test_pe_first_rows(sinusoidal_pe, np):
    pe = sinusoidal_pe(2, 2)
    assert isinstance(pe, np.ndarray) and pe.shape == (2, 2), \
        f"sinusoidal_pe(2, 2) should be a (2, 2) numpy array, not {type(pe).__name__}"
    assert np.allclose(pe[0], [0.0, 1.0]), "position 0 should be (sin 0, cos 0) = (0, 1)"
    assert np.allclose(pe[1], [np.sin(1.0), np.cos(1.0)]), \
        "with d = 2, position 1 should be (sin 1, cos 1): the first pair turns at rate 1"

# %%
def test_pe_rejects_odd_width(sinusoidal_pe):
    try:
        sinusoidal_pe(4, 7)
    except ValueError:
        return
    raise AssertionError("sinusoidal_pe(4, 7) should raise ValueError: d must be even")

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# Look at the first rows for $d = 8$. Position 0 is $(0, 1, 0, 1, \dots)$
# because $\sin 0 = 0$ and $\cos 0 = 1$. Down the first pair of columns the
# values swing at every step; in the last pair they barely move.

# %%
np.set_printoptions(precision=3, suppress=True, linewidth=110)
print(sinusoidal_pe(6, 8))

# %% [markdown]
# ### What to verify about the code
#
# A position code is only useful if it has a few properties. Check each of
# them on your own table; every cell below should print `True` or a small
# error.
#
# **1. It is bounded.** Every entry is a sine or a cosine, so it lies in
# $[-1, 1]$ however long the sequence: unlike the raw index $p$, the code
# never swamps the token embedding it is added to. Write such checks so that
# they can fail: `np.abs(pe).all() <= 1` looks similar to the line below but
# compares a single boolean with 1 and is always true.

# %%
pe_long = sinusoidal_pe(1000, 64)
print("all entries in [-1, 1]:", bool(np.abs(pe_long).max() <= 1.0))

# %% [markdown]
# **2. Dot products depend on the offset only.** For one pair,
# $\sin(a)\sin(b) + \cos(a)\cos(b) = \cos(a - b)$, so
#
# $$\mathrm{PE}(p) \cdot \mathrm{PE}(p + k) = \sum_{i=0}^{d/2-1} \cos(k\,\omega_i),$$
#
# which does not contain $p$ at all. The similarity of two positions is a
# function of how far apart they are. At $k = 0$ it is $d/2$ (each pair
# contributes $\cos 0 = 1$). It is not a monotone function of the distance:
# once the fast pairs have turned around, the sum can rise again. For
# $d = 16$ the lesson's table reads 8.000, 7.485, 6.368, 6.137, 3.646,
# 2.699, 3.487 for $k$ = 0, 1, 2, 5, 10, 30, 100 (note the rise at 100),
# the same in every column:

# %%
pe16 = sinusoidal_pe(301, 16)
print("  k   p=0     p=10    p=50    p=200")
for k in (0, 1, 2, 5, 10, 30, 100):
    print(f"{k:3d}  " + "  ".join(f"{pe16[p] @ pe16[p + k]:6.3f}" for p in (0, 10, 50, 200)))

# %% [markdown]
# **3. A shift is one fixed linear map.** The addition formulas
# $\sin(a + b) = \sin a \cos b + \cos a \sin b$ and
# $\cos(a + b) = \cos a \cos b - \sin a \sin b$ say that moving $k$
# positions rotates each (sine, cosine) pair by the angle $k\,\omega_i$.
# So there is one matrix $M_k$, block-diagonal with $2 \times 2$ rotations,
# such that $\mathrm{PE}(p + k) = M_k\,\mathrm{PE}(p)$ for *every* $p$. A
# layer that wants to "look 7 tokens back" can learn that as a linear map of
# the position code. Build $M_7$ from the formula and apply it to 1,000
# positions at once:

# %%
def shift_matrix(k, d):
    """M_k with PE(p + k) = M_k @ PE(p) for every p."""
    m = np.zeros((d, d))
    for i in range(d // 2):
        c, s = math.cos(k * 10000 ** (-2 * i / d)), math.sin(k * 10000 ** (-2 * i / d))
        m[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]  # acts on (sin, cos) of pair i
    return m

# %%
table16 = sinusoidal_pe(1007, 16)
moved = table16[:1000] @ shift_matrix(7, 16).T  # (1000, 16): row p is M_7 PE(p)
print("largest error of M_7 PE(p) against PE(p + 7), p < 1000:",
      f"{np.abs(moved - table16[7:]).max():.1e}")

# %% [markdown]
# The lesson found the same matrix without the formula, by least squares on
# 200 positions, and it predicted 50 unseen positions to about $10^{-8}$.
# The formula gives it exactly.
#
# **4. Every position has its own code.** Among the first 1,000 positions
# at $d = 64$, no two codes are closer than 1.472 (Euclidean distance), so
# no two positions are confused. The pairwise distances come from one
# matrix product, $\lVert a - b \rVert^2 = a\cdot a + b \cdot b - 2\,a \cdot b$.
# Property 2 predicts more: since $\lVert \mathrm{PE}(p) \rVert^2 = d/2$
# for every $p$, the distance between two positions also depends only on
# their offset, so the closest pairs are all the pairs of neighbours, each
# exactly as far apart as the next:

# %%
codes = sinusoidal_pe(1000, 64)
gram = codes @ codes.T  # (1000, 1000) all dot products
sq = np.diag(gram)
dist2 = sq[:, None] + sq[None, :] - 2 * gram  # (1000, 1000) squared distances
np.fill_diagonal(dist2, np.inf)
i, j = np.unravel_index(dist2.argmin(), dist2.shape)  # the closest pair: one square root
print(f"smallest distance between two positions: {math.sqrt(max(dist2[i, j], 0.0)):.3f} "
      f"(for example positions {i} and {j})")
neighbours = np.linalg.norm(codes[1:] - codes[:-1], axis=1)  # (999,) |PE(p+1) - PE(p)|
print(f"every pair of neighbours is that far apart: {neighbours.min():.6f} to {neighbours.max():.6f}")

# %% [markdown]
# Finally, nothing here is learned: the table has no parameters, and it can
# be computed for positions longer than any sequence seen in training.
# (Whether a model then *uses* those positions well is another matter.)
# BERT and GPT made the other choice, a learned table of
# `max_len` $\times\, d$ parameters, which is where the next part begins.

# %% [markdown]
# ## Part 2: counting parameters with PyTorch
#
# A parameter is a number the optimiser may change. In PyTorch it lives in
# an `nn.Parameter`, a tensor registered on a module; a model's size is the
# number of scalars in all of them. Three things make "all of them" less
# obvious than it sounds:
#
# * **Shared (tied) weights.** Many language models use one matrix both as
#   the input embedding table and as the output layer that scores every word
#   (`head.weight = emb.weight`). That is one `Parameter` held by two
#   modules: the optimiser updates it once, and it counts once.
#   `model.parameters()` already yields each `Parameter` object once;
#   walking the modules and adding up what each one holds counts it twice.
# * **Buffers are not parameters.** A module can register tensors that are
#   saved with it but never trained: BatchNorm's running mean and variance,
#   or a fixed sinusoidal table stored with `register_buffer`. They appear in
#   `state_dict()`, which is why summing the state dict overcounts; they
#   never appear in `parameters()`.
# * **Frozen parameters are still parameters.** `p.requires_grad_(False)`
#   stops training a tensor (as when fine-tuning only a head), but the model
#   still holds it. A model's size counts it; the number of *trainable*
#   parameters does not.

# %%
class TiedLanguageModel(nn.Module):
    """An embedding table reused as the output layer, plus a fixed position buffer."""

    def __init__(self, vocab=10, d=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)  # (vocab, d)
        self.head = nn.Linear(d, vocab)  # weight (vocab, d), bias (vocab,)
        self.head.weight = self.emb.weight  # tied: the same Parameter object
        self.register_buffer("positions", torch.zeros(16, d))  # room for a fixed (16, d) table

# %%
tied = TiedLanguageModel()
print("named_parameters():", [n for n, _ in tied.named_parameters()])
print("state_dict() keys: ", list(tied.state_dict()))

# %% [raw]
# # BEGIN QUESTION
# name: count_parameters

# %% [markdown]
# **Question 2.** Write `count_parameters(model, trainable_only=False)`. It
# returns, as an `int`, the number of scalar parameters of the `nn.Module`
# `model`: a parameter shared by several modules counts once, buffers never
# count, and with `trainable_only=True` only parameters with
# `requires_grad` count. Use `p.numel()` for the size of a tensor (the
# hidden tests also pass models whose tensors live on PyTorch's `meta`
# device, which have a shape but no data).

# %% [raw]
# # BEGIN SOLUTION

# %%
def count_parameters(model, trainable_only=False):
    """Number of scalar parameters of a torch module.

    Args:
        model: a torch.nn.Module.
        trainable_only: count only the parameters with requires_grad.

    Returns:
        An int. Shared parameters count once; buffers never count.
    """
    # BEGIN SOLUTION
    total = 0
    for p in model.parameters():  # each Parameter object once, buffers excluded
        if p.requires_grad or not trainable_only:
            total += p.numel()
    return total
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_count_linear(count_parameters, nn):
    import numbers
    n = count_parameters(nn.Linear(3, 2))
    assert isinstance(n, numbers.Integral) and not isinstance(n, bool), \
        f"count_parameters should return an int, not {type(n).__name__}"
    assert n == 8, f"Linear(3, 2) has a 2x3 weight and 2 biases, not {n} parameters"

# %%
def test_count_tied_and_buffer(count_parameters, nn, torch):
    import numbers
    class Tied(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Linear(2, 2, bias=False)
            self.b = nn.Linear(2, 2, bias=False)
            self.b.weight = self.a.weight
            self.register_buffer("table", torch.zeros(5))
    n = count_parameters(Tied())
    assert isinstance(n, numbers.Integral), f"count_parameters should return an int, not {type(n).__name__}"
    plain = count_parameters(nn.Linear(2, 2, bias=False))
    assert plain == 4, f"a 2x2 weight is 4 parameters (count its entries), not {plain}"
    shared = Tied()
    del shared.table
    assert count_parameters(shared) == 4, \
        f"a weight shared by two layers counts once: one 2x2 weight is 4 parameters, not {count_parameters(shared)}"
    assert n == 4, f"a buffer is not a parameter: one shared 2x2 weight and a buffer make 4 parameters, not {n}"

# %%
def test_count_trainable_only(count_parameters, nn):
    import numbers
    layer = nn.Linear(3, 2)
    n = count_parameters(layer)
    assert isinstance(n, numbers.Integral), f"count_parameters should return an int, not {type(n).__name__}"
    assert n == 8, f"Linear(3, 2) has a 2x3 weight and 2 biases, not {n} parameters"
    layer.bias.requires_grad_(False)
    n, trainable = count_parameters(layer), count_parameters(layer, trainable_only=True)
    assert isinstance(n, numbers.Integral) and isinstance(trainable, numbers.Integral), \
        f"count_parameters should return an int, not {type(n).__name__}"
    assert n == 8, "frozen parameters still count by default"
    assert trainable == 6, \
        "with trainable_only=True, the frozen bias should not count"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# The tied model above holds $10 \times 4$ shared weights, 10 output biases
# and a $16 \times 4$ buffer:

# %%
print("parameters:", count_parameters(tied), " (the state dict holds",
      sum(t.numel() for t in tied.state_dict().values()), "numbers)")
tied.emb.weight.requires_grad_(False)
print("trainable after freezing the shared table:", count_parameters(tied, trainable_only=True))

# %% [markdown]
# ## Part 3: an encoder layer, with pen and paper
#
# PyTorch's `nn.TransformerEncoderLayer(d, nhead, d_ff)` is the layer of the
# original Transformer: self-attention and a feed-forward network, each
# wrapped in a residual connection and a LayerNorm. Count its parameters
# component by component, for width $d$ and feed-forward width $d_{ff}$:
#
# | component | what it holds | parameters |
# |---|---|---|
# | self-attention | $W_Q, W_K, W_V, W_O$, each $d \times d$, and a bias of $d$ for each | $4d^2 + 4d$ |
# | feed-forward | $d \to d_{ff}$ and $d_{ff} \to d$ linear maps with biases | $2\,d\,d_{ff} + d_{ff} + d$ |
# | two LayerNorms | a scale $\gamma$ and a shift $\beta$ of $d$ each | $4d$ |
#
# The number of heads does not appear: the heads split the same four
# matrices between them. With the usual $d_{ff} = 4d$ the feed-forward part
# is $8d^2 + 5d$, and the layer holds
#
# $$12\,d^2 + 13\,d,$$
#
# at $d = 512$ that is 3,152,384, or $12.025\,d^2$. The feed-forward network,
# not attention, holds two thirds of it.
#
# **A correction.** The source notes of this unit say an encoder layer has
# "about $8d^2$" parameters. That is wrong, and the notes' own parts show
# it: the attention ($4d^2$) and the feed-forward network ($8d^2$) they list
# already add up to $12d^2$. The $8d^2$ is the feed-forward network alone.
#
# The check below takes PyTorch's layer apart and counts each piece with
# your `count_parameters`:

# %%
d_model = 512
# on the "meta" device (Part 5): shapes without numbers, which is all a count needs
layer = nn.TransformerEncoderLayer(d_model, nhead=8, dim_feedforward=4 * d_model, device="meta")
pieces = {
    "self-attention": count_parameters(layer.self_attn),
    "feed-forward": count_parameters(layer.linear1) + count_parameters(layer.linear2),
    "two LayerNorms": count_parameters(layer.norm1) + count_parameters(layer.norm2),
}
for name, n in pieces.items():
    print(f"{name:15s} {n:>10,}")
total = count_parameters(layer)
print(f"{'whole layer':15s} {total:>10,} = {total / d_model ** 2:.3f} d^2")

# %% [raw]
# # BEGIN QUESTION
# name: encoder_layer_param_count

# %% [markdown]
# **Question 3.** Write `encoder_layer_param_count(d, d_ff=None)`: the
# number of parameters of `torch.nn.TransformerEncoderLayer(d, nhead, d_ff)`
# with its default biases and two LayerNorms, as an `int`, computed from
# the formula (no torch). `d_ff=None` means $4d$. (Careful: PyTorch's own
# default for `dim_feedforward` is 2048, whatever $d$ is; ours is $4d$.) It
# must stay exact for widths far too large to build.

# %% [raw]
# # BEGIN SOLUTION

# %%
def encoder_layer_param_count(d, d_ff=None):
    """Parameters of torch.nn.TransformerEncoderLayer(d, nhead, d_ff), by formula.

    Args:
        d: model width.
        d_ff: feed-forward width; None means 4 * d.

    Returns:
        An int.
    """
    # BEGIN SOLUTION
    if d_ff is None:
        d_ff = 4 * d
    attention = 4 * d * d + 4 * d  # Q, K, V, O projections with biases
    feed_forward = (d * d_ff + d_ff) + (d_ff * d + d)  # two linear layers with biases
    norms = 2 * (2 * d)  # two LayerNorms, gamma and beta each
    return attention + feed_forward + norms
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_encoder_count_small(encoder_layer_param_count, nn):
    import numbers
    expected = sum(p.numel() for p in nn.TransformerEncoderLayer(8, 2, 32).parameters())
    got = encoder_layer_param_count(8)
    assert isinstance(got, numbers.Integral), \
        f"encoder_layer_param_count(8) should be an int, not {type(got).__name__}"
    if got != expected and encoder_layer_param_count(8, 32) == expected:
        raise AssertionError(f"encoder_layer_param_count(8) is {got}, but (8, 32) is right: "
                             "d_ff=None means 4d, here 32")
    assert got == expected, f"encoder_layer_param_count(8) is {got}; torch's layer (8, 2, 32) has " \
        f"{expected}: count every weight and bias of the attention, the feed-forward network and both LayerNorms"

# %%
def test_encoder_count_explicit_width(encoder_layer_param_count, nn):
    import numbers
    expected = sum(p.numel() for p in nn.TransformerEncoderLayer(6, 1, 10).parameters())
    got = encoder_layer_param_count(6, 10)
    assert isinstance(got, numbers.Integral), \
        f"encoder_layer_param_count(6, 10) should be an int, not {type(got).__name__}"
    assert got == expected, f"encoder_layer_param_count(6, 10) is {got}; torch's layer has {expected}: " \
        "count every weight and bias of the attention, the feed-forward network and both LayerNorms"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# ## Part 4: a decoder layer
#
# `nn.TransformerDecoderLayer` has three sub-layers, each with its residual
# connection and its own LayerNorm: masked self-attention over the target,
# *cross-attention* (queries from the decoder, keys and values from the
# encoder's output), and the feed-forward network. Cross-attention has the
# same four $d \times d$ projections and biases as self-attention, so the
# decoder adds $4d^2 + 4d$ for it and $2d$ for the third LayerNorm:
#
# $$\underbrace{2\,(4d^2 + 4d)}_{\text{two attentions}} + \underbrace{2\,d\,d_{ff} + d_{ff} + d}_{\text{feed-forward}} + \underbrace{6d}_{\text{three LayerNorms}},$$
#
# $16\,d^2 + 19\,d$ with $d_{ff} = 4d$: 4,204,032 at $d = 512$, or
# $16.037\,d^2$.

# %% [raw]
# # BEGIN QUESTION
# name: decoder_layer_param_count

# %% [markdown]
# **Question 4.** Write `decoder_layer_param_count(d, d_ff=None)`, the
# same for `torch.nn.TransformerDecoderLayer(d, nhead, d_ff)`: an `int`, by
# formula, with `d_ff=None` meaning $4d$. You may build on
# `encoder_layer_param_count`.

# %% [raw]
# # BEGIN SOLUTION

# %%
def decoder_layer_param_count(d, d_ff=None):
    """Parameters of torch.nn.TransformerDecoderLayer(d, nhead, d_ff), by formula.

    Args:
        d: model width.
        d_ff: feed-forward width; None means 4 * d.

    Returns:
        An int.
    """
    # BEGIN SOLUTION
    cross_attention = 4 * d * d + 4 * d  # queries from the decoder, keys/values from the encoder
    third_norm = 2 * d
    return encoder_layer_param_count(d, d_ff) + cross_attention + third_norm
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_decoder_count_small(decoder_layer_param_count, nn):
    import numbers
    expected = sum(p.numel() for p in nn.TransformerDecoderLayer(8, 2, 32).parameters())
    got = decoder_layer_param_count(8)
    assert isinstance(got, numbers.Integral), \
        f"decoder_layer_param_count(8) should be an int, not {type(got).__name__}"
    if got != expected and decoder_layer_param_count(8, 32) == expected:
        raise AssertionError(f"decoder_layer_param_count(8) is {got}, but (8, 32) is right: "
                             "d_ff=None means 4d, here 32")
    assert got == expected, f"decoder_layer_param_count(8) is {got}; torch's layer (8, 2, 32) has " \
        f"{expected}: count every weight and bias of both attentions, the feed-forward network and the three LayerNorms"

# %%
def test_decoder_count_explicit_width(decoder_layer_param_count, nn):
    import numbers
    expected = sum(p.numel() for p in nn.TransformerDecoderLayer(6, 1, 10).parameters())
    got = decoder_layer_param_count(6, 10)
    assert isinstance(got, numbers.Integral), \
        f"decoder_layer_param_count(6, 10) should be an int, not {type(got).__name__}"
    assert got == expected, f"decoder_layer_param_count(6, 10) is {got}; torch's layer has {expected}: " \
        "count every weight and bias of both attentions, the feed-forward network and the three LayerNorms"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# ## Part 5: whole models, and which figure counts what
#
# A published model size is a sum over components, and two correct figures
# for "the same" model can differ because they add up different
# components. The three cases below are all measured with your two
# functions. To build BERT-sized models without allocating hundreds of
# megabytes, they are created on PyTorch's `meta` device: every tensor has
# its shape but no storage, so counting is instant.
#
# **The base Transformer.** Six encoder and six decoder layers at
# $d = 512$, without the embedding tables. `nn.Transformer` also puts one
# final LayerNorm after each stack, which is where the last 2,048 come from:
# $6 \times 3{,}152{,}384 + 6 \times 4{,}204{,}032 + 2 \times 1{,}024 = 44{,}140{,}544$.

# %%
with torch.device("meta"):
    base = nn.Transformer(d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                          dim_feedforward=2048, batch_first=True)
by_formula = 6 * encoder_layer_param_count(512) + 6 * decoder_layer_param_count(512) + 2 * 2 * 512
print(f"nn.Transformer: {count_parameters(base):,}   formula: {by_formula:,}")

# %% [markdown]
# **The tiny BERT of homework 4.** Token table $100 \times 32$, position
# table $16 \times 32$, two pre-norm layers of width 32 and a $32 \to 2$
# head: $3{,}200 + 512 + 2 \times 12{,}608 + 66 = 28{,}994$. Its layer is
# *not* `nn.TransformerEncoderLayer`: its fused Q/K/V projection has no
# bias, so it holds $3h = 96$ fewer parameters than the formula of Part 3
# ($12{,}704$ at $h = 32$). A formula is only as good as its list of
# components.

# %%
class TinyLayer(nn.Module):
    """hw4's pre-norm layer (parameters only: counting needs no forward)."""

    def __init__(self, h):
        super().__init__()
        self.qkv = nn.Linear(h, 3 * h, bias=False)  # fused Q, K, V without bias
        self.out = nn.Linear(h, h)
        self.ff = nn.Sequential(nn.Linear(h, 4 * h), nn.GELU(), nn.Linear(4 * h, h))
        self.ln1, self.ln2 = nn.LayerNorm(h), nn.LayerNorm(h)

# %%
tiny_parts = {"token table": nn.Embedding(100, 32), "position table": nn.Embedding(16, 32),
              "2 layers": nn.ModuleList([TinyLayer(32), TinyLayer(32)]), "head": nn.Linear(32, 2)}
for name, part in tiny_parts.items():
    print(f"{name:15s} {count_parameters(part):>7,}")
print(f"{'total':15s} {sum(count_parameters(p) for p in tiny_parts.values()):>7,}"
      f"   (one layer by the Part 3 formula: {encoder_layer_param_count(32):,})")

# %% [markdown]
# **BERT-base.** $d = 768$, 12 layers, 12 heads, $d_{ff} = 3072$, a
# vocabulary of 30,522 word pieces, 512 learned positions, 2 segments. The
# course materials quote three sizes for it:
#
# * about **110 million**, the size published with the model;
# * **108.9 million**, from one set of notes, which built 12 torch encoder
#   layers and added the token and position tables;
# * **108,495,360**, "verified" in another.
#
# None is a typo; they count different things. Count every component:

# %%
def table(rows, d):
    """An embedding table on the meta device (from_pretrained skips the random init)."""
    return nn.Embedding.from_pretrained(torch.empty(rows, d, device="meta"), freeze=False)

# %%
with torch.device("meta"):
    bert_parts = {
        "12 encoder layers": nn.TransformerEncoder(
            nn.TransformerEncoderLayer(768, 12, 3072), 12, enable_nested_tensor=False),
        "token table": table(30522, 768),
        "position table": table(512, 768),
        "segment table": table(2, 768),
        "embedding LayerNorm": nn.LayerNorm(768),
        "pooler (768 -> 768)": nn.Linear(768, 768),
    }
bert = {name: count_parameters(part) for name, part in bert_parts.items()}
for name, n in bert.items():
    print(f"{name:20s} {n:>12,}")
print(f"{'all of them':20s} {sum(bert.values()):>12,}")
print("one layer by formula:", f"{encoder_layer_param_count(768, 3072):,}")

# %% [markdown]
# Before running the next cell, try to match each figure to a sum of the
# components above. The answer:
#
# * 108,495,360 is the 12 layers plus the token table only, no position
#   table;
# * 108.9 million (108,888,576) is the 12 layers plus the token and
#   position tables: no segment table, no embedding LayerNorm, no pooler;
# * all six components make 109,482,240, the size of the BERT-base encoder
#   as implementations ship it, which the paper rounds to 110 million.
#
# The pre-training heads add more: the masked-word head has its own
# $768 \times 768$ transform, a LayerNorm and 30,522 output biases, but its
# output matrix is *tied* to the token table and so adds nothing, and the
# next-sentence head is a $768 \to 2$ layer. With them the count is
# 110,106,428. A headline number means little until you know its list of
# components.

# %%
layers, tok, pos = bert["12 encoder layers"], bert["token table"], bert["position table"]
print(f"layers + token table:             {layers + tok:,}")
print(f"layers + token + position tables: {layers + tok + pos:,}")
print(f"all six components:               {sum(bert.values()):,}")
with torch.device("meta"):
    heads = nn.ModuleDict({
        "mlm_transform": nn.Linear(768, 768), "mlm_norm": nn.LayerNorm(768),
        "mlm_output": nn.Linear(768, 30522),  # scores every word piece
        "nsp": nn.Linear(768, 2),
    })
heads["mlm_output"].weight = bert_parts["token table"].weight  # tied: adds only its 30,522 biases
pretraining = nn.ModuleList([*bert_parts.values(), heads])
print(f"with the pre-training heads:      {count_parameters(pretraining):,}")

# %% [markdown]
# You now have a position code you can trust and a way to size any model.
# Run the cell below to check everything, then export and submit.
