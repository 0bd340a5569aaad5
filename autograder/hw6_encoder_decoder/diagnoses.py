"""Known mistakes of hw6_encoder_decoder, each explained for the student.

Each mistake is the stub written wrong, as students write it (the corpus's
buggy variants, tests/assignments/corpus/hw6_encoder_decoder/buggy/, make
them): the grader replays it, in the trusted process only, on the inputs of a
failing test and names it when the student's answers are its answers (see
autograder/engine/driving/diagnose.py). Sections are the master's headings.
The stubs that take a generator cannot be replayed here: the mistakes of
xavier_uniform and sample_next are signs read from their answers instead
(Diagnosis.replay False), each true only of answers no correct stub gives, or
with a probability far below the tests' own; the draws sample_next's tests
request many at a time are not recorded. greedy_decode's step is replayed
through its twin, a Step made here from the same code (test_greedy_decode.py),
whose record of its calls must end as the test read it from the worker's.
"""
import math
import numbers

import numpy as np

from autograder.testing import Diagnosis

PART1 = "Part 1: initialisation that does not explode"
PART3 = "Part 3: teacher forcing (shift right)"
PART4 = "Part 4: attention, and cross-attention"
PART6 = "Part 6: the loss, at chance level"
PART7 = "Part 7: greedy decoding"


def _weights(calls):
    """(fan_in, fan_out, weights as float64) of the calls answered with a 2-D array."""
    for args, kwargs, answer in calls:
        if isinstance(answer, np.ndarray) and answer.ndim == 2 and answer.dtype.kind == "f" \
                and len(args) >= 2 and all(isinstance(x, int) and x > 0 for x in args[:2]):
            yield args[0], args[1], np.asarray(answer, dtype=np.float64)


def _bound(fan_in, fan_out):
    return math.sqrt(6.0 / (fan_in + fan_out))


def xavier_transposed(calls):
    return any(fi != fo and w.shape == (fo, fi) for fi, fo, w in _weights(calls))


def xavier_u01(calls):
    """Hundreds of weights, none negative (a correct draw: each negative with odds 1/2)."""
    return any(w.size >= 100 and w.min() >= 0 for _, _, w in _weights(calls))


def xavier_fan_in_only(calls):
    """Within sqrt(6 / fan_in) everywhere, and beyond a as often as U(+-sqrt(6 / fan_in))
    lands there (a Gaussian of the same variance lands beyond a a third as often)."""
    seen = False
    for fi, fo, w in _weights(calls):
        if w.shape != (fi, fo) or w.size < 50:
            continue
        a, b = _bound(fi, fo), math.sqrt(6.0 / fi)
        beyond = float(np.mean(np.abs(w) > a))
        if np.abs(w).max() > b * (1 + 1e-9):
            return False
        seen |= beyond >= 0.7 * (1 - a / b)
    return seen


def xavier_normal(calls):
    """Weights of both signs, one beyond even sqrt(6 / fan_in) (but within 20 a): a
    distribution without bounds, of about the right scale."""
    return any(w.shape == (fi, fo) and w.min() < 0
               and np.abs(w).max() > math.sqrt(6.0 / fi) * (1 + 1e-9)
               and np.abs(w).max() < 20 * _bound(fi, fo) for fi, fo, w in _weights(calls))


def xavier_narrow(calls):
    """Thousands of weights, all within a / sqrt(2) (a correct draw: each with odds 0.71)."""
    return any(w.shape == (fi, fo) and w.size >= 1000 and w.min() < 0
               and np.abs(w).max() <= _bound(fi, fo) / math.sqrt(2) * (1 + 1e-9)
               for fi, fo, w in _weights(calls))


def xavier_one_row(calls):
    return any(w.shape[0] >= 2 and w.shape[1] >= 2 and (w == w[0]).all()
               for _, _, w in _weights(calls))


def _sampled(calls):
    """(logits, temperature, top_k, answer) of each call of sample_next."""
    def bind(logits, temperature, rng, top_k=None):
        return logits, temperature, top_k
    for args, kwargs, answer in calls:
        try:
            yield (*bind(*args, **kwargs), answer)
        except TypeError:
            continue


def _number(x):
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def _raised(answer):
    """A recorded call that raised (diagnose.Raised: the exception's type names)."""
    return isinstance(getattr(answer, "type_names", None), list)


def _drew(answer):
    return isinstance(answer, numbers.Integral) and not isinstance(answer, bool)


def _python_invalid(temperature, top_k):
    return (_number(temperature) and temperature <= 0) or (type(top_k) is int and top_k < 1)


def sn_unchecked(calls):
    """An id drawn for temperature <= 0 or a Python top_k < 1."""
    return any(_python_invalid(t, k) and _drew(a) for _, t, k, a in _sampled(calls))


