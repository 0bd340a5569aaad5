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
# # Midterm exam: attention, BERT pretraining, encoder-decoder
#
# This exam has three parts:
#
# * **Part A, short answers** (12 points): four questions whose numbers are
#   *yours*: they are derived from your student id, so your neighbour's
#   numbers, and answers, are different.
# * **Part B, code** (8 points): two short functions, graded like the homework.
# * **Part C, free response** (graded by hand): two short written answers.
#
# **How it is graded.** Short answers are compared with the expected value for
# *your* numbers, within the tolerance stated in each question. The grader
# knows who submitted the notebook: it derives your numbers from your
# identity, not from what the notebook says. If `STUDENT_ID` below is not
# you, the submission is flagged and graded with your own numbers, so answers
# computed for someone else score badly.
#
# **What the checks tell you.** `grader.check("...")` only checks the *format*
# of an answer (its type, shape or range). Passing it does not mean the
# answer is right, and nothing in this notebook can tell you that: the real
# grading happens after you submit, and its results are published with the
# grades.
#
# The exam is open-notebook: you may run any code you like in scratch cells.
# Keep the names of the answer variables and functions as they are.

# %%
import hashlib
import math

import numpy as np
import torch
from torch import nn

# %% [markdown]
# ## Who you are, and your numbers
#
# Set `STUDENT_ID` to the identity you submit under: your student number (sid)
# as registered on Gradescope, or your e-mail address there. Case and
# surrounding spaces do not matter. Then run the next cell: it prints the
# numbers of each question of Part A for you. Write them down; every answer
# in Part A is about *these* numbers.

# %% [raw]
# # BEGIN QUESTION
# name: identity

# %% [raw]
# # BEGIN SOLUTION

# %%
STUDENT_ID = "s1001"  # SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_identity_is_text(STUDENT_ID):
    assert isinstance(STUDENT_ID, str), "STUDENT_ID should be a string, e.g. \"s1234567\""
    assert STUDENT_ID.strip(), "STUDENT_ID is empty: put your student number or e-mail in it"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# The numbers come from a hash of your id. The code is here so you can see
# that nothing else goes into them; it says nothing about the answers.

# %%
# build: paste EXAM, VARIANTS from autograder/exam_midterm/reference.py


def exam_parameters(student_id):
    """Your numbers: {question: {name: value}}, printed as well."""
    if not isinstance(student_id, str) or not student_id.strip():
        raise ValueError("set STUDENT_ID to your student number or e-mail (a string) first")
    identity = " ".join(student_id.split()).lower()  # case and spaces do not matter
    numbers = {}
    for question, (names, rows) in VARIANTS.items():
        digest = hashlib.sha256(f"{EXAM}|{question}|{identity}".encode("utf-8")).digest()
        row = rows[int.from_bytes(digest[:8], "big") % len(rows)]  # 1) pick your variant
        numbers[question] = dict(zip(names, row))  # 2) name its numbers
        print(f"{question:22s}", ", ".join(f"{k}={v}" for k, v in numbers[question].items()))
    return numbers


P = exam_parameters(STUDENT_ID)

# %% [markdown]
# ## Part A: short answers about your numbers
#
# Replace each `...` with a number (or a tuple for the shape). You may type
# the number or compute it in the cell; either way the variable must hold the
# value when the notebook is run from the top.

# %% [raw]
# # BEGIN QUESTION
# name: encoder_params

# %% [markdown]
# **Question A1 (3 points).** How many trainable parameters does
# `torch.nn.TransformerEncoderLayer(d_model, nhead=heads, dim_feedforward=d_ff)`
# have, with your `encoder_params` numbers and the layer's defaults (every
# linear map has a bias, two LayerNorms with weight and bias)? Count every
# weight and bias of the self-attention (its input projection produces Q, K
# and V; then the output projection), of the two-layer feed-forward block and
# of the two LayerNorms. Give an `int`; the count must be exact.

# %% [raw]
# # BEGIN SOLUTION

# %%
# BEGIN SOLUTION NO PROMPT
d, d_ff = P["encoder_params"]["d_model"], P["encoder_params"]["d_ff"]
# END SOLUTION
ENCODER_LAYER_PARAMS = (4 * d * d + 4 * d) + (2 * d * d_ff + d_ff + d) + 4 * d  # SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_encoder_params_format(ENCODER_LAYER_PARAMS):
    problem = answer_problem("count", ENCODER_LAYER_PARAMS, "ENCODER_LAYER_PARAMS", 1)
    assert problem is None, problem

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: cross_attention_shape

# %% [markdown]
# **Question A2 (3 points).** A decoder layer's cross-attention, with your
# `cross_attention_shape` numbers: a batch of `batch` sentence pairs, each
# source sentence encoded into `n_src` vectors of width `d_model`, each target
# prefix `n_tgt` tokens long, `heads` heads. The layer is
# `nn.MultiheadAttention(d_model, heads, batch_first=True)` called with the
# decoder states as queries and the encoder output as keys and values, and
# `need_weights=True, average_attn_weights=False`. What is the shape of the
# attention weights it returns? Give a tuple of ints.

