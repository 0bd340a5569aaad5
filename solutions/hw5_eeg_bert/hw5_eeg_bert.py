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
# # Homework 5: BERT on EEG
#
# A GPT-style model learns by guessing the *next* token, so it must never
# see the future: its attention carries a causal mask. BERT learns by
# guessing *missing* inputs from everything around them, so it drops the
# mask and reads in both directions. Nothing in that recipe needs words. It
# needs a sequence of vectors, a way to hide some of them, and a loss that
# compares what the model rebuilds with what was hidden. EEG foundation
# models are pre-trained exactly this way, with three substitutions:
#
# | BERT on text | BERT on EEG |
# |---|---|
# | a token id, looked up in an embedding table | a short patch of signal, projected by a matrix |
# | predict the hidden token id (cross-entropy over the vocabulary) | predict the hidden waveform (mean squared error) |
# | a softmax over the vocabulary | a linear reconstruction head |
#
# You will build one forward pass in NumPy, from the raw recording to the
# loss, and then see what the `[CLS]` position is for. Six functions are
# yours:
#
# 1. `patchify(signal, patch_len)`: cut the recording into patches, the "tokens";
# 2. `layer_norm(x, eps=1e-5)`: normalise every row;
# 3. `mask_patches(z, positions, mask_vector)`: hide some positions behind a `[MASK]` vector;
# 4. `bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads)`: attention with no mask;
# 5. `masked_reconstruction_loss(recon, target, masked)`: the MSE on the hidden patches only;
# 6. `cls_probability(h_cls, w, b)`: a classifier read from `[CLS]`.
#
# Each part goes: the idea, the equation, your code, then a check you can
# run. Replace every `...` in the answer cells and keep the names and
# signatures: the autograder calls them by name. `grader.check("<name>")`
# runs a few public checks; the autograder runs many more after you submit.
# This notebook uses NumPy only (PyTorch is not available to it).

# %%
import numpy as np

np.set_printoptions(precision=3, suppress=True, linewidth=110)

# %% [markdown]
# ## Part 0: the signal
#
# Two channels (call them Fp1 and Fp2) of synthetic EEG: one second sampled
# at 64 Hz, so an array of shape `(2, 64)`. Both channels carry a
# background alpha rhythm near 10 Hz. Between samples 24 and 40 a
# *spike-wave* burst is added: a sharp spike followed by a slow wave, the
# kind of event a model of EEG has to represent. The recipe below is
# deterministic, so everyone sees the same numbers.

# %%
FS = 64  # sampling rate (Hz)
N_SAMPLES = 64  # one second
BURST = (24, 40)  # the spike-wave burst covers samples 24..39


def make_eeg(seed=0):
    """(2, 64) synthetic EEG: a 10 Hz alpha rhythm, noise, and a spike-wave burst."""
    rng = np.random.default_rng(seed)
    t = np.arange(N_SAMPLES) / FS  # (64,) seconds
    alpha = np.stack([0.7 * np.sin(2 * np.pi * 10 * t + 0.3),
                      0.5 * np.sin(2 * np.pi * 10 * t + 1.1)])  # (2, 64)
    n = np.arange(N_SAMPLES)
    spike = np.exp(-0.5 * ((n - 28) / 1.5) ** 2)  # sharp peak at sample 28
    wave = -np.sin(np.pi * (n - 31) / 9) * ((n >= 31) & (n < 40))  # slow dip over 31..39
    burst = np.stack([1.0 * spike + 0.6 * wave, 0.7 * spike + 0.5 * wave])  # (2, 64)
    return alpha + burst + 0.05 * rng.normal(size=(2, N_SAMPLES))


eeg = make_eeg()
print("EEG shape:", eeg.shape, "(channels, samples)")
print(f"mean {eeg.mean():+.4f}, std {eeg.std():.4f}")

# %% [markdown]
# ## Part 1: patches are the tokens
#
# A Transformer reads a sequence of vectors. One sample per position would
# give 64 positions that each say almost nothing, and attention costs grow
# with the square of the length. So the recording is cut into
# non-overlapping patches of $L$ samples, and each patch is flattened
# *channel by channel*: first the $L$ samples of channel 0, then the $L$
# samples of channel 1, and so on.
#
# $$\text{patch}_p = \big[\,x_{0,\,pL}, \dots, x_{0,\,pL+L-1},\; x_{1,\,pL}, \dots, x_{1,\,pL+L-1},\; \dots\big] \in \mathbb{R}^{C \cdot L}$$
#
# With $C = 2$ and $L = 8$: 8 patches of 16 values, an array of shape
# `(8, 16)`.

