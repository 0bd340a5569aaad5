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
# # Homework 6: the encoder-decoder as a prefix language model
#
# The original Transformer (Vaswani et al., 2017) has two stacks: an
# *encoder* that reads a source sequence in both directions, and a
# *decoder* that writes a target sequence one token at a time, reading the
# encoder's output through *cross-attention*. It was built for
# translation, but nothing in it cares what the two sequences are. Here the
# encoder reads the first 9 tokens of a sentence (the *prefix*) and the
# decoder must continue it:
#
# | part | tokens | goes to |
# |---|---|---|
# | prefix $x$ | the cat sat on the mat and was looking | encoder (9 positions) |
# | continuation $y$ | at a tiny mouse running by | decoder (7 positions: `<sos>` + 6 words) |
#
# The decoder's job is to produce `at a tiny mouse running by <eos>`, each
# token conditioned on the prefix and on the tokens before it:
#
# $$P(y_1, \dots, y_n \mid x) = \prod_{t=1}^{n} P(y_t \mid y_{<t},\, x)$$
#
# You will write six pieces of it, in NumPy:
#
# 1. `xavier_uniform(fan_in, fan_out, rng)`: weights that do not explode;
# 2. `teacher_forcing(continuation, sos_id, eos_id)`: the decoder's input and labels (shift right);
# 3. `cross_attention(y, h, Wq, Wk, Wv, Wo, heads)`: the decoder reading the encoder;
# 4. `sequence_cross_entropy(logits, labels)`: the training loss;
# 5. `greedy_decode(step, sos_id, eos_id, max_len)`: the generation loop;
# 6. `sample_next(logits, temperature, rng, top_k=None)`: sampling with temperature and top-k.
#
# The weights are random: the model is untrained and its predictions are
# meaningless. What matters is that every shape and every number is
# computed the right way. Replace every `...` in the answer cells and keep
# the names and signatures: the autograder calls them by name.
# `grader.check("<name>")` runs a few public checks; many more run after you
# submit. This notebook uses NumPy only (PyTorch is not available to it).

# %%
import math

import numpy as np

np.set_printoptions(precision=3, suppress=True, linewidth=110)

# %% [markdown]
# ## Part 0: sizes and token ids
#
# One vocabulary of $V = 500$ ids serves both halves (they are halves of
# the same sentence). Ids 0, 1 and 2 are reserved for `<pad>`, `<sos>`
# (start of sequence) and `<eos>` (end of sequence); the words got
# arbitrary ids in $[50, 500)$, as a tokenizer would give them. The
# repeated word "the" has the same id at both of its positions.

# %%
V = 500  # vocabulary size
D_MODEL = 8  # model width
HEADS = 2  # attention heads; d_k = D_MODEL / HEADS = 4
D_FF = 32  # feed-forward width, 4 * D_MODEL
PAD, SOS, EOS = 0, 1, 2

word_ids = {"the": 83, "cat": 168, "sat": 458, "on": 328, "mat": 421, "and": 185, "was": 276,
            "looking": 274, "at": 127, "a": 340, "tiny": 68, "mouse": 57, "running": 412, "by": 322}
prefix = "the cat sat on the mat and was looking".split()
continuation = "at a tiny mouse running by".split()
src_ids = [word_ids[w] for w in prefix]  # 9 ids for the encoder
cont_ids = [word_ids[w] for w in continuation]  # 6 ids the decoder must produce
print("prefix ids      :", src_ids)
print("continuation ids:", cont_ids)

# %% [markdown]
# ## Part 1: initialisation that does not explode
#
# Suppose every weight is drawn from $U(0, 1)$: all positive, mean 0.5. For
# $y = xW$ with $W \in \mathbb{R}^{8 \times 8}$, each output is a sum of 8
# products, so once the entries of $x$ share a sign,
# $\mathbb{E}[y] \approx 8 \cdot 0.5 \cdot \mathbb{E}[x] = 4\,\mathbb{E}[x]$:
# every matrix product multiplies the signal by about 4. Eight products in a
# row, with no layer norm to re-centre it, give a factor of about
# $4^8 = 65\,536$. Worse, every row is pushed along the same all-positive
# direction, so the rows become nearly parallel: the tokens lose their
# identity.
#
# Xavier (Glorot) initialisation centres the weights and picks their range
# so that a product keeps the variance of its input:
#
# $$W_{ij} \sim U(-a, a), \qquad a = \sqrt{\frac{6}{fan_{in} + fan_{out}}}$$
#
# ($U(-a, a)$ has variance $a^2/3 = 2/(fan_{in} + fan_{out})$, one over the
# average fan: a compromise between $1/fan_{in}$, which preserves the
# forward signal, and $1/fan_{out}$, which preserves the gradients. For a
# square $8 \times 8$ matrix it is exactly $1/8$, and
# $\mathrm{Var}(y) = 8 \cdot \tfrac{1}{8}\,\mathrm{Var}(x) = \mathrm{Var}(x)$.)
#
# Randomness here always comes from an explicit generator,
# `rng = np.random.default_rng(seed)`, passed in as an argument: the same
# seed gives the same weights, and nothing depends on hidden global state.