# %% [raw]
# # BEGIN SOLUTION

# %%
CROSS_ATTENTION_SHAPE = (P["cross_attention_shape"]["batch"], P["cross_attention_shape"]["heads"], P["cross_attention_shape"]["n_tgt"], P["cross_attention_shape"]["n_src"])  # SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_cross_attention_shape_format(CROSS_ATTENTION_SHAPE):
    problem = answer_problem("shape", CROSS_ATTENTION_SHAPE, "CROSS_ATTENTION_SHAPE")
    assert problem is None, problem

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: mask_fraction

# %% [markdown]
# **Question A3 (3 points).** BERT's masked-language-model corruption, with
# your `mask_fraction` numbers. Every sequence has `seq_len` positions, of
# which `n_special` hold special tokens (`[CLS]`, `[SEP]`) that are never
# selected. Every other position is selected independently with probability
# `select_prob`; a selected position is replaced by `[MASK]` with probability
# `mask_prob`, by a random ordinary token with probability `random_prob`, and
# kept unchanged otherwise. `[MASK]` is itself a special token, so a random
# replacement is never `[MASK]`. What is the expected fraction of all
# `seq_len` input positions that show `[MASK]` after corruption? Give a
# float; answers within 0.0001 of the expected value count.

# %% [raw]
# # BEGIN SOLUTION

# %%
# BEGIN SOLUTION NO PROMPT
m = P["mask_fraction"]
# END SOLUTION
MASK_FRACTION = m["select_prob"] * m["mask_prob"] * (m["seq_len"] - m["n_special"]) / m["seq_len"]  # SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_mask_fraction_format(MASK_FRACTION):
    problem = answer_problem("number", MASK_FRACTION, "MASK_FRACTION", 0, 1)
    assert problem is None, problem

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: chance_level

# %% [markdown]
# **Question A4 (3 points).** With your `chance_level` numbers: a masked
# language model has a vocabulary of `vocab_size` ids, `n_special` of which
# are special tokens that are never a prediction target. Before training, its
# output head puts probability zero on the special ids and is uniform over all
# the others. What are its expected cross-entropy loss per predicted token,
# in nats (natural logarithm), and its perplexity? Give two floats:
# `CHANCE_LOSS` within 0.00002 and `CHANCE_PERPLEXITY` within a relative
# 0.00002 of the expected values (compute them with `math`, do not round by
# hand).

# %% [raw]
# # BEGIN SOLUTION

# %%
CHANCE_LOSS = math.log(P["chance_level"]["vocab_size"] - P["chance_level"]["n_special"])  # SOLUTION
CHANCE_PERPLEXITY = float(P["chance_level"]["vocab_size"] - P["chance_level"]["n_special"])  # SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_chance_level_format(CHANCE_LOSS, CHANCE_PERPLEXITY):
    for problem in (answer_problem("number", CHANCE_LOSS, "CHANCE_LOSS", 0),
                    answer_problem("number", CHANCE_PERPLEXITY, "CHANCE_PERPLEXITY", 1)):
        assert problem is None, problem

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# ## Part B: code
#
# Two short functions, graded like the homework on many inputs after you
# submit. They are the same for everybody; the hidden inputs differ per
# student. Use NumPy.

# %% [raw]
# # BEGIN QUESTION
# name: key_padding_mask

# %% [markdown]
# **Question B1 (4 points).** In a batch, source sentences of different
# lengths are padded to a common length `n_src`. The decoder's cross-attention
# must not attend to the padding, so it adds a *key padding mask* to its
# scores: one row per sentence, one column per source position, `0.0` where
# the position holds a real token and `-inf` where it is padding.
#
# Write `key_padding_mask(lengths, n_src)`: `lengths` is a list (or 1-D
# integer array) with the real length of each source sentence; return a
# `float64` NumPy array of shape `(len(lengths), n_src)` with `0.0` at
# positions `j < lengths[b]` and `-inf` at `j >= lengths[b]`. A length
# smaller than 1 or larger than `n_src` raises `ValueError`.

# %% [raw]
# # BEGIN SOLUTION

# %%
def key_padding_mask(lengths, n_src):
    """Additive mask hiding padded source positions.

    Args:
        lengths: real length of each source sentence, ints in [1, n_src].
        n_src: padded source length.

    Returns:
        float64 array (len(lengths), n_src): 0.0 at real tokens, -inf at padding.

    Raises:
        ValueError: if a length is outside [1, n_src].
    """
    # BEGIN SOLUTION
    lengths = np.asarray(lengths)  # (B,)
    if lengths.ndim != 1 or (lengths.size and (lengths.min() < 1 or lengths.max() > n_src)):
        raise ValueError(f"lengths must lie in [1, {n_src}]")
    padding = np.arange(n_src)[None, :] >= lengths[:, None]  # (B, n_src)
    return np.where(padding, -np.inf, 0.0)
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_key_padding_mask_format(key_padding_mask, np):
    m = key_padding_mask([1, 2], 3)
    assert isinstance(m, np.ndarray), "key_padding_mask should return a numpy array"
    assert m.shape == (2, 3), f"key_padding_mask([1, 2], 3) has shape {m.shape}, not (2, 3)"
    assert m.dtype == np.float64, f"the mask has dtype {m.dtype}, not float64"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: perplexity