# %% [raw]
# # BEGIN QUESTION
# name: patchify

# %% [markdown]
# **Question 1.** Write `patchify(signal, patch_len)`. `signal` has shape
# `(C, N)`. Return a `float64` array of shape `(N // patch_len, C * patch_len)`
# whose row `p` is the concatenation, channel by channel, of
# `signal[c, p*patch_len:(p+1)*patch_len]`. If `patch_len` is not an `int`,
# is smaller than 1, or does not divide `N`, raise `ValueError` (silently
# dropping samples would hide a bug).

# %% [raw]
# # BEGIN SOLUTION

# %%
def patchify(signal, patch_len):
    """Cut a (C, N) signal into N // patch_len patches, channels concatenated.

    Args:
        signal: array of shape (C, N).
        patch_len: samples per patch, an int >= 1 that divides N.

    Returns:
        A float64 array of shape (N // patch_len, C * patch_len).

    Raises:
        ValueError: if patch_len is not an int >= 1 dividing N.
    """
    # BEGIN SOLUTION
    signal = np.asarray(signal, dtype=np.float64)
    if isinstance(patch_len, bool) or not isinstance(patch_len, (int, np.integer)) or patch_len < 1:
        raise ValueError(f"patch_len must be an int >= 1, got {patch_len!r}")
    C, N = signal.shape
    if N % patch_len:
        raise ValueError(f"patch_len={patch_len} does not divide N={N}")
    P = N // patch_len
    blocks = signal.reshape(C, P, patch_len)  # (C, P, L): block p of channel c
    return blocks.transpose(1, 0, 2).reshape(P, C * patch_len)  # (P, C*L), channel 0 first
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_patchify_shape(patchify, np):
    out = patchify(np.zeros((2, 12)), 4)
    assert isinstance(out, np.ndarray), "patchify should return a numpy array"
    assert out.shape == (3, 8), f"patchify(signal of shape (2, 12), 4) has shape {out.shape}, not (3, 8)"
    assert out.dtype == np.float64, f"the patches have dtype {out.dtype}, not float64"

# %%
def test_patchify_channel_order(patchify, np):
    signal = np.array([[0, 1, 2, 3], [10, 11, 12, 13]])
    out = patchify(signal, 2)
    assert isinstance(out, np.ndarray), f"patchify should return a numpy array, not {type(out).__name__}"
    assert out.tolist() == [[0, 1, 10, 11], [2, 3, 12, 13]], \
        "row p should hold channel 0's samples of patch p, then channel 1's"

# %%
def test_patchify_rejects_remainder(patchify, np):
    try:
        patchify(np.zeros((2, 10)), 4)
    except ValueError:
        return
    raise AssertionError("patchify(signal of shape (2, 10), 4) should raise ValueError")

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **Check.** Patch $p_3$ covers samples 24 to 31 ($t$ = 0.375 s to 0.484 s),
# the spike. Its 16 values are Fp1's 8 samples followed by Fp2's 8. The
# *energy* of a patch (the sum of its squared values) shows where the
# activity is: the burst makes $p_3$ and $p_4$ stand out, as in the lesson
# this homework follows (there: 3.58 and 2.98 against about 2 elsewhere).

# %%
PATCH_LEN = 8
patches = patchify(eeg, PATCH_LEN)  # (8, 16)
print("patches.shape =", patches.shape)
print("p3, Fp1 samples 24..31:", eeg[0, 24:32])
print("p3, Fp2 samples 24..31:", eeg[1, 24:32])
print("p3 flattened          :", patches[3])
print("concatenation matches :", np.array_equal(patches[3], np.concatenate([eeg[0, 24:32], eeg[1, 24:32]])))
for p, energy in enumerate((patches ** 2).sum(axis=1)):
    print(f"p{p}: energy {energy:6.3f} {'#' * int(round(4 * energy))}")