# %% [raw]
# # BEGIN QUESTION
# name: xavier_uniform

# %% [markdown]
# **Question 1.** Write `xavier_uniform(fan_in, fan_out, rng)`: a `float64`
# array of shape `(fan_in, fan_out)` drawn from $U(-a, a)$ with $a$ as above,
# using only `rng` (a `np.random.Generator`; never `np.random.*`).

# %% [raw]
# # BEGIN SOLUTION

# %%
def xavier_uniform(fan_in, fan_out, rng):
    """Xavier/Glorot uniform weights.

    Args:
        fan_in: number of inputs (rows).
        fan_out: number of outputs (columns).
        rng: a np.random.Generator, the only source of randomness.

    Returns:
        A float64 array of shape (fan_in, fan_out) drawn from U(-a, a),
        a = sqrt(6 / (fan_in + fan_out)).
    """
    # BEGIN SOLUTION
    a = math.sqrt(6.0 / (fan_in + fan_out))
    return rng.uniform(-a, a, size=(fan_in, fan_out))
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_xavier_shape_and_range(xavier_uniform, np):
    w = xavier_uniform(3, 5, np.random.default_rng(0))
    assert isinstance(w, np.ndarray) and w.shape == (3, 5), \
        f"expected an array of shape (fan_in, fan_out) = (3, 5), not {getattr(w, 'shape', type(w).__name__)}"
    assert w.dtype == np.float64, f"dtype {w.dtype}, not float64"
    assert np.all(np.abs(w) <= np.sqrt(6 / 8)), "every weight must lie in [-a, a], a = sqrt(6 / (fan_in + fan_out))"

# %%
def test_xavier_same_seed_same_weights(xavier_uniform, np):
    a = xavier_uniform(4, 4, np.random.default_rng(7))
    b = xavier_uniform(4, 4, np.random.default_rng(7))
    assert np.array_equal(a, b), "two generators with the same seed must give the same weights: use rng only"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **Check.** Eight chained products of an `(9, 8)` input, no layer norm,
# with both initialisations. "Alignment" is the mean $|\cos|$ between two
# different rows: near 1 means every row points along the same line, so the
# 9 tokens have become indistinguishable. (The lesson this homework follows measured a mean |value| of
# 33 139 with $U(0, 1)$ against 0.25 with Xavier; the exact figures depend
# on the draw, the orders of magnitude do not.)

# %%
def chain(weights, x):
    for W in weights:
        x = x @ W
    return x


demo_rng = np.random.default_rng(0)
x_demo = demo_rng.normal(size=(9, D_MODEL))
for name, weights in (("U(0, 1)", [demo_rng.random((D_MODEL, D_MODEL)) for _ in range(8)]),
                      ("Xavier ", [xavier_uniform(D_MODEL, D_MODEL, demo_rng) for _ in range(8)])):
    out = chain(weights, x_demo)
    unit = out / np.linalg.norm(out, axis=1, keepdims=True)  # (9, 8) rows of length 1
    cos = np.abs(unit @ unit.T)[np.triu_indices(len(out), k=1)]  # |cos| of each pair of rows
    print(f"{name}: mean |value| = {np.abs(out).mean():12.4f}   row alignment = {cos.mean():.4f}")
print("4 ** 8 =", 4 ** 8)

# %% [markdown]
# ## Part 2: embeddings, scaled, plus positions
#
# The embedding table $E \in \mathbb{R}^{V \times d_{model}}$ turns an id
# into a row. Its entries are drawn with standard deviation
# $1/\sqrt{d_{model}}$, so a row has length about 1; the paper multiplies
# the looked-up rows by $\sqrt{d_{model}}$ (its section 3.4), which brings
# each entry to a scale of about 1, the scale of the sinusoidal positional
# encoding added next. Without the factor the positions would drown the
# token identity. The two "the" get different input vectors only because
# of the positions.
#
# $$X = E[\text{ids}] \cdot \sqrt{d_{model}} + PE$$
#
# The same table is used again at the very end, as the output projection
# (*weight tying*): the logit of token $v$ is the inner product of the
# decoder's output with row $v$ of $E$.

