"""Known mistakes of the midterm, each explained for the student.

Each mistake is an answer written wrong, as students write it (the corpus's
buggy variants, tests/assignments/corpus/exam_midterm/buggy/, make them). The
coding stubs' are replayed on the inputs of a failing test, as a homework's
are. A short answer is a number, not a call: its hidden test keeps it as a call
of the reference's function named like the question, on the student's own
variant's numbers (exam/grading.answered), so a mistake here is a function of
those numbers and matches on whichever variant the student got. Everything
runs in the trusted process only (see autograder/engine/diagnoses/).

An exam's feedback must teach without grading anyone's neighbour: the
explanations name the misconception and what to reread, never an expected
value (in Part A not even the rule that gives it). Sections are the master's
headings.
"""
import math

import numpy as np

from autograder.testing import Diagnosis

PART_A = "Part A: short answers about your numbers"
PART_B = "Part B: code"


# ---- Part A: functions of the variant's numbers -----------------------------

def params_12_d_squared(d_model, heads, d_ff):
    return 12 * d_model ** 2


def shape_source_first(d_model, batch, heads, n_src, n_tgt):
    return (batch, heads, n_src, n_tgt)


def fraction_specials_selected(seq_len, n_special, select_prob, mask_prob, random_prob):
    return select_prob * mask_prob


def chance_whole_vocabulary(vocab_size, n_special, name):
    return math.log(vocab_size) if name == "CHANCE_LOSS" else float(vocab_size)


# ---- Part B: the coding stubs -----------------------------------------------

def _lengths(lengths, n_src):
    lengths = np.asarray(lengths)
    if lengths.ndim != 1 or lengths.min() < 1 or lengths.max() > n_src:
        raise ValueError("lengths must lie in [1, n_src]")
    return lengths


def mask_boolean(lengths, n_src):
    lengths = _lengths(lengths, n_src)
    return np.arange(n_src)[None, :] >= lengths[:, None]


_TABLE = np.arange(512)


def mask_from_table(lengths, n_src):
    lengths = _lengths(lengths, n_src)
    return np.where(_TABLE[None, :n_src] >= lengths[:, None], -np.inf, 0.0)


def mask_python_int_only(lengths, n_src):
    if not isinstance(n_src, int):
        raise TypeError("n_src must be an int")
    lengths = _lengths(lengths, n_src)
    return np.where(np.arange(n_src)[None, :] >= lengths[:, None], -np.inf, 0.0)


def _scored(logits, labels, ignore_index):
    keep = labels != ignore_index
    if not keep.any():
        raise ValueError("no position to score")
    return logits[keep], labels[keep]


def perplexity_log_of_softmax(logits, labels, ignore_index=-100):
    rows, targets = _scored(np.asarray(logits, dtype=np.float64), np.asarray(labels), ignore_index)
    with np.errstate(all="ignore"):  # the mistake's own overflow, not the grader's warning
        e = np.exp(rows - rows.max(axis=1, keepdims=True))
        probs = e / e.sum(axis=1, keepdims=True)
        return float(np.exp(-np.log(probs[np.arange(len(rows)), targets]).mean()))


def perplexity_no_shift(logits, labels, ignore_index=-100):
    rows, targets = _scored(np.asarray(logits, dtype=np.float64), np.asarray(labels), ignore_index)
    with np.errstate(all="ignore"):
        log_z = np.log(np.exp(rows).sum(axis=1))
        return float(np.exp((log_z - rows[np.arange(len(rows)), targets]).mean()))