# %% [markdown]
# ## Part 2: embedding, `[CLS]`, positions
#
# Text BERT looks each token id up in a table. A patch is continuous, so it
# is *projected* instead: $E_p = \text{patch}_p W_e + b_e$ with
# $W_e \in \mathbb{R}^{16 \times 8}$, giving $d_{model} = 8$. This linear
# patch embedding is the only change at the input, and it is why the same
# architecture serves signals, images (ViT) and audio.
#
# Two more pieces come unchanged from text BERT:
#
# * **`[CLS]`**, a learned vector put in front of the sequence. It belongs
#   to no patch, so whatever it ends up holding arrived through attention:
#   a summary of the whole recording (Part 6).
# * **Positions.** Attention treats its inputs as a set; without positions
#   a spike at 0.4 s and the same spike at 0.9 s would look identical. The
#   sinusoidal encoding adds $PE_{pos,2i} = \sin(pos / 10000^{2i/d})$ and
#   $PE_{pos,2i+1} = \cos(pos / 10000^{2i/d})$.
#
# $$Z = \big[\texttt{[CLS]};\ E_0;\ \dots;\ E_7\big] + PE \in \mathbb{R}^{9 \times 8}$$
#
# The weights are random (nothing here is trained); they come from one
# seeded generator, in the order written.

# %%
D_MODEL = 8
rng = np.random.default_rng(42)
W_e = rng.uniform(-0.5, 0.5, size=(patches.shape[1], D_MODEL))  # (16, 8)
b_e = np.zeros(D_MODEL)
cls_vector = rng.normal(0.0, 0.3, size=D_MODEL)  # learned in a real model
mask_vector = rng.normal(0.0, 0.3, size=D_MODEL)  # the learned [MASK] vector (Part 3)


def sinusoidal_pe(n_pos, d):
    """(n_pos, d) sinusoidal positional encoding; d even."""
    pos = np.arange(n_pos)[:, None]  # (n_pos, 1)
    freq = 1.0 / 10000 ** (np.arange(0, d, 2) / d)  # (d/2,)
    pe = np.zeros((n_pos, d))
    pe[:, 0::2] = np.sin(pos * freq)
    pe[:, 1::2] = np.cos(pos * freq)
    return pe


E_patch = patches @ W_e + b_e  # (8, 16) @ (16, 8) -> (8, 8)
PE = sinusoidal_pe(1 + len(patches), D_MODEL)  # (9, 8)
Z0 = np.vstack([cls_vector, E_patch]) + PE  # (9, 8): [CLS] first
print("PE row 0 ([CLS]):", PE[0])
print("PE row 1 (p0)   :", PE[1])
print("Z0.shape =", Z0.shape)

# %% [markdown]
# Row 0 of the encoding is $[0, 1, 0, 1, \dots]$ ($\sin 0$ and $\cos 0$) and
# row 1 is $[0.841, 0.540, 0.100, 0.995, 0.010, 1.000, 0.001, 1.000]$, the
# same rows as in the lesson: they depend only on the position and $d$.

# %% [markdown]
# ## Part 3: layer normalisation
#
# The encoder block normalises after each sub-layer. Layer norm works on
# each row (each position) on its own, using only that row's $d$ numbers:
#
# $$\mu = \frac{1}{d}\sum_j x_j, \qquad \sigma^2 = \frac{1}{d}\sum_j (x_j - \mu)^2, \qquad \mathrm{LN}(x) = \frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}}$$
#
# $\sigma^2$ is the *population* variance (divide by $d$, not $d - 1$), and
# $\epsilon = 10^{-5}$ sits inside the square root, so a constant row gives
# zeros instead of a division by zero. A trained model follows this with a
# learned scale $\gamma$ and shift $\beta$; at initialisation they are 1 and
# 0, which is what we use.

# %% [raw]
# # BEGIN QUESTION
# name: layer_norm

# %% [markdown]
# **Question 2.** Write `layer_norm(x, eps=1e-5)`: normalise every row of
# `x` over its last axis as in the equation (population variance, `eps`
# added to the variance inside the square root, no scale or shift). `x` may
# have any number of leading dimensions.

# %% [raw]
# # BEGIN SOLUTION