# %% [markdown]
# **Question B2 (4 points).** Write `perplexity(logits, labels, ignore_index=-100)`:
# `logits` is a `(n, V)` array of scores, `labels` an `(n,)` integer array of
# target ids, where `ignore_index` marks positions that do not count (the
# unselected positions of masked-language modelling). Return, as a float,
#
# $$\exp\Big(\frac{1}{|S|}\sum_{i \in S} -\log \mathrm{softmax}(\text{logits}_i)[\text{labels}_i]\Big),
# \qquad S = \{ i : \text{labels}_i \ne \text{ignore\_index} \}.$$
#
# It must stay finite when logits are in the thousands. If no position
# counts, raise `ValueError`.

# %% [raw]
# # BEGIN SOLUTION

# %%
def perplexity(logits, labels, ignore_index=-100):
    """exp of the mean cross-entropy over the positions that count.

    Args:
        logits: (n, V) scores.
        labels: (n,) target ids; ignore_index marks positions that do not count.
        ignore_index: the label of ignored positions.

    Returns:
        The perplexity, a float.

    Raises:
        ValueError: if every position is ignored.
    """
    # BEGIN SOLUTION
    logits, labels = np.asarray(logits, dtype=np.float64), np.asarray(labels)
    keep = labels != ignore_index  # (n,)
    if not keep.any():
        raise ValueError("no position to score: every label is ignore_index")
    scores = logits[keep]  # (m, V)
    shifted = scores - scores.max(axis=1, keepdims=True)  # 1) largest score 0: exp cannot overflow
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))  # 2) (m, V)
    nll = -log_probs[np.arange(len(scores)), labels[keep]]  # 3) (m,)
    return float(np.exp(nll.mean()))
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_perplexity_format(perplexity, np):
    value = perplexity(np.zeros((2, 4)), np.array([0, 3]))
    problem = answer_problem("number", value, "perplexity(...)", 1)
    assert problem is None, problem

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# ## Part C: free response (graded by hand)
#
# Write your answers in the Markdown cells below each question, in your own
# words. They are collected with your identity and your numbers for manual
# grading; keep each answer in its cell.

# %% [raw]
# # BEGIN QUESTION
# name: fr_bidirectional
# manual: true
# points: 4

# %% [markdown]
# <!-- free response: fr_bidirectional -->
# **Question C1 (4 points).** In four to eight sentences: why may BERT's
# masked-language-model objective use attention in both directions, while a
# GPT-style decoder trained on next-token prediction must hide the future
# with a causal mask? Then, with your `mask_fraction` numbers: from what share
# of the positions of a sequence does the model receive a training signal,
# and what would go wrong if every selected position were replaced by
# `[MASK]` (no random or unchanged replacements)?

# %% [raw]
# # BEGIN SOLUTION

# %% [markdown]
# Next-token prediction asks position i for token i+1; if position i could
# attend to position i+1 it would copy the answer, so the decoder needs the
# causal mask. The masked-LM target is the original token at a corrupted
# position, which the input no longer shows: looking left and right does not
# reveal it, so the encoder may use both sides. The model receives a training
# signal only at the selected positions, select_prob (seq_len - n_special) /
# seq_len of the sequence. If every selected position became [MASK], the model
# would learn that only [MASK] positions need a prediction, while at
# fine-tuning time [MASK] never appears: the random and unchanged replacements
# make every input position a possible target.

# %% [raw]
# # END SOLUTION

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: fr_variant_check
# manual: true
# points: 3

# %% [markdown]
# <!-- free response: fr_variant_check -->
# **Question C2 (3 points).** With your `encoder_params` numbers: which share
# of your encoder layer's parameters sits in the feed-forward block, and which
# in the self-attention? The rule of thumb says an encoder layer has about
# $12\,d_{model}^2$ parameters. Say where that rule comes from and how far it
# is from your exact count, and why.

# %% [raw]
# # BEGIN SOLUTION

# %% [markdown]
# The attention has 4 d^2 + 4 d parameters (Q, K, V and output projections
# with biases), the feed-forward block 2 d d_ff + d_ff + d. The rule 12 d^2
# assumes d_ff = 4 d and ignores biases and LayerNorms (13 d more): for
# d_ff = 4 d it is off by about 13 / (12 d), a fraction of a percent; when
# d_ff is not 4 d the feed-forward share changes and the rule can be far off.

# %% [raw]
# # END SOLUTION

# %% [raw]
# # END QUESTION

# %% [markdown]
# You are done. Run the cell below to check the *format* of all your
# answers, then export and submit. Check that `STUDENT_ID` is yours.