def perplexity_no_float_cast(logits, labels, ignore_index=-100):
    rows, targets = _scored(np.asarray(logits), np.asarray(labels), ignore_index)
    with np.errstate(all="ignore"):
        shifted = rows - rows.max(axis=1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        return float(np.exp(-log_probs[np.arange(len(rows)), targets].mean()))


TORCH_INTEGERS = {np.dtype(np.int8): "Char", np.dtype(np.uint8): "Byte",
                  np.dtype(np.int16): "Short", np.dtype(np.int32): "Int",
                  np.dtype(np.int64): "Long"}
"""torch's names of the integer dtypes, as its "not implemented for" messages give them."""


def _torch_refuses_integers(calls):
    """perplexity_no_float_cast, read in torch (a sign of that name): on integer scores
    whose dtype is not the labels', the stub raised torch's refusal of that dtype
    (softmax, log_softmax or exp "not implemented for 'Char'"), which only the scores,
    kept as they are, can cause."""
    def refused(args, kwargs, answer):
        logits, labels = (list(args) + [kwargs.get("logits"), kwargs.get("labels")])[:2]
        name = TORCH_INTEGERS.get(getattr(logits, "dtype", None))
        raised = isinstance(getattr(answer, "type_names", None), list)  # a Raised
        return raised and name is not None and getattr(labels, "dtype", None) != logits.dtype \
            and f"not implemented for '{name}'" in (answer.message or "")
    return any(refused(*call) for call in calls)


_torch_refuses_integers.__name__ = "perplexity_no_float_cast"


# Short answers are compared closely: a neighbouring wrong answer is no sign of this one.
# 1e-6 relative takes an answer computed in float32 (torch's default: about 1e-7 off), and
# stays 15 times below the nearest other answer (log(V) against log(V - 5) at V = 32,000
# differ by 1.5e-5 relative).
CLOSE = {"rtol": 1e-6, "atol": 1e-12}

NO_FLOAT_CAST = ("the arithmetic stays in the scores' own dtype; integer scores (int8) wrap "
                 "around when the row's largest is subtracted, their exp is only half "
                 "precision, and torch refuses softmax on them: convert the scores to float64 "
                 "first")

DIAGNOSES = [
    Diagnosis("encoder_params", params_12_d_squared,
              "only weight matrices are counted, as in the rule of thumb 12 d_model^2 (an "
              "estimate that also assumes one particular feed-forward width); the question "
              "asks for the exact count of every weight and bias, at your d_ff",
              f"{PART_A}, Question A1"),
    Diagnosis("cross_attention_shape", shape_source_first,
              "the source and target lengths are in each other's place; reread which sequence "
              "gives cross-attention its queries (the rows of the weights) and which its keys",
              f"{PART_A}, Question A2"),
    Diagnosis("mask_fraction", fraction_specials_selected,
              "the special positions ([CLS], [SEP]) were counted as selectable like the others; "
              "they are never selected, and the fraction asked is of all seq_len input positions",
              f"{PART_A}, Question A3", **CLOSE),
    Diagnosis("chance_level", chance_whole_vocabulary,
              "the uniform guess was spread over the whole vocabulary, the special ids "
              "included; the untrained head puts no probability on ids that are never a target",
              f"{PART_A}, Question A4", **CLOSE),
    Diagnosis("key_padding_mask", mask_boolean,
              "the mask is boolean (True at padding); it is added to the attention scores, so "
              "it holds float64 0.0 at real tokens and -inf at padding",
              f"{PART_B}, Question B1"),
    Diagnosis("key_padding_mask", mask_from_table,
              "the mask is sliced from a table of fixed width built once; build it for the "
              "n_src asked, however long the source", f"{PART_B}, Question B1"),
    Diagnosis("key_padding_mask", mask_python_int_only,
              "n_src is checked to be a Python int; a NumPy integer (such as lengths.max()) is "
              "an integer as the question means it, and must give what the plain int gives",
              f"{PART_B}, Question B1"),
    Diagnosis("perplexity", perplexity_log_of_softmax,
              "the log is taken of the softmax probabilities; a target far below its row's best "
              "has probability 0 in float64, whose log is -inf: compute the log-probabilities "
              "directly, as the scores minus their log-sum-exp", f"{PART_B}, Question B2"),
    Diagnosis("perplexity", perplexity_no_shift,
              "the log-sum-exp is computed without first subtracting each row's largest score; "
              "exp of scores in the thousands overflows (or underflows to 0)",
              f"{PART_B}, Question B2"),
    Diagnosis("perplexity", perplexity_no_float_cast, NO_FLOAT_CAST, f"{PART_B}, Question B2"),
    Diagnosis("perplexity", _torch_refuses_integers, NO_FLOAT_CAST,
              f"{PART_B}, Question B2", replay=False),
]