# %%
def layer_norm(x, eps=1e-5):
    """Normalise each row over the last axis to mean 0 and variance 1.

    Args:
        x: array of shape (..., d).
        eps: added to the variance inside the square root.

    Returns:
        A float64 array of the same shape.
    """
    # BEGIN SOLUTION
    x = np.asarray(x, dtype=np.float64)
    mu = x.mean(axis=-1, keepdims=True)  # (..., 1)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)  # (..., 1), divides by d
    return (x - mu) / np.sqrt(var + eps)
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_layer_norm_rows(layer_norm, np):
    y = layer_norm(np.array([[1.0, 2.0, 3.0, 4.0], [10.0, 10.0, 10.0, 14.0]]))
    assert isinstance(y, np.ndarray), f"layer_norm should return a numpy array, not {type(y).__name__}"
    assert y.shape == (2, 4), f"layer_norm kept the shape (2, 4)? got {y.shape}"
    assert np.allclose(y.mean(axis=1), 0.0), "every row should have mean 0"
    assert np.allclose(y.std(axis=1), 1.0, atol=1e-4), "every row should have standard deviation 1 (dividing by n, as np.std does)"

# %%
def test_layer_norm_constant_row(layer_norm, np):
    y = layer_norm(np.full((1, 4), 5.0))
    assert isinstance(y, np.ndarray) and y.shape == (1, 4), \
        f"layer_norm should return a numpy array of its input's shape, not {type(y).__name__}"
    assert np.all(np.isfinite(y)), f"a constant row gave {y.tolist()}: eps keeps the division finite"
    assert np.allclose(y, 0.0), "a constant row should become zeros"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **Check.** After normalisation every row of $Z_0$ has mean 0 and
# standard deviation 1 (up to the tiny $\epsilon$).

# %%
Z_ln = layer_norm(Z0)
print("row means:", Z_ln.mean(axis=1))
print("row stds :", Z_ln.std(axis=1))

# %% [markdown]
# ## Part 4: masking
#
# BERT's training signal comes from hiding part of the input. A fraction of
# the positions is chosen, and each chosen row is *replaced* by one learned
# `[MASK]` vector; the true patches are kept aside as the targets. Here 25%
# of the 8 patches, i.e. 2, are hidden: $p_3$ (the spike) and $p_7$, which
# sit at sequence positions 4 and 8 because `[CLS]` occupies position 0.
#
# Text BERT applies an 80/10/10 rule to its chosen positions (80% become
# `[MASK]`, 10% a random token, 10% stay unchanged) because `[MASK]` never
# appears once the model is in use: the unchanged slice forces it to keep a
# good representation of every position. This homework keeps the simplest
# version: every chosen position becomes `[MASK]`.

# %% [raw]
# # BEGIN QUESTION
# name: mask_patches

# %% [markdown]
# **Question 3.** Write `mask_patches(z, positions, mask_vector)`. Return a
# *copy* of `z` (shape `(T, d)`) whose rows at `positions` (a list, tuple or
# integer array of row indices) are replaced by `mask_vector` (shape
# `(d,)`). Never modify `z` itself: the unmasked sequence is still needed.

# %% [raw]
# # BEGIN SOLUTION

# %%
def mask_patches(z, positions, mask_vector):
    """Replace the rows of z at `positions` by mask_vector, in a copy.

    Args:
        z: array of shape (T, d).
        positions: row indices to hide.
        mask_vector: array of shape (d,).

    Returns:
        A new array of shape (T, d); z is unchanged.
    """
    # BEGIN SOLUTION
    out = np.array(z, copy=True)
    out[np.asarray(positions, dtype=np.int64)] = mask_vector  # broadcast over the chosen rows
    return out
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_mask_patches_rows(mask_patches, np):
    z = np.zeros((4, 3))
    out = mask_patches(z, [1, 3], np.array([7.0, 8.0, 9.0]))
    assert isinstance(out, np.ndarray), f"mask_patches should return a numpy array, not {type(out).__name__}"
    assert out.shape == (4, 3), f"the result has shape {out.shape}, not (4, 3)"
    assert out[1].tolist() == [7.0, 8.0, 9.0] and out[3].tolist() == [7.0, 8.0, 9.0], \
        "rows 1 and 3 should equal the mask vector"
    assert out[0].tolist() == [0.0] * 3 and out[2].tolist() == [0.0] * 3, "other rows must not change"

# %%
def test_mask_patches_copy(mask_patches, np):
    z = np.zeros((3, 2))
    mask_patches(z, [0], np.ones(2))
    assert np.all(z == 0.0), "mask_patches modified its input z; work on a copy"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **Check.** Only rows 4 and 8 change; the targets are the original
# patches $p_3$ and $p_7$, shape `(2, 16)`.