def sn_numpy_top_k_unchecked(calls):
    """An id drawn for a numpy integer top_k < 1, while the Python ones raise."""
    found = list(_sampled(calls))
    return not any(_python_invalid(t, k) and _drew(a) for _, t, k, a in found) and any(
        isinstance(k, np.integer) and k < 1 and _drew(a) for _, t, k, a in found)


def sn_int_temperature_raises(calls):
    return any(type(t) is int and t > 0 and _raised(a) for _, t, k, a in _sampled(calls))


def sn_numpy_top_k_raises(calls):
    return any(isinstance(k, np.integer) and k >= 1 and _number(t) and t > 0
               and _raised(a) for _, t, k, a in _sampled(calls))


def tf_eos_in_input(continuation, sos_id, eos_id):
    continuation = list(continuation)
    return [sos_id] + continuation + [eos_id], continuation + [eos_id]


def tf_labels_keep_sos(continuation, sos_id, eos_id):
    continuation = list(continuation)
    return [sos_id] + continuation, [sos_id] + continuation


def tf_no_shift(continuation, sos_id, eos_id):
    continuation = list(continuation)
    return continuation + [eos_id], continuation + [eos_id]


def tf_swapped(continuation, sos_id, eos_id):
    continuation = list(continuation)
    return continuation + [eos_id], [sos_id] + continuation


def _softmax(s, naive=False):
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(s if naive else s - s.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)


def _attend(y, h, Wq, Wk, Wv, Wo, heads, *, q_from="y", kv_from="h", scale=None,
            interleaved=False, causal=False, naive=False, project=True):
    """Cross-attention with one thing changed (the keyword that is not its default)."""
    y, h = np.asarray(y, dtype=np.float64), np.asarray(h, dtype=np.float64)
    src = {"y": y, "h": h}
    d = y.shape[1]
    d_k = d // heads

    def split(m):
        if interleaved:
            return m.reshape(m.shape[0], d_k, heads).transpose(2, 0, 1)
        return m.reshape(m.shape[0], heads, d_k).transpose(1, 0, 2)

    q = split(src[q_from] @ Wq)
    k, v = split(src[kv_from] @ Wk), split(src[kv_from] @ Wv)
    s = q @ k.transpose(0, 2, 1) / math.sqrt(scale or d_k)
    if causal:
        s = s + np.triu(np.full(s.shape[1:], -np.inf), 1)
    w = _softmax(s, naive)
    heads_out = w @ v
    n = q.shape[1]
    concat = (heads_out.transpose(1, 2, 0) if interleaved
              else heads_out.transpose(1, 0, 2)).reshape(n, d)
    return (concat @ Wo if project else concat), w


def ca_causal(y, h, Wq, Wk, Wv, Wo, heads):
    return _attend(y, h, Wq, Wk, Wv, Wo, heads, causal=True)


def ca_interleaved(y, h, Wq, Wk, Wv, Wo, heads):
    return _attend(y, h, Wq, Wk, Wv, Wo, heads, interleaved=True)


def ca_keys_from_decoder(y, h, Wq, Wk, Wv, Wo, heads):
    return _attend(y, h, Wq, Wk, Wv, Wo, heads, kv_from="y")


def ca_naive_softmax(y, h, Wq, Wk, Wv, Wo, heads):
    return _attend(y, h, Wq, Wk, Wv, Wo, heads, naive=True)


def ca_no_output_projection(y, h, Wq, Wk, Wv, Wo, heads):
    return _attend(y, h, Wq, Wk, Wv, Wo, heads, project=False)


def ca_roles_swapped(y, h, Wq, Wk, Wv, Wo, heads):
    return _attend(y, h, Wq, Wk, Wv, Wo, heads, q_from="h", kv_from="y")


def ca_by_model_width(y, h, Wq, Wk, Wv, Wo, heads):
    return _attend(y, h, Wq, Wk, Wv, Wo, heads, scale=np.shape(y)[1])


def _log_softmax(logits, axis=1):
    logits = np.asarray(logits, dtype=np.float64)
    return logits - np.logaddexp.reduce(logits, axis=axis, keepdims=True)


def ce_shifted_again(logits, labels):
    lp, labels = _log_softmax(logits), np.asarray(labels)
    if len(labels) == 1:
        return float(-lp[0, labels[0]])
    return float(-lp[np.arange(len(labels) - 1), labels[1:]].mean())


def ce_no_minus(logits, labels):
    return float(_log_softmax(logits)[np.arange(len(labels)), labels].mean())


