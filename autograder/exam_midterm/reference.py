"""Reference for the midterm exam: the variant tables, the expected answer
of each numeric question as a function of the student's numbers, and the
two coding stubs.

The tables are public (build pastes them into the master, below); what the
grader keeps to itself is which identity's numbers count and the answers below.
"""
from __future__ import annotations

import math

import numpy as np
import torch  # noqa: F401  loaded before grading threads start: a first import racing in threads is slow

# The variant tables, public: build pastes EXAM and VARIANTS into the master's
# helper cell (`# build: paste EXAM, VARIANTS from ...` in solutions/exam_midterm/),
# so the student notebook derives its numbers from this very text. For each
# question, the names of its numbers and one tuple per variant, chosen so that
# no variant is degenerate: the typical wrong answers differ from the right
# one by more than the stated tolerance in every row (tests/exam/test_variants.py).
# * encoder_params, nn.TransformerEncoderLayer(d_model, heads, d_ff): heads is a
#   distractor, d_ff is not always 4 d_model, and 512/2048 (the textbook case) is left out.
# * cross_attention_shape, the cross-attention of one decoder layer: batch, heads,
#   n_src and n_tgt are pairwise different (and differ from d_model / heads), so a
#   swapped or missing axis is always visible; d_model is a distractor.
# * mask_fraction, BERT-style corruption of sequences of seq_len positions, n_special
#   of which are [CLS]/[SEP] (never selected); [MASK] is special, so a random
#   replacement never produces it.
# * chance_level, an untrained MLM head that is uniform over the vocabulary minus the
#   n_special ids that are never targets.
EXAM = "exam_midterm"
VARIANTS = {  # question -> (names of its numbers, one tuple per variant)
    "encoder_params": (("d_model", "heads", "d_ff"), [
        (96, 3, 384), (128, 4, 256), (160, 5, 640), (192, 6, 768),
        (224, 7, 896), (256, 8, 768), (288, 6, 1152), (320, 10, 1280),
        (384, 12, 1536), (448, 8, 1344), (480, 6, 1920), (576, 9, 2304),
        (640, 10, 1920), (768, 12, 3072), (896, 14, 3584), (1024, 16, 2048)]),
    "cross_attention_shape": (("d_model", "batch", "heads", "n_src", "n_tgt"), [
        (64, 2, 4, 9, 6), (96, 5, 3, 12, 7), (128, 3, 8, 10, 5), (128, 4, 2, 15, 11),
        (192, 8, 6, 14, 9), (256, 6, 4, 20, 13), (256, 3, 16, 11, 8), (320, 7, 5, 17, 12),
        (384, 4, 12, 25, 18), (384, 9, 6, 7, 10), (448, 5, 7, 13, 19), (512, 6, 16, 30, 21),
        (512, 3, 8, 24, 6), (640, 4, 10, 16, 27), (768, 2, 12, 40, 23), (1024, 8, 16, 33, 14)]),
    "mask_fraction": (("seq_len", "n_special", "select_prob", "mask_prob", "random_prob"), [
        (64, 2, 0.15, 0.8, 0.1), (128, 3, 0.15, 0.8, 0.1), (96, 2, 0.20, 0.8, 0.1),
        (256, 3, 0.12, 0.9, 0.05), (48, 2, 0.25, 0.7, 0.15), (200, 3, 0.10, 0.8, 0.1),
        (80, 2, 0.18, 0.75, 0.1), (160, 3, 0.15, 0.9, 0.05), (32, 2, 0.20, 0.6, 0.2),
        (512, 3, 0.15, 0.7, 0.1), (120, 2, 0.12, 0.8, 0.1), (72, 3, 0.30, 0.8, 0.1),
        (384, 2, 0.15, 0.85, 0.1), (100, 3, 0.20, 0.9, 0.05), (40, 2, 0.15, 0.8, 0.1),
        (224, 3, 0.25, 0.6, 0.2)]),
    "chance_level": (("vocab_size", "n_special"), [
        (1000, 4), (2048, 5), (3000, 3), (4096, 6), (5000, 4), (6000, 5),
        (8192, 3), (10000, 4), (12000, 6), (15000, 5), (16384, 4), (20000, 3),
        (24000, 5), (28000, 4), (30000, 6), (32000, 5)]),
}