# %%
MASKED_SEQ = [4, 8]  # sequence positions (0 is [CLS])
MASKED_PATCHES = [p - 1 for p in MASKED_SEQ]  # patch numbers p3, p7
Z = mask_patches(Z0, MASKED_SEQ, mask_vector)
print("rows changed:", np.where(np.any(Z != Z0, axis=1))[0].tolist())
targets = patches[MASKED_PATCHES]
print("targets.shape =", targets.shape)

# %% [markdown]
# ## Part 5: bidirectional self-attention
#
# This is the difference that defines BERT. A causal model adds a mask $M$
# with $-\infty$ above the diagonal before the softmax. BERT adds nothing:
#
# $$A_i = \mathrm{softmax}\!\left(\frac{Q_i K_i^\top}{\sqrt{d_k}}\right), \qquad Q = ZW_Q,\ K = ZW_K,\ V = ZW_V,$$
#
# so the masked patch $p_3$ is rebuilt from the signal both *before* and
# *after* it. With $h$ heads, head $i$ uses the columns
# $[i\,d_k, (i+1)\,d_k)$ of $Q$, $K$ and $V$, where $d_k = d/h$; each head
# outputs $A_i V_i$ of shape $(T, d_k)$, the heads are concatenated in
# order back to $(T, d)$ and mixed by $W_O$.
#
# The softmax of a row $s$ is $e^{s_j} / \sum_{j'} e^{s_{j'}}$; computed as
# written it overflows once a score passes about 709. Subtracting the row
# maximum first changes nothing mathematically (the factor cancels) and
# keeps every exponent $\le 0$.

# %% [raw]
# # BEGIN QUESTION
# name: bidirectional_self_attention

# %% [markdown]
# **Question 4.** Write `bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads)`.
# `x` has shape `(T, d)` and each `W` shape `(d, d)`; `heads` divides `d`.
# Return `(out, weights)`: `weights` of shape `(heads, T, T)` with
# `weights[i]` the softmax above for head `i` (no mask), and `out` of shape
# `(T, d)`, the heads' outputs concatenated in order and multiplied by `Wo`.
# It must stay finite for scores in the thousands.

# %% [raw]
# # BEGIN SOLUTION

# %%
def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    """Multi-head self-attention without a mask.

    Args:
        x: array of shape (T, d).
        Wq, Wk, Wv, Wo: arrays of shape (d, d).
        heads: number of heads; head i uses columns [i*d/heads, (i+1)*d/heads).

    Returns:
        (out, weights) of shapes (T, d) and (heads, T, T).
    """
    # BEGIN SOLUTION
    T, d = x.shape
    d_k = d // heads
    split = lambda m: m.reshape(T, heads, d_k).transpose(1, 0, 2)  # (heads, T, d_k)
    q, k, v = split(x @ Wq), split(x @ Wk), split(x @ Wv)
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(d_k)  # (heads, T, T)
    scores = scores - scores.max(axis=-1, keepdims=True)  # stable softmax
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    concat = (weights @ v).transpose(1, 0, 2).reshape(T, d)  # (T, heads*d_k), heads in order
    return concat @ Wo, weights
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_attention_shapes(bidirectional_self_attention, np):
    x, W = np.ones((5, 4)), np.eye(4)
    result = bidirectional_self_attention(x, W, W, W, W, 2)
    assert isinstance(result, tuple) and len(result) == 2, "return the pair (out, weights)"
    out, weights = result
    assert isinstance(out, np.ndarray) and isinstance(weights, np.ndarray), \
        f"out and weights should be numpy arrays, not {type(out).__name__} and {type(weights).__name__}"
    assert out.shape == (5, 4), f"out has shape {out.shape}, not (5, 4)"
    assert weights.shape == (2, 5, 5), f"weights has shape {weights.shape}, not (2, 5, 5)"

# %%
def test_attention_equal_scores(bidirectional_self_attention, np):
    x = np.ones((3, 2))
    result = bidirectional_self_attention(x, np.eye(2), np.eye(2), np.eye(2), np.eye(2), 1)
    assert isinstance(result, tuple) and len(result) == 2, "return the pair (out, weights)"
    out, weights = (np.asarray(r, dtype=float) for r in result)
    assert out.shape == (3, 2) and weights.shape == (1, 3, 3), "out should be (3, 2) and weights (1, 3, 3)"
    assert np.allclose(weights, 1 / 3), "equal scores should give weights of 1/3 everywhere, future included"
    assert np.allclose(out, 1.0), "out should be the average of the value rows"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **Check: what the lesson verifies.** Two heads of width 4 on our masked