# %%
rng = np.random.default_rng(2017)
E = rng.normal(0.0, 1.0 / math.sqrt(D_MODEL), size=(V, D_MODEL))  # (500, 8), tied with the output


def sinusoidal_pe(n_pos, d):
    """(n_pos, d): sin on even columns, cos on odd columns."""
    pos = np.arange(n_pos)[:, None]  # (n_pos, 1)
    freq = 1.0 / 10000 ** (np.arange(0, d, 2) / d)  # (d/2,)
    pe = np.zeros((n_pos, d))
    pe[:, 0::2] = np.sin(pos * freq)
    pe[:, 1::2] = np.cos(pos * freq)
    return pe


def embed(ids):
    """(n,) ids -> (n, D_MODEL) scaled embeddings plus positions."""
    return E[ids] * math.sqrt(D_MODEL) + sinusoidal_pe(len(ids), D_MODEL)


X_enc = embed(src_ids)  # (9, 8)
print("X_enc.shape =", X_enc.shape)
print("'the' at position 0:", X_enc[0])
print("'the' at position 4:", X_enc[4])

# %% [markdown]
# ## Part 3: teacher forcing (shift right)
#
# During training the decoder is given the *true* previous tokens (teacher
# forcing), so all positions are computed in one pass. Position $t$ must
# predict $y_t$ while seeing only $y_{<t}$, so the input is the
# continuation shifted right by one, with `<sos>` in front; the labels are
# the continuation with `<eos>` at the end:
#
# | position | 0 | 1 | 2 | ... | 6 |
# |---|---|---|---|---|---|
# | decoder input | `<sos>` | at | a | ... | by |
# | label | at | a | tiny | ... | `<eos>` |
#
# The shift alone is not enough: in self-attention, position 2 could still
# read position 3, which holds its own label. The causal mask in the
# decoder's self-attention (Part 5) closes that door. Without the shift or
# without the mask, the model could read the answer.

# %% [raw]
# # BEGIN QUESTION
# name: teacher_forcing

# %% [markdown]
# **Question 2.** Write `teacher_forcing(continuation, sos_id, eos_id)`:
# return the pair of lists `([sos_id] + continuation, continuation + [eos_id])`
# (decoder input, labels). `continuation` is a list of ints (possibly empty).

# %% [raw]
# # BEGIN SOLUTION

# %%
def teacher_forcing(continuation, sos_id, eos_id):
    """Decoder input and labels for teacher forcing.

    Args:
        continuation: list of token ids the decoder must produce.
        sos_id: start-of-sequence id.
        eos_id: end-of-sequence id.

    Returns:
        (decoder_input, labels), two lists one longer than continuation.
    """
    # BEGIN SOLUTION
    continuation = list(continuation)
    return [sos_id] + continuation, continuation + [eos_id]
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_teacher_forcing_small(teacher_forcing):
    result = teacher_forcing([5, 6], 1, 2)
    assert isinstance(result, (tuple, list)) and len(result) == 2, \
        "return the pair (decoder_input, labels)"
    dec, lab = result
    assert isinstance(dec, list) and isinstance(lab, list), \
        f"decoder_input and labels should be lists, not {type(dec).__name__} and {type(lab).__name__}"
    assert list(dec) == [1, 5, 6], f"decoder input is {dec}, expected [1, 5, 6]: sos, then the target without eos"
    assert list(lab) == [5, 6, 2], f"labels are {lab}, expected [5, 6, 2]: the target, then eos"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %%
dec_input, labels = teacher_forcing(cont_ids, SOS, EOS)
names = {i: w for w, i in word_ids.items()} | {SOS: "<sos>", EOS: "<eos>"}
for t, (i, l) in enumerate(zip(dec_input, labels)):
    print(f"position {t}: input {names[i]:8s} ({i:3d}) -> label {names[l]:8s} ({l:3d})")