# Hidden-test seeds of the two coding questions (not shown to students:
# they only make neighbours' hidden inputs differ).
CODING_SEEDS = {
    "key_padding_mask": [1009 + 7919 * i for i in range(16)],
    "perplexity": [2003 + 6271 * i for i in range(16)],
}

# Stated tolerances (the notebook says the same).
TOLERANCE = {
    "encoder_params": 0,            # exact count
    "mask_fraction": 1e-4,          # absolute
    "chance_loss": 2e-5,            # absolute, nats
    "chance_perplexity": 2e-5,      # relative
}


def tables() -> dict[str, list[dict]]:
    """The variant tables as {question: [{name: number, ...}, ...]}."""
    return {q: [dict(zip(names, row)) for row in rows] for q, (names, rows) in VARIANTS.items()}


def variant_table(question: str) -> list[dict]:
    """The variants of one question, numeric or coding."""
    if question in VARIANTS:
        return tables()[question]
    return [{"seed": seed} for seed in CODING_SEEDS[question]]


# ---- numeric answers ------------------------------------------------------

def encoder_params(d_model, heads, d_ff):
    """Parameters of nn.TransformerEncoderLayer(d_model, heads, d_ff)."""
    attention = 4 * d_model * d_model + 4 * d_model  # in_proj (3d x d, 3d) + out_proj (d x d, d)
    # linear1 (d_ff x d weight, d_ff bias) + linear2 (d x d_ff weight, d bias)
    feed_forward = 2 * d_model * d_ff + d_ff + d_model
    norms = 2 * 2 * d_model  # two LayerNorms, weight and bias each
    return attention + feed_forward + norms


def cross_attention_shape(d_model, batch, heads, n_src, n_tgt):
    """Per-head cross-attention weights: one row per target (query)
    position, one column per source (key) position."""
    return (batch, heads, n_tgt, n_src)


def mask_fraction(seq_len, n_special, select_prob, mask_prob, random_prob):
    """Expected fraction of all seq_len input positions showing [MASK]."""
    return select_prob * mask_prob * (seq_len - n_special) / seq_len


def chance_loss(vocab_size, n_special):
    return math.log(vocab_size - n_special)


def chance_perplexity(vocab_size, n_special):
    return float(vocab_size - n_special)


def chance_level(vocab_size, n_special, name):
    """The answer `name` (CHANCE_LOSS or CHANCE_PERPLEXITY) of the chance_level question:
    what a failing answer's diagnoses are told apart from (exam/grading.answered)."""
    answers = {"CHANCE_LOSS": chance_loss, "CHANCE_PERPLEXITY": chance_perplexity}
    return answers[name](vocab_size, n_special)


# ---- coding stubs -----------------------------------------------------------

def key_padding_mask(lengths, n_src):
    """Additive mask (B, n_src) float64: 0.0 at source positions j < lengths[b]
    (real tokens), -inf at padding; lengths must be ints in [1, n_src]."""
    lengths = np.asarray(lengths)
    if lengths.ndim != 1 or lengths.dtype.kind not in "iu" or \
            (lengths.size and (lengths.min() < 1 or lengths.max() > n_src)):
        raise ValueError("lengths must be a 1-D sequence of ints in [1, n_src]")
    positions = np.arange(n_src)[None, :]  # (1, n_src)
    padding = positions >= lengths[:, None]  # (B, n_src)
    return np.where(padding, -np.inf, 0.0)


def perplexity(logits, labels, ignore_index=-100):
    """exp of the mean cross-entropy over the positions whose label is not
    ignore_index; computed through a stable log-sum-exp."""
    logits = np.asarray(logits, dtype=np.float64)
    labels = np.asarray(labels)
    keep = labels != ignore_index
    if not keep.any():
        raise ValueError("no position to score")
    rows = logits[keep]  # (m, V)
    top = rows.max(axis=1, keepdims=True)
    log_z = top[:, 0] + np.log(np.exp(rows - top).sum(axis=1))
    nll = log_z - rows[np.arange(len(rows)), labels[keep]]
    return float(np.exp(nll.mean()))