# sequence: every row of weights sums to 1, and every entry *above* the
# diagonal (a position attending to a later one) is non-zero. Then the same
# scores with a causal mask, as a GPT-style model would use them: the
# number of keys each query can use grows 1, 2, ..., 9 instead of 9
# everywhere.

# %%
HEADS = 2
Wq, Wk, Wv, Wo = (rng.uniform(-0.6, 0.6, size=(D_MODEL, D_MODEL)) for _ in range(4))
attn_out, A = bidirectional_self_attention(Z, Wq, Wk, Wv, Wo, HEADS)
above = A[:, np.triu_indices(9, k=1)[0], np.triu_indices(9, k=1)[1]]
print("weights shape:", A.shape)
print("every row sums to 1:", np.allclose(A.sum(axis=-1), 1.0))
print("every entry above the diagonal is non-zero:", bool(np.all(above > 0)),
      f"(smallest {above.min():.4f})")

q0 = (Z @ Wq)[:, :4]
k0 = (Z @ Wk)[:, :4]
causal_scores = q0 @ k0.T / 2.0 + np.triu(np.full((9, 9), -np.inf), k=1)
causal = np.exp(causal_scores - causal_scores.max(axis=1, keepdims=True))
causal /= causal.sum(axis=1, keepdims=True)
print("non-zero weights per query, head 0:  BERT", (A[0] > 0).sum(axis=1).tolist(),
      " causal", (causal > 0).sum(axis=1).tolist())

# %% [markdown]
# **One row by hand.** The lesson works one softmax row out in full: the
# masked patch $p_3$ (position 4) as the query, with scaled scores
# $s = [0.189236, -0.504971, 0.410514, 0.938971, 0.543256, 0.450082, 0.043121, 0.401259, 0.216020]$.
# Subtract the maximum $m = 0.938971$, exponentiate, divide by the sum
# $Z = 5.062170$: the weights are
# $[0.093338, 0.046619, 0.116455, 0.197544, 0.132986, 0.121155, 0.080649, 0.115382, 0.095872]$.

# %%
s = np.array([0.189236, -0.504971, 0.410514, 0.938971, 0.543256, 0.450082, 0.043121, 0.401259, 0.216020])
e = np.exp(s - s.max())
print(f"Z = {e.sum():.5f}")  # the scores are rounded to 6 decimals: expect agreement to about 5
print("weights:", " ".join(f"{w:.5f}" for w in e / e.sum()))

# %% [markdown]
# ## Part 6: the encoder block, the reconstruction head and the loss
#
# The rest of the block is the standard (post-norm) encoder:
# $Z_1 = \mathrm{LN}(Z + \mathrm{attn}(Z))$, then a feed-forward network
# $8 \to 16 \to 8$ with a ReLU, and $H = \mathrm{LN}(Z_1 + \mathrm{FFN}(Z_1))$.
# Nothing in it is specific to BERT.
#
# Text BERT would end with a softmax over its vocabulary. A signal has no
# vocabulary, so a linear head maps each patch position of $H$ back to the
# 16 values of a patch, $\hat{p}_i = H_i W_r + b_r$, and the loss is a mean
# squared error *on the masked patches only*:
#
# $$\mathcal{L} = \frac{1}{|\mathcal{M}|}\sum_{i\in\mathcal{M}} \frac{1}{C L}\sum_{j=1}^{C L} (\hat{p}_{ij} - p_{ij})^2$$
#
# Unmasked patches were handed to the model as input: rebuilding them would
# be copying, not learning, so they never count.
#
# A note on the lesson: it writes the loss with a squared norm
# $\lVert \hat{p}_i - p_i \rVert^2$ (a *sum* over the 16 values), but every
# number it prints divides that sum by 16 (for $p_3$: 21.803068 / 16 =
# 1.362692). The printed numbers are right; the formula is missing the
# $1/(CL)$, which is the per-row mean written above.

# %% [raw]
# # BEGIN QUESTION
# name: masked_reconstruction_loss

# %% [markdown]
# **Question 5.** Write `masked_reconstruction_loss(recon, target, masked)`.
# `recon` and `target` have shape `(P, L)` (one row per patch); `masked` is
# a sequence of row indices (a list, tuple or integer array). Return, as a
# float, the mean over the masked rows of each row's mean squared error.
# Rows not in `masked` must not influence the result. If `masked` is empty,
# raise `ValueError` (a mean over nothing is undefined).