# %% [markdown]
# ## Part 4: attention, and cross-attention
#
# Every attention layer computes, per head,
# $\mathrm{softmax}(Q K^\top / \sqrt{d_k} + M)\,V$, with $h$ heads taking
# contiguous blocks of $d_k = d_{model}/h$ columns, concatenated in order
# and mixed by $W_O$. What changes between the three attention layers of
# the model is *where* $Q$, $K$ and $V$ come from, and the mask $M$:
#
# | layer | $Q$ from | $K, V$ from | mask | weights |
# |---|---|---|---|---|
# | encoder self-attention | prefix (9) | prefix (9) | none | (h, 9, 9) |
# | decoder self-attention | decoder (7) | decoder (7) | causal | (h, 7, 7) |
# | cross-attention | decoder (7) | encoder output $H$ (9) | none | (h, 7, 9) |
#
# Cross-attention is the one place where the two halves meet: each decoder
# position asks a question ($Q = yW_Q$) and the encoder's 9 positions answer
# ($K = HW_K$, $V = HW_V$). Its weight matrix is *rectangular*, 7 queries by
# 9 keys, which is exactly why the lengths here differ: with equal lengths
# a swapped $Q$ and $K$ would go unnoticed. Each row still sums to 1, over
# the 9 encoder positions. There is no mask: the whole prefix is known
# before the decoder starts.
#
# Use a stable softmax (subtract each row's maximum before exponentiating).

# %% [raw]
# # BEGIN QUESTION
# name: cross_attention

# %% [markdown]
# **Question 3.** Write `cross_attention(y, h, Wq, Wk, Wv, Wo, heads)`. `y`
# has shape `(n_tgt, d)` (decoder states), `h` shape `(n_src, d)` (encoder
# output), each `W` shape `(d, d)`, and `heads` divides `d`. With
# `Q = y @ Wq`, `K = h @ Wk`, `V = h @ Wv`, head `i` using columns
# `[i*d/heads, (i+1)*d/heads)`, return `(out, weights)`: `weights` of shape
# `(heads, n_tgt, n_src)` (softmax over the encoder positions, no mask) and
# `out` of shape `(n_tgt, d)`, the heads concatenated in order, times `Wo`.

# %% [raw]
# # BEGIN SOLUTION

# %%
def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    """Multi-head attention of decoder states y over encoder outputs h.

    Args:
        y: array of shape (n_tgt, d), the queries' source.
        h: array of shape (n_src, d), the keys' and values' source.
        Wq, Wk, Wv, Wo: arrays of shape (d, d).
        heads: number of heads, dividing d.

    Returns:
        (out, weights) of shapes (n_tgt, d) and (heads, n_tgt, n_src).
    """
    # BEGIN SOLUTION
    n_tgt, d = y.shape
    n_src = h.shape[0]
    d_k = d // heads
    q = (y @ Wq).reshape(n_tgt, heads, d_k).transpose(1, 0, 2)  # (heads, n_tgt, d_k)
    k = (h @ Wk).reshape(n_src, heads, d_k).transpose(1, 0, 2)  # (heads, n_src, d_k)
    v = (h @ Wv).reshape(n_src, heads, d_k).transpose(1, 0, 2)  # (heads, n_src, d_k)
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_k)  # (heads, n_tgt, n_src)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    concat = (weights @ v).transpose(1, 0, 2).reshape(n_tgt, d)  # heads side by side
    return concat @ Wo, weights
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_cross_attention_rectangular(cross_attention, np):
    result = cross_attention(np.ones((7, 8)), np.ones((9, 8)), np.eye(8), np.eye(8), np.eye(8), np.eye(8), 2)
    assert isinstance(result, tuple) and len(result) == 2, "return the pair (out, weights)"
    out, weights = result
    assert isinstance(out, np.ndarray) and isinstance(weights, np.ndarray), \
        f"out and weights should be numpy arrays, not {type(out).__name__} and {type(weights).__name__}"
    assert out.shape == (7, 8), f"out has shape {out.shape}, not (n_tgt, d) = (7, 8)"
    assert weights.shape == (2, 7, 9), f"weights has shape {weights.shape}, not (heads, n_tgt, n_src) = (2, 7, 9)"

# %%
def test_cross_attention_rows(cross_attention, np):
    rng = np.random.default_rng(0)
    y, h = rng.normal(size=(3, 4)), rng.normal(size=(5, 4))
    result = cross_attention(y, h, np.eye(4), np.eye(4), np.eye(4), np.eye(4), 1)
    assert isinstance(result, tuple) and len(result) == 2, "return the pair (out, weights)"
    weights = result[1]
    assert isinstance(weights, np.ndarray) and weights.shape == (1, 3, 5), \
        "weights should be a numpy array of shape (heads, n_tgt, n_src) = (1, 3, 5)"
    assert np.allclose(weights.sum(axis=-1), 1.0), "each row of weights must sum to 1 over the encoder positions"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# ## Part 5: the forward pass
