"""Known mistakes of hw6_encoder_decoder, each explained for the student.

Each mistake is the stub written wrong, as students write it (the corpus's
buggy variants, tests/assignments/corpus/hw6_encoder_decoder/buggy/, make
them): the grader replays it, in the trusted process only, on the inputs of a
failing test and names it when the student's answers are its answers (see
autograder/engine/diagnoses/). Sections are the master's headings.
The stubs that take a generator cannot be replayed here: the mistakes of
xavier_uniform and sample_next are signs read from their answers instead
(Diagnosis.replay False), each true only of answers no correct stub gives, or
with a probability far below the tests' own; sample_next's draws, requested
thousands at a time, are recorded as the calls they are, and a sign of a wrong
distribution reads their counts. A draw from np.random instead of rng shows
where two fresh generators of one seed (Student.new keeps how a handle was
built, and counts its uses) gave different answers. greedy_decode's step is replayed
through its twin, a Step made here from the same code (test_greedy_decode.py),
whose record of its calls must end as the test read it from the worker's.
"""
import math
import numbers

import numpy as np

from autograder.testing import Diagnosis, made_by, times_sent

PART1 = "Part 1: initialisation that does not explode"
PART3 = "Part 3: teacher forcing (shift right)"
PART4 = "Part 4: attention, and cross-attention"
PART6 = "Part 6: the loss, at chance level"
PART7 = "Part 7: greedy decoding"
PART8 = "Part 8: sampling with temperature and top-k"


def _weights(calls):
    """(fan_in, fan_out, weights as float64) of the calls answered with a 2-D array."""
    for args, kwargs, answer in calls:
        if isinstance(answer, np.ndarray) and answer.ndim == 2 and answer.dtype.kind == "f" \
                and len(args) >= 2 and all(isinstance(x, int) and x > 0 for x in args[:2]):
            yield args[0], args[1], np.asarray(answer, dtype=np.float64)


def _bound(fan_in, fan_out):
    return math.sqrt(6.0 / (fan_in + fan_out))


def _fresh(handle):
    """What built a generator handle (Student.new: path, args, kwargs) when the test's
    one request it was sent in is the recorded one and nothing of it was read: it drew
    from its seed's start there. None otherwise."""
    made = made_by(handle)
    if made is None or times_sent(handle) != 1:
        return None
    path, args, kwargs = made
    if kwargs or not all(type(a) is int for a in args):
        return None
    return path, args