# %% [raw]
# # BEGIN SOLUTION

# %%
def masked_reconstruction_loss(recon, target, masked):
    """Mean over the masked rows of each row's mean squared error.

    Args:
        recon: array of shape (P, L), the reconstruction.
        target: array of shape (P, L), the true patches.
        masked: row indices that count.

    Returns:
        The loss, a float.

    Raises:
        ValueError: if masked is empty.
    """
    # BEGIN SOLUTION
    rows = np.asarray(list(masked), dtype=np.int64)
    if rows.size == 0:
        raise ValueError("no masked rows")
    row_mse = ((recon[rows] - target[rows]) ** 2).mean(axis=1)  # (|M|,)
    return float(row_mse.mean())
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_loss_small_example(masked_reconstruction_loss, np):
    recon = np.array([[1.0, 1.0], [0.0, 0.0], [3.0, 1.0]])
    target = np.zeros((3, 2))
    loss = masked_reconstruction_loss(recon, target, [0, 2])
    assert isinstance(loss, (int, float, np.integer, np.floating)), \
        f"the loss should be a float, not {type(loss).__name__}"
    assert np.isclose(loss, (1.0 + 5.0) / 2), f"loss is {loss}; rows 0 and 2 have MSEs 1 and 5: their mean is 3"

# %%
def test_loss_ignores_other_rows(masked_reconstruction_loss, np):
    recon, target = np.zeros((3, 2)), np.zeros((3, 2))
    recon[1] = 100.0
    loss = masked_reconstruction_loss(recon, target, [0, 2])
    assert isinstance(loss, (int, float, np.integer, np.floating)), \
        f"the loss should be a float, not {type(loss).__name__}"
    assert loss == 0.0, "row 1 is not masked: it must not count"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **Check: an untrained model.** With random weights the reconstruction
# has nothing to do with the target, so it should do no better than a
# trivial baseline that predicts, for every hidden value, the mean of the
# hidden values (its loss is their variance). The lesson's figures: 1.355886
# for its random model, the mean of the two row losses 1.362692 and
# 1.349081, against 0.492816 for the baseline. Ours differ in the digits
# (our signal and weights are our own) but not in the conclusion. What is
# shown is the mechanism; training is what would close the gap.

# %%
D_FF = 16
W1 = rng.uniform(-0.5, 0.5, size=(D_MODEL, D_FF))
W2 = rng.uniform(-0.5, 0.5, size=(D_FF, D_MODEL))
W_r = rng.uniform(-0.5, 0.5, size=(D_MODEL, patches.shape[1]))  # reconstruction head (8 -> 16)

Z1 = layer_norm(Z + attn_out)  # Add & Norm 1
H = layer_norm(Z1 + np.maximum(Z1 @ W1, 0.0) @ W2)  # Add & Norm 2: encoder output (9, 8)
recon = H[1:] @ W_r  # patch positions only: (8, 16)

loss = masked_reconstruction_loss(recon, patches, MASKED_PATCHES)
baseline = masked_reconstruction_loss(np.full_like(patches, targets.mean()), patches, MASKED_PATCHES)
print("per-row MSE of the masked patches:",
      [round(float(((recon[p] - patches[p]) ** 2).mean()), 6) for p in MASKED_PATCHES])
print(f"untrained model loss       : {loss:.6f}")
print(f"predict-the-mean baseline  : {baseline:.6f}")
print("no better than the baseline:", loss >= baseline)

# %% [markdown]
# ## Part 7: what `[CLS]` is for
#
# After pre-training the reconstruction head is thrown away; the encoder is
# kept. A downstream task, say "does this recording contain a seizure?",
# reads row 0 of $H$, the `[CLS]` position:
#
# $$P(\text{seizure}) = \sigma\big(H_{\texttt{[CLS]}} \cdot w + b\big), \qquad \sigma(z) = \frac{1}{1 + e^{-z}}$$
#
# `[CLS]` began as the same learned vector for every recording; everything
# that distinguishes one recording's `[CLS]` from another's arrived through
# its attention row.
#
# $\sigma$ is another place where a formula that is right on paper fails in
# floating point: $e^{-z}$ overflows for $z < -709$, and $e^{z} / (1 + e^{z})$
# turns into $\infty / \infty$ for large $z$. Use the form whose exponent is
# never positive: $1/(1 + e^{-z})$ for $z \ge 0$ and $e^{z}/(1 + e^{z})$ for
# $z < 0$.