#
# With your `cross_attention`, the rest is assembly (post-norm blocks, as in
# the paper). Self-attention *is* cross-attention of a sequence with itself,
# so the encoder calls `cross_attention(x, x, ...)`. The decoder's
# self-attention needs the causal mask, so it gets a helper of its own
# below. Each weight matrix comes from your `xavier_uniform`.

# %%
def layer_norm(x, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)


def causal_self_attention(x, Wq, Wk, Wv, Wo, heads):
    """Self-attention where position t sees positions 0..t only."""
    T, width = x.shape[0], x.shape[1] // heads
    mask = np.triu(np.full((T, T), -np.inf), k=1)  # -inf above the diagonal
    outs, weights = [], []
    for i in range(heads):
        cols = slice(i * width, (i + 1) * width)
        s = (x @ Wq)[:, cols] @ (x @ Wk)[:, cols].T / math.sqrt(width) + mask
        a = np.exp(s - s.max(axis=1, keepdims=True))
        a /= a.sum(axis=1, keepdims=True)
        weights.append(a)
        outs.append(a @ (x @ Wv)[:, cols])
    return np.hstack(outs) @ Wo, np.stack(weights)


def new_attention(rng):
    return [xavier_uniform(D_MODEL, D_MODEL, rng) for _ in range(4)]  # Wq, Wk, Wv, Wo


def new_ffn(rng):
    return xavier_uniform(D_MODEL, D_FF, rng), np.zeros(D_FF), xavier_uniform(D_FF, D_MODEL, rng), np.zeros(D_MODEL)


def ffn(x, W1, b1, W2, b2):
    return np.maximum(x @ W1 + b1, 0.0) @ W2 + b2


enc_attn, enc_ffn = new_attention(rng), new_ffn(rng)
dec_self, dec_cross, dec_ffn = new_attention(rng), new_attention(rng), new_ffn(rng)


def encode(ids):
    """(9,) prefix ids -> (9, 8) encoder output H."""
    x = embed(ids)
    x = layer_norm(x + cross_attention(x, x, *enc_attn, HEADS)[0])  # bidirectional
    return layer_norm(x + ffn(x, *enc_ffn))


def decode(ids, H):
    """(n,) decoder ids and encoder output H -> (n, V) logits, plus the cross-attention weights."""
    y = embed(ids)
    y = layer_norm(y + causal_self_attention(y, *dec_self, HEADS)[0])
    attended, cross_w = cross_attention(y, H, *dec_cross, HEADS)  # rectangular: (heads, n, 9)
    y = layer_norm(y + attended)
    y = layer_norm(y + ffn(y, *dec_ffn))
    return y @ E.T, cross_w  # tied output projection: (n, 8) @ (8, 500)


H = encode(src_ids)
logits, cross_w = decode(dec_input, H)
print("encoder output H :", H.shape)
print("cross weights    :", cross_w.shape, "(heads, decoder positions, encoder positions)")
print("rows sum to 1    :", np.allclose(cross_w.sum(axis=-1), 1.0))
print("logits           :", logits.shape)

# %% [markdown]
# **Check: no peeking.** Change the *last* decoder input token: the logits
# of every earlier position stay exactly the same (the causal mask), while
# changing a prefix token moves all of them (cross-attention has no mask).

# %%
changed = list(dec_input)
changed[-1] = 499
moved = np.abs(decode(changed, H)[0] - logits).max(axis=1)
print("largest change per decoder position, last input changed:", np.round(moved, 6))
src_changed = list(src_ids)
src_changed[-1] = 499
moved = np.abs(decode(dec_input, encode(src_changed))[0] - logits).max(axis=1)
print("largest change per decoder position, last prefix token changed:", np.round(moved, 3))