def _same_plain(a, b):
    """Equal arguments of the test's (numbers, None, numeric arrays), types included."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.dtype == b.dtype
                and a.dtype.kind in "biuf" and np.array_equal(a, b))
    return type(a) is type(b) and (a is None or (isinstance(a, numbers.Number) and a == b))


def _alike_apart(uses):
    """uses: (fresh generator's making, plain arguments, answer) of calls. Whether two
    generators built alike (one seed), each fresh, gave different answers on the same
    arguments: a stub drawing from rng only gives the same (its draws are its stream's)."""
    kept = []
    for made, plain, answer in uses:
        for made_b, plain_b, answer_b in kept:
            if made == made_b and len(plain) == len(plain_b) \
                    and all(_same_plain(a, b) for a, b in zip(plain, plain_b)) \
                    and not _same_answer(answer, answer_b):
                return True
        kept.append((made, plain, answer))
    return False


def _same_answer(a, b):
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(
            a, b, equal_nan=a.dtype.kind == "f")
    return type(a) is type(b) and a == b


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


class _Run:
    """The calls of one request of sample_next (a repeat's n draws share one arguments
    object; a single call is a run of one): its arguments, the ids drawn, whether one
    raised (the Raised answers), and whether an answer was neither."""

    def __init__(self, logits, temperature, rng, top_k, answers):
        self.logits, self.temperature, self.rng, self.top_k = logits, temperature, rng, top_k
        if all(type(a) is int for a in answers):  # a repeat's draws: no check per answer
            self.ids, self.raised, self.other = answers, [], False
        else:
            self.ids = [a for a in answers if _drew(a)]
            self.raised = [a for a in answers if _raised(a)]
            self.other = len(self.ids) + len(self.raised) < len(answers)
        try:  # the ids as an array: an int beyond int64 is no id anyway
            self.drawn = np.asarray(self.ids, dtype=np.int64)
        except OverflowError:
            self.drawn, self.other = np.zeros(0, dtype=np.int64), True


_RUNS = (None, None, 0, [])  # (first call, last call, calls, runs): one record, read by each sign


def _runs(calls):
    """The runs of sample_next's recorded calls, computed once per record (every sign
    reads the same calls, thousands of draws once the repeats are recorded)."""
    global _RUNS
    kept = _RUNS
    if calls and kept[0] is calls[0] and kept[1] is calls[-1] and kept[2] == len(calls):
        return kept[3]

    def bind(logits, temperature, rng, top_k=None):
        return logits, temperature, rng, top_k
    runs, groups = [], []  # groups: [args, kwargs, answers] of each run
    for args, kwargs, answer in calls:
        if groups and args is groups[-1][0] and kwargs is groups[-1][1]:
            groups[-1][2].append(answer)
        else:
            groups.append([args, kwargs, [answer]])
    for args, kwargs, answers in groups:
        try:
            runs.append(_Run(*bind(*args, **kwargs), answers))
        except TypeError:
            continue
    if calls:
        _RUNS = (calls[0], calls[-1], len(calls), runs)
    return runs


def _sampled(calls):
    """(logits, temperature, top_k, answer) of sample_next's calls: of each run, one
    id drawn and one Raised (what a sign of any answer's kind reads)."""
    for run in _runs(calls):
        for answers in (run.ids, run.raised):
            if answers:
                yield run.logits, run.temperature, run.top_k, answers[0]


def xavier_not_only_rng(calls):
    uses = []
    for args, kwargs, answer in calls:
        if len(args) == 3 and not kwargs and isinstance(answer, np.ndarray):
            made = _fresh(args[2])
            if made is not None:
                uses.append((made, args[:2], answer))
    return _alike_apart(uses)


def _number(x):
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def _raised(answer):
    """A recorded call that raised (Raised: the exception's type names)."""
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


def _valid(run):
    """The run's logits as a finite 1-D float64 array of two ids at least, when its
    arguments are valid (temperature > 0, top_k None or an integer >= 1), else None."""
    t, k = run.temperature, run.top_k
    if not (_number(t) and t > 0) or not (k is None or (
            isinstance(k, numbers.Integral) and not isinstance(k, bool) and k >= 1)):
        return None
    if not isinstance(run.logits, np.ndarray) or run.logits.ndim != 1 \
            or run.logits.size < 2 or run.logits.dtype.kind not in "iuf":
        return None
    logits = run.logits.astype(np.float64)
    return logits if np.isfinite(logits).all() else None


def _distribution(z, top_k):
    """softmax(z) over the top_k largest z (all of them without top_k); None when the
    cut falls on a tie (which of the tied ids survive is the sampler's choice)."""
    if top_k is not None and top_k < z.size:
        order = np.sort(z)
        if order[-top_k] == order[-top_k - 1]:
            return None
        z = np.where(z >= order[-top_k], z, -np.inf)
    with np.errstate(over="ignore", invalid="ignore"):
        p = np.exp(z - z.max())
        p = p / p.sum()
    return p if np.isfinite(p).all() else None


MARGIN = 50.0
"""The log-likelihood ratio a mistake's distribution must gain over the correct one: the
likelihood ratio of draws from the correct distribution is a martingale of mean 1, so it
ever reaches e^50 with probability at most e^-50 < 1e-21 (Ville), however the test stops."""


def _drawn_from(calls, mistaken):
    """Whether the draws of the valid runs fit the distribution mistaken(logits,
    temperature, top_k) (each count within 6 standard deviations of its mean, none where
    it gives 0) and favour it over softmax(logits / T) by MARGIN at least."""
    gain = 0.0
    for run in _runs(calls):
        logits = _valid(run)
        if logits is None or not run.ids or run.raised or run.other:
            continue
        ids = run.drawn
        if ids.min() < 0 or ids.max() >= logits.size:
            return False
        p = _distribution(logits / run.temperature, run.top_k)
        q = mistaken(logits, run.temperature, run.top_k)
        if p is None or q is None:
            continue
        n, counts = ids.size, np.bincount(ids, minlength=logits.size)
        if np.any((q == 0) & (counts > 0)) or np.any(
                np.abs(counts - n * q) > 6 * np.sqrt(n * q * (1 - q)) + 3):
            return False
        seen = counts > 0
        with np.errstate(divide="ignore"):
            gain += float(np.sum(counts[seen] * (np.log(q[seen]) - np.log(p[seen]))))
    return gain >= MARGIN


def sn_always_argmax(calls):
    def argmax(logits, temperature, top_k):
        return np.eye(logits.size)[np.argmax(logits)] if np.sum(
            logits == logits.max()) == 1 else None
    return _drawn_from(calls, argmax)


def sn_multiplies_by_temperature(calls):
    return _drawn_from(calls, lambda logits, t, k: _distribution(logits * t, k))


def sn_temperature_ignored(calls):
    return _drawn_from(calls, lambda logits, t, k: _distribution(logits, k))


def sn_ignores_top_k(calls):
    return _drawn_from(calls, lambda logits, t, k: _distribution(logits / t, None))


def sn_top_k_one_more(calls):
    return _drawn_from(calls, lambda logits, t, k: _distribution(
        logits / t, None if k is None else k + 1))


def sn_top_k_miscounted(calls):
    """A family: the draws fit a top-k cut that keeps a few ids fewer (a strict `>` on
    the k-th largest keeps k - 1) or more than k, by one offset in every run; k + 1 has
    a diagnosis of its own."""
    def cut(logits, t, k, d):  # None where k + d keeps every id: that is sn_ignores_top_k
        return None if k is not None and k + d >= logits.size else _distribution(
            logits / t, None if k is None else max(1, k + d))
    return any(_drawn_from(calls, lambda logits, t, k, d=d: cut(logits, t, k, d))
               for d in (-2, -1, 2, 3))


def sn_not_only_rng(calls):
    uses = []
    for run in _runs(calls):
        made = _fresh(run.rng)
        if made is not None and run.ids and not run.raised and not run.other:
            uses.append((made, (run.logits, run.temperature, run.top_k), list(run.ids)))
    return _alike_apart(uses)


def _raised_valid(calls, when):
    """Whether a call of valid arguments raised where when(logits, temperature, top_k)
    holds, and none raised where it does not, while some drew an id there."""
    raised_when = raised_else = drew_else = False
    for run in _runs(calls):
        logits = _valid(run)
        if logits is None:
            continue
        if when(logits, run.temperature, run.top_k):
            raised_when |= bool(run.raised)
        else:
            raised_else |= bool(run.raised)
            drew_else |= bool(run.ids)
    return raised_when and drew_else and not raised_else


def sn_overflows(calls):
    """A call raised where exp(logits / T) overflows (logits / T above 709), never on
    logits whose exponentials are finite."""
    return _raised_valid(calls, lambda logits, t, k: k is None and np.max(logits / t) > 710)


def sn_top_k_beyond_vocabulary_raises(calls):
    return _raised_valid(calls, lambda logits, t, k: k is not None and k > logits.size
                         and np.max(np.abs(logits / t)) < 700)


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


def ce_naive_softmax(logits, labels, shift=False):
    """The log of softmax probabilities: with each row's largest subtracted first
    (shift), exp no longer overflows but a probability still underflows to 0."""
    logits = np.asarray(logits, dtype=np.float64)
    if shift:
        logits = logits - logits.max(axis=1, keepdims=True)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        return float(-np.mean(np.log(p[np.arange(len(labels)), labels])))


def ce_log_of_softmax(logits, labels):
    return ce_naive_softmax(logits, labels, shift=True)


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
    Diagnosis("sample_next", sn_always_argmax,
              "the id of the largest logit is returned every time (greedy); sample_next "
              "draws from softmax(logits / T) with rng, so every id of probability above 0 "
              "can come out", PART8, replay=False),
    Diagnosis("sample_next", sn_multiplies_by_temperature,
              "the logits are multiplied by the temperature; they are divided by it, so "
              "that T > 1 flattens the distribution and T < 1 sharpens it", PART8,
              replay=False),
    Diagnosis("sample_next", sn_temperature_ignored,
              "the temperature changes nothing (dividing the probabilities by T and "
              "renormalising gives them back); divide the logits by T, then take the "
              "softmax", PART8, replay=False),
    Diagnosis("sample_next", sn_ignores_top_k,
              "top_k is ignored, every id can be drawn; keep the top_k largest logits, give "
              "the others probability 0 and renormalise", PART8, replay=False),
    Diagnosis("sample_next", sn_top_k_one_more,
              "top_k keeps one id too many (the k + 1 largest logits); exactly the top_k "
              "largest survive, so top_k=1 is greedy", PART8, replay=False),
    Diagnosis("sample_next", sn_top_k_miscounted,
              "top_k keeps another number of ids than top_k (a strict > against the k-th "
              "largest logit keeps one fewer); exactly the top_k largest survive, so "
              "top_k=1 is greedy", PART8, replay=False),
    Diagnosis("sample_next", sn_overflows,
              "the softmax exponentiates logits / T unshifted, which overflows for large "
              "logits or a tiny temperature; subtract the maximum before exponentiating",
              PART8, replay=False),
    Diagnosis("sample_next", sn_top_k_beyond_vocabulary_raises,
              "a top_k larger than the vocabulary raises (an index such as np.sort(z)[-top_k] "
              "falls outside the array); a top_k of at least V keeps every id", "Question 6",
              replay=False),
    Diagnosis("sample_next", sn_not_only_rng,
              "the draws do not come from rng alone (np.random.* or another source); two "
              "generators of one seed must give the same ids, so draw with rng only",
              PART8, replay=False),
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
    Diagnosis("xavier_uniform", xavier_not_only_rng,
              "the weights do not come from rng alone (np.random.* or another source); two "
              "generators of one seed must give the same weights, so draw with rng only",
              PART1, replay=False),
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
              "use the log-sum-exp form m + log sum e^(l - m) - l_y", PART6,
              witnesses=(ce_log_of_softmax,)),
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
