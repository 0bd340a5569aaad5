"""Known mistakes of hw5_eeg_bert, each explained for the student.

Each mistake is the stub written wrong, as students write it (the corpus's
buggy variants, tests/assignments/corpus/hw5_eeg_bert/buggy/, make them): the
grader replays it, in the trusted process only, on the inputs of a failing test
and names it when the student's answers are its answers (see
autograder/engine/diagnoses/). Sections are the master's headings.
A generator returned for the array is a handle: replayed, the mistake's answer
is one too (engine/diagnoses/drive.py), the reference's an array. Not declared: z modified
in place, whose answers are the reference's; its test calls mask_patches inside
the worker (a probe reads z there), so no call is recorded, and the test's own
message already names the mistake.
"""
import inspect
import math
import numbers

import numpy as np

from autograder.hw5_eeg_bert import reference
from autograder.testing import Diagnosis, refused_with_assert

PART1 = "Part 1: patches are the tokens"
PART3 = "Part 3: layer normalisation"
PART4 = "Part 4: masking"
PART5 = "Part 5: bidirectional self-attention"
PART6 = "Part 6: the encoder block, the reconstruction head and the loss"
PART7 = "Part 7: what `[CLS]` is for"


def _checked(signal, patch_len):
    """The reference's validation: (signal as float64, C, N, P)."""
    signal = np.asarray(signal, dtype=np.float64)
    if isinstance(patch_len, bool) or not isinstance(patch_len, numbers.Integral) or patch_len < 1:
        raise ValueError(patch_len)
    C, N = signal.shape
    if N % patch_len:
        raise ValueError(patch_len)
    return signal, C, N, N // patch_len


_PATCHIFY = inspect.signature(reference.patchify)


def _patchify_calls(calls):
    """(signal as an array, patch_len, answer) of each call."""
    for args, kwargs, answer in calls:
        try:
            given = _PATCHIFY.bind(*args, **kwargs).arguments
            yield np.asarray(given["signal"]), given["patch_len"], answer
        except (TypeError, ValueError):
            continue


def _holds(answer, samples, shape) -> bool:
    """The answer is an array of numbers of that shape holding those samples, in any
    order (the order of the patches and of their samples is other mistakes' subject)."""
    return isinstance(answer, np.ndarray) and answer.dtype.kind in "biuf" \
        and answer.shape == shape and np.allclose(
            np.sort(answer.astype(np.float64), axis=None),
            np.sort(np.asarray(samples, dtype=np.float64), axis=None), rtol=1e-6, atol=0)


def patchify_keeps_dtype(calls):
    """A sign: every answer to a signal that is not float64 holds its samples as patches
    in the signal's own dtype (at least one such call); the other answers are not read."""
    seen = False
    for signal, patch_len, answer in _patchify_calls(calls):
        if signal.dtype == np.float64 or signal.dtype.kind not in "biuf":
            continue
        try:
            right = reference.patchify(signal, patch_len)
        except (TypeError, ValueError):  # a call refused: not one of this sign's
            continue
        if not (_holds(answer, signal, right.shape) and answer.dtype == signal.dtype):
            return False
        seen = True
    return seen


def patchify_plain_reshape(signal, patch_len):
    signal, C, N, P = _checked(signal, patch_len)
    return signal.reshape(P, C * patch_len)


def patchify_sample_major(signal, patch_len):
    signal, C, N, P = _checked(signal, patch_len)
    return signal.T.reshape(P, C * patch_len)


def patchify_truncates(calls):
    """A sign: every answer to a patch_len (an int >= 1) that does not divide N holds the
    patches of the signal cut to a multiple of it, where ValueError is due (at least one
    such call), in any order; the other answers are not read (what it does with
    patch_len 0, or in which order it lays the patches, are other mistakes)."""
    seen = False
    for signal, patch_len, answer in _patchify_calls(calls):
        if isinstance(patch_len, bool) or not isinstance(patch_len, numbers.Integral) \
                or patch_len < 1 or signal.ndim != 2 or signal.shape[1] % patch_len == 0:
            continue
        n = signal.shape[1] // patch_len
        if not _holds(answer, signal[:, :n * int(patch_len)], (n, signal.shape[0] * int(patch_len))):
            return False
        seen = True
    return seen