# %% [markdown]
# ## Part 6: the loss, at chance level
#
# Row $t$ of the logits is one factor $P(y_t \mid y_{<t}, x)$ of the
# product. The training loss is the mean over positions of the negative
# log-probability of the label:
#
# $$\mathcal{L} = \frac{1}{n}\sum_{t} -\log \mathrm{softmax}(\ell_t)_{y_t}, \qquad -\log \mathrm{softmax}(\ell)_{y} = \log\sum_v e^{\ell_v} - \ell_y = m + \log\sum_v e^{\ell_v - m} - \ell_y$$
#
# with $m = \max_v \ell_v$: the log-sum-exp form never exponentiates
# anything positive, so it stays finite for logits in the thousands,
# where $\log(\mathrm{softmax})$ computed naively gives $\log 0 = -\infty$.
#
# **What an untrained model should score.** If the logits were all equal,
# every token would get $1/V$ and the loss would be exactly
# $\log V = \log 500 \approx 6.2146$: chance level. A random model is close
# to that but, in expectation, a little *above* it, never below: for a
# label unrelated to the model's distribution $p$, the expected loss is
# $-\frac{1}{V}\sum_v \log p_v = \log V + \mathrm{KL}(u \,\|\, p) \ge \log V$
# (Gibbs' inequality), with equality only for a uniform $p$. Being
# confidently wrong on a few tokens costs more than being right on others
# saves. The lesson's random model scored 6.97 against $\log 500 = 6.21$
# (perplexity 1064 against $V = 500$). With only 7 labels the loss is a
# noisy estimate: one draw of labels can land on either side of $\log V$
# (ours does, below), but its average over every possible label cannot.
# A fresh implementation far below
# $\log V$ is reading its labels (a missing shift or mask); far above, its
# logits are too large.

# %% [raw]
# # BEGIN QUESTION
# name: sequence_cross_entropy

# %% [markdown]
# **Question 4.** Write `sequence_cross_entropy(logits, labels)`. `logits`
# has shape `(n, V)`, `labels` holds `n` ints. Return, as a float, the mean
# over positions of $-\log \mathrm{softmax}(\text{logits}_t)[\text{label}_t]$,
# computed with the log-sum-exp form so that it stays finite for logits in
# the thousands.

# %% [raw]
# # BEGIN SOLUTION

# %%
def sequence_cross_entropy(logits, labels):
    """Mean negative log-likelihood of the labels, computed stably.

    Args:
        logits: array of shape (n, V).
        labels: n integer ids.

    Returns:
        The mean cross-entropy, a float.
    """
    # BEGIN SOLUTION
    logits = np.asarray(logits, dtype=np.float64)
    labels = np.asarray(labels, dtype=np.int64)
    m = logits.max(axis=1)  # (n,)
    log_z = m + np.log(np.exp(logits - m[:, None]).sum(axis=1))  # (n,)
    return float(np.mean(log_z - logits[np.arange(len(labels)), labels]))
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_cross_entropy_uniform(sequence_cross_entropy, np):
    loss = sequence_cross_entropy(np.zeros((3, 4)), [0, 1, 3])
    assert isinstance(loss, (int, float, np.integer, np.floating)), \
        f"the loss should be a float, not {type(loss).__name__}"
    assert loss >= 0, f"a cross-entropy (-log p) is never negative, got {loss}"
    assert np.isclose(loss, np.log(4)), \
        f"equal logits over 4 tokens give log 4 at each position, and so does their mean, got {loss}"

# %%
def test_cross_entropy_large_logits(sequence_cross_entropy, np):
    loss = sequence_cross_entropy(np.array([[1000.0, 0.0], [0.0, 1000.0]]), [0, 0])
    assert isinstance(loss, (int, float, np.integer, np.floating)), \
        f"the loss should be a float, not {type(loss).__name__}"
    assert np.isfinite(loss), f"logits of 1000 must give a finite loss, got {loss}"
    assert loss >= 0, f"a cross-entropy (-log p) is never negative, got {loss}"
    assert np.isclose(loss, 500.0), \
        f"row t is scored against labels[t] (already shifted): losses 0 and 1000, mean 500, " \
        f"got {loss} (a loss of 1000 needs log-softmax itself: the log of a clipped or " \
        f"epsilon-added probability stops at -log(eps), a few tens)"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %%
loss = sequence_cross_entropy(logits, labels)
every_label = [sequence_cross_entropy(logits, [v] * len(labels)) for v in range(V)]
print(f"untrained loss on the 7 labels   : {loss:.4f}  (perplexity {math.exp(loss):.1f}, V = {V})")
print(f"the same, averaged over all labels: {np.mean(every_label):.4f}  = log V + KL(u || p) >= log V")
print(f"log V = log {V}                  : {math.log(V):.4f}")
print(f"equal logits                      : {sequence_cross_entropy(np.zeros_like(logits), labels):.4f}")