def ce_naive_softmax(logits, labels):
    logits = np.asarray(logits, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        return float(-np.mean(np.log(p[np.arange(len(labels)), labels])))


def ce_over_positions(logits, labels):
    return float(-_log_softmax(logits, axis=0)[np.arange(len(labels)), labels].mean())


def ce_sum(logits, labels):
    return float(-_log_softmax(logits)[np.arange(len(labels)), labels].sum())


def gd_calls_step_twice(step, sos_id, eos_id, max_len):
    ids = [sos_id]
    while len(ids) - 1 < max_len:
        ids.append(int(np.argmax(step(ids))))
        if int(np.argmax(step(ids[:-1]))) == eos_id:
            break
    return ids


def gd_drops_eos(step, sos_id, eos_id, max_len):
    ids = [sos_id]
    while len(ids) - 1 < max_len:
        next_id = int(np.argmax(step(ids)))
        if next_id == eos_id:
            break
        ids.append(next_id)
    return ids


def gd_last_token_only(step, sos_id, eos_id, max_len):
    ids = [sos_id]
    while len(ids) - 1 < max_len:
        ids.append(int(np.argmax(step([ids[-1]]))))
        if ids[-1] == eos_id:
            break
    return ids


def gd_highest_on_ties(step, sos_id, eos_id, max_len):
    ids = [sos_id]
    while len(ids) - 1 < max_len:
        logits = np.asarray(step(ids))
        ids.append(int(len(logits) - 1 - np.argmax(logits[::-1])))
        if ids[-1] == eos_id:
            break
    return ids


def gd_max_len_counts_sos(step, sos_id, eos_id, max_len):
    ids = [sos_id]
    while len(ids) < max_len:
        ids.append(int(np.argmax(step(ids))))
        if ids[-1] == eos_id:
            break
    return ids


def gd_without_sos(step, sos_id, eos_id, max_len):
    ids = [sos_id]
    while len(ids) - 1 < max_len:
        ids.append(int(np.argmax(step(ids))))
        if ids[-1] == eos_id:
            break
    return ids[1:]


def gd_stops_on_sos_eos(step, sos_id, eos_id, max_len):
    ids = [sos_id]
    while ids[-1] != eos_id and len(ids) - 1 < max_len:
        ids.append(int(np.argmax(step(ids))))
    return ids


DIAGNOSES = [
    Diagnosis("sample_next", sn_unchecked,
              "an invalid argument is used instead of refused; a temperature <= 0 or a top_k "
              "< 1 raises ValueError", "Question 6", replay=False),
    Diagnosis("sample_next", sn_numpy_top_k_unchecked,
              "a numpy integer top_k is neither checked nor applied (isinstance(top_k, int) "
              "is False for np.int64); any integer >= 1 is a top_k", "Question 6",
              replay=False),
    Diagnosis("sample_next", sn_int_temperature_raises,
              "an int temperature raises; the temperature is any number > 0, 2 as well as "
              "2.0", "Question 6", replay=False),
    Diagnosis("sample_next", sn_numpy_top_k_raises,
              "a numpy integer top_k raises; top_k is any integer >= 1, np.int64(3) as well "
              "as 3", "Question 6", replay=False),
    Diagnosis("xavier_uniform", xavier_transposed,
              "the weights have shape (fan_out, fan_in); they are (fan_in, fan_out), so that "
              "x @ W maps fan_in inputs to fan_out outputs", "Question 1", replay=False),
    Diagnosis("xavier_uniform", xavier_u01,
              "the weights are drawn from U(0, 1), all positive; draw them from U(-a, a) "
              "with a = sqrt(6 / (fan_in + fan_out))", PART1, replay=False),
    Diagnosis("xavier_uniform", xavier_fan_in_only,
              "the bound is sqrt(6 / fan_in); Xavier's a = sqrt(6 / (fan_in + fan_out)) "
              "keeps the variance both forwards and backwards", PART1, replay=False),
    Diagnosis("xavier_uniform", xavier_normal,
              "the weights are drawn from a normal distribution (Glorot normal); this is the "
              "uniform version, U(-a, a), every weight within [-a, a]", PART1, replay=False),
    Diagnosis("xavier_uniform", xavier_narrow,
              "the interval is too narrow (sqrt(3 / (fan_in + fan_out))); U(-a, a) has "
              "variance a^2 / 3, so a = sqrt(6 / (fan_in + fan_out)) gives the variance "
              "2 / (fan_in + fan_out)", PART1, replay=False),
    Diagnosis("xavier_uniform", xavier_one_row,
              "one row of weights is drawn and repeated; every entry of the (fan_in, "
              "fan_out) matrix is its own draw", PART1, replay=False),
    Diagnosis("teacher_forcing", tf_eos_in_input,
              "<eos> is appended to the decoder input as well; the input is <sos> + y, one "
              "token shorter than y + [eos], so input and labels have the same length", PART3),
    Diagnosis("teacher_forcing", tf_labels_keep_sos,
              "the labels start with <sos>; they are the continuation followed by <eos>, "
              "what each position must predict next", PART3),
    Diagnosis("teacher_forcing", tf_no_shift,
              "the decoder input is not shifted right; it starts with <sos>, so that "
              "position t reads y_<t and predicts y_t instead of reading its own label",
              PART3),
    Diagnosis("teacher_forcing", tf_swapped,
              "the pair is returned in the wrong order; it is (decoder input, labels): "
              "([sos] + y, y + [eos])", PART3),
    Diagnosis("cross_attention", ca_causal,
              "cross-attention is given a causal mask; the whole prefix is known before the "
              "decoder starts, so every decoder position may read every encoder position",
              PART4),
    Diagnosis("cross_attention", ca_interleaved,
              "the heads take interleaved columns; head i uses the contiguous block "
              "[i*d/heads, (i+1)*d/heads), and the heads are concatenated back in order",
              PART4),
    Diagnosis("cross_attention", ca_keys_from_decoder,
              "the keys and values come from the decoder states y, which makes it "
              "self-attention; in cross-attention K = h Wk and V = h Wv come from the "
              "encoder output", PART4),
    Diagnosis("cross_attention", ca_naive_softmax,
              "the softmax exponentiates the raw scores, which overflows for large ones; "
              "subtract each row's maximum before exponentiating", PART4),
    Diagnosis("cross_attention", ca_no_output_projection,
              "the concatenated heads are returned without the output projection; out is "
              "the concatenation times Wo", PART4),
    Diagnosis("cross_attention", ca_roles_swapped,
              "the queries come from the encoder and the keys and values from the decoder; "
              "each decoder position asks (Q = y Wq) and the encoder positions answer "
              "(K = h Wk, V = h Wv)", PART4),
    Diagnosis("cross_attention", ca_by_model_width,
              "the scores are divided by sqrt(d_model) instead of sqrt(d_k); each head works "
              "in d_k = d_model / heads dimensions", PART4),
    Diagnosis("sequence_cross_entropy", ce_shifted_again,
              "the labels are shifted once more; teacher_forcing already aligned them, so "
              "row t of the logits is scored against labels[t]", PART6),
    Diagnosis("sequence_cross_entropy", ce_no_minus,
              "the minus sign is missing; the loss is the mean of -log softmax(logits)[label], "
              "positive, and log V for uniform logits", PART6),
    Diagnosis("sequence_cross_entropy", ce_naive_softmax,
              "log(softmax) is computed naively, which gives log 0 = -inf for large logits; "
              "use the log-sum-exp form m + log sum e^(l - m) - l_y", PART6),
    Diagnosis("sequence_cross_entropy", ce_over_positions,
              "the softmax is taken over the positions (axis 0) instead of over the "
              "vocabulary; each row of the logits is one distribution over the V tokens",
              PART6),
    Diagnosis("sequence_cross_entropy", ce_sum,
              "the losses of the positions are summed; the loss is their mean over the n "
              "positions", PART6),
    Diagnosis("greedy_decode", gd_calls_step_twice,
              "step is called twice per generated token; calling the model is the expensive "
              "part, so call it once, append the argmax, and test that id against eos_id",
              PART7),
    Diagnosis("greedy_decode", gd_drops_eos,
              "the loop stops before appending eos_id; eos_id is appended like any other "
              "id, and decoding stops right after it", "Question 5"),
    Diagnosis("greedy_decode", gd_last_token_only,
              "step is given only the last id; it takes the whole list of ids so far, sos_id "
              "first, since the decoder attends to every earlier position", PART7),
    Diagnosis("greedy_decode", gd_highest_on_ties,
              "ties go to the highest id; when several ids share the largest logit the "
              "lowest one wins, which is what np.argmax returns", PART7),
    Diagnosis("greedy_decode", gd_max_len_counts_sos,
              "sos_id is counted among the max_len ids; max_len ids may follow sos_id, so "
              "the loop runs while len(ids) - 1 < max_len", "Question 5"),
    Diagnosis("greedy_decode", gd_without_sos,
              "the list is returned without sos_id; the whole list is returned, sos_id "
              "first", "Question 5"),
    Diagnosis("greedy_decode", gd_stops_on_sos_eos,
              "the loop stops when the last id is eos_id, so it never starts when sos_id "
              "equals eos_id (GPT-2 uses one token for both); stop once eos_id has been "
              "appended", "Question 5"),
]