# %% [raw]
# # BEGIN QUESTION
# name: cls_probability

# %% [markdown]
# **Question 6.** Write `cls_probability(h_cls, w, b)`: return
# `sigmoid(h_cls . w + b)` as a float. It must be finite and within
# `[0, 1]` for any finite input, including logits of $\pm 1000$.

# %% [raw]
# # BEGIN SOLUTION

# %%
def cls_probability(h_cls, w, b):
    """sigmoid(h_cls . w + b), computed without overflow.

    Args:
        h_cls: array of shape (d,), the [CLS] row of the encoder output.
        w: array of shape (d,).
        b: a float.

    Returns:
        A probability, a float in [0, 1].
    """
    # BEGIN SOLUTION
    z = float(np.dot(h_cls, w) + b)
    if z >= 0:
        return 1.0 / (1.0 + np.exp(-z))
    e = np.exp(z)  # z < 0: no overflow
    return float(e / (1.0 + e))
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_cls_probability_zero(cls_probability, np):
    p = cls_probability(np.zeros(4), np.ones(4), 0.0)
    assert isinstance(p, (int, float, np.integer, np.floating)), \
        f"at a logit of exactly 0 the probability should be a float, not {type(p).__name__}"
    assert np.isclose(p, 0.5), f"sigmoid(0) is 0.5, got {p}"

# %%
def test_cls_probability_extremes(cls_probability, np):
    for z in (1000.0, -1000.0):
        try:
            p = cls_probability(np.array([1.0]), np.array([z]), 0.0)
        except OverflowError as exc:
            raise AssertionError(f"a logit of {z} raised OverflowError ({exc}): "
                                 "the sigmoid must stay finite for large logits") from exc
        assert isinstance(p, (int, float, np.integer, np.floating)), \
        f"the probability should be a float, not {type(p).__name__}"
        assert np.isfinite(p) and 0.0 <= p <= 1.0, f"a logit of {z} gave {p}, not a probability"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **Check.** The lesson's `[CLS]` row and classifier weights (printed to 4
# decimals, $b = 0$) give a logit of about 0.463 and
# $P(\text{seizure}) = \sigma(0.463005) = 0.613727$ (0.6137 from the rounded
# inputs). Then our own `[CLS]`
# and the attention row it was built from (head 0): 9 positive weights,
# one per position.

# %%
h_cls_lesson = np.array([-0.3946, 1.3115, -0.2359, -0.2945, -1.8269, -0.2055, 1.6127, 0.0333])
w_lesson = np.array([-0.0796, 0.4269, 0.0815, 0.1528, 0.1913, 0.0470, 0.1838, -0.0418])
print(f"lesson: P(seizure) = {cls_probability(h_cls_lesson, w_lesson, 0.0):.4f}")  # 4-decimal inputs
w_c = rng.uniform(-0.5, 0.5, size=D_MODEL)
print(f"ours:   P(seizure) = {cls_probability(H[0], w_c, 0.0):.6f}")
print("[CLS] attention row (head 0):", np.round(A[0, 0], 4), "sum", round(float(A[0, 0].sum()), 6))

# %% [markdown]
# ## Summary
#
# | stage | operation | shape |
# |---|---|---|
# | raw EEG | 2 channels x 64 samples | (2, 64) |
# | patches | 8 patches of 8 samples, channels concatenated | (8, 16) |
# | embedding | $\text{patch}\,W_e + b_e$ | (8, 8) |
# | `[CLS]` + positions | prepend, add $PE$ | (9, 8) |
# | masking | positions 4 and 8 become `[MASK]` | (9, 8) |
# | self-attention | no mask: every query sees all 9 positions | weights (2, 9, 9) |
# | encoder output $H$ | attention and FFN, each with Add & Norm | (9, 8) |
# | reconstruction | $H_{1:} W_r$ | (8, 16) |
# | loss | MSE on the masked patches only | scalar |
#
# Remove the causal mask and the model stops being a generator and becomes
# an encoder: it no longer predicts what comes next, it rebuilds what is
# missing from both sides. Left out here: stacked layers, learned positions,
# the stochastic 80/10/10 corruption, GELU, dropout and any training.
# Run the cell below to check everything, then export and submit.