# %% [markdown]
# ## Part 7: greedy decoding
#
# At generation time there is no true continuation. The loop feeds the
# model's own choices back in:
#
#     H = encode(prefix)                 # once
#     ids = [<sos>]
#     repeat: logits = decode(ids, H)[-1]; ids.append(argmax(logits))
#     until <eos> was appended, or max_len tokens were generated
#
# The encoder runs once: $H$, and with it cross-attention's keys and
# values, never change. The decoder runs once per new token (a real
# implementation caches the keys and values of earlier positions, which the
# causal mask guarantees cannot change).
#
# Your loop gets the model as a function `step(ids)` that takes the list of
# ids so far and returns the next-token logits `(V,)`. Calling it is the
# expensive part, so call it exactly once per generated token. On ties,
# `np.argmax` returns the lowest id, which is the rule here.

# %% [raw]
# # BEGIN QUESTION
# name: greedy_decode

# %% [markdown]
# **Question 5.** Write `greedy_decode(step, sos_id, eos_id, max_len)`.
# Start from `[sos_id]`; repeatedly call `step` on the list of ids so far
# and append the argmax of the logits it returns (lowest id on ties); stop
# once `eos_id` has been appended or once `max_len` ids follow `sos_id`.
# Return the whole list, `sos_id` first (`max_len = 0` returns `[sos_id]`
# without calling `step`).

# %% [raw]
# # BEGIN SOLUTION

# %%
def greedy_decode(step, sos_id, eos_id, max_len):
    """Greedy autoregressive decoding.

    Args:
        step: function from the list of ids so far to next-token logits (V,).
        sos_id: first id of the sequence.
        eos_id: the id that ends generation (kept in the result).
        max_len: largest number of ids generated after sos_id.

    Returns:
        The list of ids, sos_id first.
    """
    # BEGIN SOLUTION
    ids = [sos_id]
    while len(ids) - 1 < max_len:
        next_id = int(np.argmax(step(list(ids))))  # one model call per token
        ids.append(next_id)
        if next_id == eos_id:
            break
    return ids
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_greedy_stops_at_eos(greedy_decode, np):
    calls = []

    def step(ids):
        calls.append(list(ids))
        logits = np.zeros(5)
        logits[2 if len(ids) == 3 else 4] = 1.0  # token 4, token 4, then eos (2)
        return logits

    out = greedy_decode(step, 1, 2, 10)
    assert isinstance(out, list), f"greedy_decode should return a list, not {type(out).__name__}"
    assert calls == [[1], [1, 4], [1, 4, 4]], "step must get the ids so far, once per generated token"
    assert out[:1] == [1], f"the output must start with sos, got {out}"
    assert out == [1, 4, 4, 2], f"expected [sos, 4, 4, eos], eos included, got {out}"

# %%
def test_greedy_max_len(greedy_decode, np):
    out = greedy_decode(lambda ids: np.array([0.0, 0.0, 0.0, 1.0]), 1, 2, 3)
    assert isinstance(out, list), f"greedy_decode should return a list, not {type(out).__name__}"
    assert out[:1] == [1], f"the output must start with sos, got {out}"
    assert out == [1, 3, 3, 3], f"max_len=3 allows 3 ids after sos; got {out}"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **Check.** Our random model, prefix in, 8 tokens out. Expect gibberish
# (the lesson's random model got stuck repeating the same token): the weights
# were never trained. What the loop shows is the mechanism.

# %%
def model_step(ids):
    return decode(ids, H)[0][-1]  # the last row: the next-token logits


generated = greedy_decode(model_step, SOS, EOS, 8)
print("generated:", generated)
print("words    :", [names.get(i, f"<{i}>") for i in generated])

# %% [markdown]
# ## Part 8: sampling with temperature and top-k
#
# Greedy decoding is deterministic and tends to repeat itself. Sampling
# draws the next token instead:
#
# * **temperature** $T > 0$: sample from $\mathrm{softmax}(\ell / T)$. $T = 1$
#   leaves the distribution alone, $T \to 0$ concentrates it on the argmax
#   (greedy), $T > 1$ flattens it. Dividing by a positive $T$ is monotone,
#   so it *reshapes the distribution but never reorders* the tokens: the
#   argmax is the same at every temperature.
# * **top-k**: keep the $k$ largest logits, give the others probability 0,
#   renormalise, then sample. It cuts off the long tail of implausible
#   tokens, which together can hold real probability mass.
#
# The distribution is computed with the same max-subtraction as the
# softmax, so tiny temperatures and large logits stay finite; the draw
# itself uses only the `rng` passed in.