def patchify_generator(signal, patch_len):
    signal, C, N, P = _checked(signal, patch_len)
    return (signal[:, p * patch_len:(p + 1) * patch_len].reshape(-1) for p in range(P))


def _layer_norm(x, eps, axis=-1, ddof=0, outside=False):
    x = np.asarray(x, dtype=np.float64)
    centred = x - x.mean(axis=axis, keepdims=True)
    var = x.var(axis=axis, ddof=ddof, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        return centred / (np.sqrt(var) + eps if outside else np.sqrt(var + eps))


def ln_bert_eps(x, eps=1e-12):
    return _layer_norm(x, eps)


def ln_eps_outside(x, eps=1e-5):
    return _layer_norm(x, eps, outside=True)


def ln_no_eps(x, eps=1e-5):
    return _layer_norm(x, 0.0)


def ln_over_columns(x, eps=1e-5):
    return _layer_norm(x, eps, axis=0)


def ln_sample_variance(x, eps=1e-5):
    return _layer_norm(x, eps, ddof=1)


def mask_added(z, positions, mask_vector):
    out = np.array(z, copy=True)
    out[list(positions)] += mask_vector
    return out


def mask_shifted_for_cls(z, positions, mask_vector):
    out = np.array(z, copy=True)
    for p in positions:
        out[p - 1] = mask_vector
    return out


def mask_token_id(z, positions, mask_vector):
    out = [row.copy() for row in z]
    for p in positions:
        out[int(p)] = 103
    return out


def _softmax(s, axis=-1, naive=False):
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(s if naive else s - s.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)


def _attend(x, Wq, Wk, Wv, Wo, heads, *, scale=None, interleaved=False, causal=False,
            naive=False, axis=-1, project=True):
    """Self-attention with one thing changed (the keyword that is not its default)."""
    x = np.asarray(x, dtype=np.float64)
    T, d = x.shape
    d_k = d // heads
    if interleaved:
        split = lambda m: m.reshape(T, d_k, heads).transpose(2, 0, 1)
    else:
        split = lambda m: m.reshape(T, heads, d_k).transpose(1, 0, 2)
    q, k, v = split(x @ Wq), split(x @ Wk), split(x @ Wv)
    s = q @ k.transpose(0, 2, 1) / math.sqrt(scale or d_k)
    if causal:
        s = s + np.triu(np.full((T, T), -np.inf), 1)
    w = _softmax(s, axis, naive)
    out = w @ v
    concat = (out.transpose(1, 2, 0) if interleaved else out.transpose(1, 0, 2)).reshape(T, d)
    return (concat @ Wo if project else concat), w


def attn_causal(x, Wq, Wk, Wv, Wo, heads):
    return _attend(x, Wq, Wk, Wv, Wo, heads, causal=True)


def attn_interleaved(x, Wq, Wk, Wv, Wo, heads):
    return _attend(x, Wq, Wk, Wv, Wo, heads, interleaved=True)


def attn_naive_softmax(x, Wq, Wk, Wv, Wo, heads):
    return _attend(x, Wq, Wk, Wv, Wo, heads, naive=True)


def attn_by_model_width(x, Wq, Wk, Wv, Wo, heads):
    return _attend(x, Wq, Wk, Wv, Wo, heads, scale=np.shape(x)[1])


def attn_over_queries(x, Wq, Wk, Wv, Wo, heads):
    return _attend(x, Wq, Wk, Wv, Wo, heads, axis=-2)


def attn_no_output_projection(x, Wq, Wk, Wv, Wo, heads):
    return _attend(x, Wq, Wk, Wv, Wo, heads, project=False)


def _rows(masked):
    rows = np.asarray(list(masked), dtype=np.int64)
    if rows.size == 0:
        raise ValueError("empty")
    return rows


def _diff(recon, target, rows):
    return np.asarray(recon, dtype=np.float64)[rows] - np.asarray(target, dtype=np.float64)[rows]


def loss_all_rows(recon, target, masked):
    _rows(masked)
    return float(np.mean((np.asarray(recon, dtype=np.float64)
                          - np.asarray(target, dtype=np.float64)) ** 2))


def loss_empty_nan(recon, target, masked):
    rows = np.asarray(list(masked), dtype=np.int64)
    if rows.size == 0:
        return float("nan")
    return float(np.mean(_diff(recon, target, rows) ** 2))


def loss_shifted_for_cls(recon, target, masked):
    return float(np.mean(_diff(recon, target, _rows(masked) - 1) ** 2))


def loss_sum_of_squares(recon, target, masked):
    return float(np.mean(np.sum(_diff(recon, target, _rows(masked)) ** 2, axis=-1)))


def _logit(h_cls, w, b):
    return float(np.dot(np.asarray(h_cls, dtype=np.float64), np.asarray(w, dtype=np.float64)) + b)


def cls_misses_zero(h_cls, w, b):
    z = _logit(h_cls, w, b)
    if z > 0:
        return 1.0 / (1.0 + math.exp(-z))
    if z < 0:
        e = math.exp(z)
        return e / (1.0 + e)
    return None


def cls_exp_ratio(h_cls, w, b):
    z = np.float64(_logit(h_cls, w, b))
    with np.errstate(over="ignore", invalid="ignore"):
        return float(np.exp(z) / (1.0 + np.exp(z)))


def cls_no_bias(h_cls, w, b):
    return 0.5 * (1.0 + math.tanh(_logit(h_cls, w, 0.0) / 2.0))


def cls_overflows(h_cls, w, b):
    return 1.0 / (1.0 + math.exp(-_logit(h_cls, w, b)))


def cls_no_sigmoid(h_cls, w, b):
    return _logit(h_cls, w, b)


DIAGNOSES = [
    Diagnosis("patchify", patchify_keeps_dtype,
              "the patches keep the signal's dtype; return a float64 array whatever the "
              "input's dtype", "Question 1", replay=False),
    Diagnosis("patchify", patchify_plain_reshape,
              "the signal is reshaped straight to (P, C*L), which cuts it row by row; each "
              "patch holds the L samples of channel 0, then those of channel 1, ...", PART1),
    Diagnosis("patchify", patchify_sample_major,
              "the samples are interleaved across channels; a patch is flattened channel by "
              "channel: first the L samples of channel 0, then those of channel 1", PART1),
    Diagnosis("patchify", patchify_truncates,
              "a patch_len that does not divide N is accepted and samples are dropped; "
              "raise ValueError instead, silently dropping samples would hide a bug",
              "Question 1", replay=False),
    refused_with_assert("patchify", reference.patchify, "Question 1", "patchify_asserted"),
    Diagnosis("patchify", patchify_generator,
              "a generator of rows is returned; build the array from them (np.array, "
              "np.stack) or reshape the signal, so that the caller gets a float64 array",
              "Question 1"),
    Diagnosis("layer_norm", ln_bert_eps,
              "the default eps is 1e-12 (BERT's) instead of 1e-5; it only shows on rows "
              "whose variance is near eps", PART3),
    Diagnosis("layer_norm", ln_eps_outside,
              "eps is added to the standard deviation; it sits inside the square root, "
              "(x - mu) / sqrt(sigma^2 + eps)", PART3),
    Diagnosis("layer_norm", ln_no_eps,
              "eps is left out, so a constant row divides by zero; it sits inside the "
              "square root, (x - mu) / sqrt(sigma^2 + eps)", PART3),
    Diagnosis("layer_norm", ln_over_columns,
              "the statistics are taken over the columns (axis 0); layer norm works on each "
              "row on its own, over the last axis", PART3),
    Diagnosis("layer_norm", ln_sample_variance,
              "the sample variance (ddof=1) is used; sigma^2 is the population variance, "
              "divided by d, not d - 1", PART3),
    Diagnosis("mask_patches", mask_added,
              "the mask vector is added to the chosen rows; each chosen row is replaced by "
              "it", PART4),
    Diagnosis("mask_patches", mask_shifted_for_cls,
              "the positions are shifted by one for [CLS]; they are already row indices "
              "of z", PART4),
    Diagnosis("mask_patches", mask_token_id,
              "the chosen rows become the [MASK] token id 103, as in text BERT; here they "
              "are replaced by the mask vector, in an array of z's shape", PART4),
    Diagnosis("bidirectional_self_attention", attn_causal,
              "a causal mask hides the future, as in a GPT-style decoder; BERT's "
              "self-attention is bidirectional: every position sees every other", PART5),
    Diagnosis("bidirectional_self_attention", attn_interleaved,
              "the heads take interleaved columns; head i uses the contiguous block "
              "[i*d/heads, (i+1)*d/heads), and the heads are concatenated back in order",
              PART5),
    Diagnosis("bidirectional_self_attention", attn_naive_softmax,
              "the softmax exponentiates the raw scores, which overflows for large ones; "
              "subtract each row's maximum before exponentiating", PART5),
    Diagnosis("bidirectional_self_attention", attn_by_model_width,
              "the scores are divided by sqrt(d_model) instead of sqrt(d_k); each head works "
              "in d_k = d_model / heads dimensions", PART5),
    Diagnosis("bidirectional_self_attention", attn_over_queries,
              "the softmax is taken over the queries (axis -2) instead of over the keys; "
              "each query's row of weights must sum to one", PART5),
    Diagnosis("bidirectional_self_attention", attn_no_output_projection,
              "the concatenated heads are returned without the output projection; out is "
              "the concatenation times Wo", PART5),
    Diagnosis("masked_reconstruction_loss", loss_all_rows,
              "every row counts; only the masked rows do: the unmasked ones were handed to "
              "the model, so rebuilding them would be copying, not learning", PART6),
    Diagnosis("masked_reconstruction_loss", loss_empty_nan,
              "an empty mask gives nan; a mean over nothing is undefined, so raise "
              "ValueError", "Question 5"),
    refused_with_assert("masked_reconstruction_loss", reference.masked_reconstruction_loss,
                        "Question 5", "loss_asserted"),
    Diagnosis("masked_reconstruction_loss", loss_shifted_for_cls,
              "the masked indices are shifted by one for [CLS]; they are already row indices "
              "of recon and target", PART6),
    Diagnosis("masked_reconstruction_loss", loss_sum_of_squares,
              "each row's squared errors are summed (a squared norm); take each row's mean "
              "squared error, the sum divided by C*L", PART6),
    Diagnosis("cls_probability", cls_misses_zero,
              "a logit of exactly 0 falls through both branches (z > 0, z < 0) and returns "
              "None; one of them must include 0", PART7),
    Diagnosis("cls_probability", cls_exp_ratio,
              "e^z / (1 + e^z) turns into inf / inf for large z; use the form whose exponent "
              "is never positive on each side of 0", PART7),
    Diagnosis("cls_probability", cls_no_bias,
              "the bias b is left out; the probability is sigmoid(h_cls . w + b)", PART7),
    Diagnosis("cls_probability", cls_overflows,
              "1 / (1 + e^-z) overflows for z < -709; use e^z / (1 + e^z) when z < 0", PART7),
    Diagnosis("cls_probability", cls_no_sigmoid,
              "the logit h_cls . w + b is returned; the probability is its sigmoid", PART7),
]