# %% [raw]
# # BEGIN QUESTION
# name: sample_next

# %% [markdown]
# **Question 6.** Write `sample_next(logits, temperature, rng, top_k=None)`:
# return one id (an `int`) drawn with `rng` from
# $\mathrm{softmax}(\text{logits} / T)$, restricted to the `top_k` largest
# logits (renormalised) when `top_k` is given (a `top_k` of at least `V`
# keeps every id). Raise `ValueError` when
# `temperature <= 0` or `top_k < 1`. Use only `rng` for randomness (for
# example `rng.choice(V, p=probs)`).

# %% [raw]
# # BEGIN SOLUTION

# %%
def sample_next(logits, temperature, rng, top_k=None):
    """Draw the next token id.

    Args:
        logits: array of shape (V,).
        temperature: a float > 0.
        rng: a np.random.Generator, the only source of randomness.
        top_k: if given, an int >= 1: sample among the top_k largest logits only.

    Returns:
        The sampled id, an int.

    Raises:
        ValueError: if temperature <= 0 or top_k < 1.
    """
    # BEGIN SOLUTION
    if not temperature > 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    if top_k is not None and top_k < 1:
        raise ValueError(f"top_k must be >= 1, got {top_k}")
    z = np.asarray(logits, dtype=np.float64) / temperature
    if top_k is not None and top_k < z.size:
        z = np.where(z >= np.sort(z)[-top_k], z, -np.inf)  # drop all but the k largest
    p = np.exp(z - z.max())
    return int(rng.choice(z.size, p=p / p.sum()))
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_sample_top1_is_argmax(sample_next, np):
    rng = np.random.default_rng(0)
    logits = np.array([0.5, 2.0, 1.0])
    draws = [sample_next(logits, 1.0, rng, top_k=1) for _ in range(20)]
    assert all(isinstance(d, (int, np.integer)) for d in draws), \
        f"sample_next should return an int id, not {type(draws[0]).__name__}"
    draws = set(draws)
    assert draws == {1}, f"top_k=1 must always return the argmax, got {draws}"

# %%
def test_sample_rejects_bad_temperature(sample_next, np):
    try:
        sample_next(np.zeros(3), 0.0, np.random.default_rng(0))
    except ValueError:
        return
    raise AssertionError("temperature 0 should raise ValueError")

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **Check.** The last row of our logits at several temperatures: the
# entropy grows with $T$ (its ceiling is $\log 500 = 6.2146$), the largest
# probability shrinks, and the argmax never moves. Then the top-5
# renormalised distribution and a few draws from it. (The lesson's table
# showed the same pattern: entropy 0.26 at $T = 0.1$ up to 6.20 at
# $T = 5$, with the argmax fixed.)

# %%
last = logits[-1]
for T in (0.1, 0.5, 1.0, 2.0, 5.0):
    scaled = last / T
    probs = np.exp(scaled - scaled.max())
    probs /= probs.sum()
    entropy = -np.sum(probs * np.log(np.where(probs > 0, probs, 1.0)))
    print(f"T = {T:3.1f}: entropy {entropy:6.4f} nats, max prob {probs.max():.5f}, "
          f"argmax {int(np.argmax(probs))}")

top5 = np.argsort(-last)[:5]
p5 = np.exp(last[top5] - last[top5].max())
print("top-5 ids:", top5.tolist(), " renormalised:", np.round(p5 / p5.sum(), 4))
sample_rng = np.random.default_rng(5)
print("8 draws with top_k=5:", [sample_next(last, 1.0, sample_rng, top_k=5) for _ in range(8)])

# %% [markdown]
# ## Summary
#
# | requirement | enforced by |
# |---|---|
# | weights that keep the signal's scale | Xavier initialisation (Part 1) |
# | $y_t$ predicted from $y_{<t}$ only | shift right (Part 3) and the causal mask (Part 5) |
# | conditioning on the prefix | cross-attention: $Q$ from the decoder, $K, V$ from the encoder (Part 4) |
# | one factor $P(y_t \mid y_{<t}, x)$ per row | tied output projection and softmax (Parts 5, 6) |
# | generation | the loop, one decoder call per token (Part 7), greedy or sampled (Part 8) |
#
# The encoder is not autoregressive: it reads the prefix in both
# directions, because the prefix is given, not generated. Run the cell
# below to check everything, then export and submit.
