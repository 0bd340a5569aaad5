"""Known mistakes of hw3_bert_pretraining, each explained for the student.

Each mistake is the stub written wrong, as students write it (the corpus's
buggy variants, tests/assignments/corpus/hw3_bert_pretraining/buggy/, make
them): the grader replays it, in the trusted process only, on the inputs of a
failing test and names it when the student's answers are its answers (see
autograder/engine/diagnoses/). Sections are the master's headings.
mask_tokens takes a generator, a handle in the worker, and cannot be replayed:
its mistakes are signs read from the answers (Diagnosis.replay False), each a
rule no correct sampler breaks or a share none comes near. Not declared: the
mistakes whose answers are the reference's (inputs edited in place, a loss cut
from its graph); samplers drawing from numpy's global state (the answers do not
say which generators had the same seed); a fixed number of targets per call (its
test's four totals each land there by chance with probability about 1/160: not
rare enough to name); and numpy arguments rejected (the test stops at the first
call, whose TypeError a renamed parameter raises too).
"""
import functools
import math
from dataclasses import replace

import numpy as np
import torch
import torch.nn.functional as F

from autograder.testing import Diagnosis

PART1 = "Part 1: masked language modelling"
CORRUPTION = f"{PART1}, \"The corruption, written out\""
PART2 = "Part 2: the loss counts the targets only"
PART3 = "Part 3: sentence pairs"
IGNORE = -100


def _bind(input_ids, vocab_size, mask_id, special_ids, rng, select_prob=0.15, mask_prob=0.8,
          random_prob=0.1):
    return input_ids, vocab_size, mask_id, special_ids, rng, (select_prob, mask_prob,
                                                              random_prob)


class _Answer:
    """One call of mask_tokens and its answer, as the test read it: where each
    position is special, labelled (label >= 0), changed, [MASK]."""

    def __init__(self, args, kwargs, answer):
        ids, vocab_size, mask_id, special_ids, self.rng, self.probs = _bind(*args, **kwargs)
        self.probs = tuple(float(p) for p in self.probs)
        self.ids = np.asarray(ids, dtype=np.int64)
        self.corrupted, self.labels = (np.asarray(a, dtype=np.int64) for a in answer)
        if self.corrupted.shape != self.ids.shape or self.labels.shape != self.ids.shape:
            raise ValueError("not the input's shape")
        specials = tuple(int(s) for s in special_ids)
        self.specials = np.asarray(specials, dtype=np.int64)
        self.low = len(self.specials)  # "the specials are the first ids" draws from [low, V)
        self.special = _special(self.ids, self.specials)
        self.labelled = self.labels >= 0
        self.changed = self.corrupted != self.ids
        self.mask_id = int(mask_id)
        self.masked = self.corrupted == self.mask_id
        self.default = self.probs == (0.15, 0.8, 0.1)
        self.ordinary = _ordinary(int(vocab_size), specials)


def _special(ids, specials):
    """np.isin(ids, specials), a comparison per special: a tenth of isin's time for a few."""
    if len(specials) > 16:
        return np.isin(ids, specials)
    found = np.zeros(ids.shape, dtype=bool)
    for s in specials.tolist():
        found |= ids == s
    return found


@functools.lru_cache(maxsize=16)
def _ordinary(vocab_size, specials):
    ordinary = np.setdiff1d(np.arange(vocab_size), np.asarray(specials, dtype=np.int64))
    ordinary.setflags(write=False)
    return ordinary


_last: list = [None]  # (the calls, their _Answers, what signs read from them): every sign
# of one test reads the same, one tuple so that a thread reads one test's whole


def _read(calls):
    """(the calls' _Answers, a dict for what several signs read from them) of the calls
    answered with a pair of arrays of the input's shape (read once per test: the signs of
    a failing test are asked in turn about the same calls)."""
    kept = _last[0]
    if kept is not None and len(kept[0]) == len(calls) and all(
            a is b for a, b in zip(kept[0], calls)):
        return kept[1], kept[2]
    found = []
    for args, kwargs, answer in calls:
        if isinstance(answer, tuple) and len(answer) == 2:
            try:
                found.append(_Answer(args, kwargs, answer))
            except (TypeError, ValueError):
                continue
    _last[0] = (calls, found, {})
    return found, _last[0][2]


def _answers(calls):
    return _read(calls)[0]


def _drawn(a):
    """The ids that replaced a labelled ordinary position at random (changed, not [MASK])."""
    return a.corrupted[a.labelled & ~a.special & a.changed & ~a.masked]


def mt_label_minus_one(calls):
    return any((a.labels == -1).any() for a in _answers(calls))


def mt_labels_corrupted(calls):
    return any((a.labelled & (a.labels != a.ids) & (a.labels == a.corrupted)).any()
               for a in _answers(calls))


def mt_labels_only_masked(calls):
    """Random replacements without a label, and every label at a [MASK]."""
    answers = _answers(calls)
    return any((~a.labelled & a.changed & ~a.masked).any() for a in answers) and all(
        (a.masked | ~a.labelled).all() for a in answers)


def _specials_selected(answers):
    return [a.ids[a.labelled & a.special] for a in answers]


def mt_selects_specials(calls):
    """Labels at special positions, the specials below len(special_ids) among them, and a
    special position changed ([MASK] or another id): labels alone at every position,
    nothing changed there, are unselected positions labelled with an id, not a selection."""
    answers = _answers(calls)
    return any((a.labelled & a.special & (a.ids < a.low)).any() for a in answers) \
        and any((a.labelled & a.special & a.changed).any() for a in answers)


def mt_specials_are_first_ids(calls):
    """Labels at special positions, never at one below len(special_ids) (PAD = 0, say)."""
    answers = _answers(calls)
    picked = np.concatenate(_specials_selected(answers) or [np.zeros(0, np.int64)])
    low = answers[0].low if answers else 0
    pads = sum(int((a.special & (a.ids < low)).sum()) for a in answers)
    return bool(picked.size) and not (picked < low).any() and pads >= 100


def mt_random_special(calls):
    """A random replacement that is a special id, and no special position selected (a
    sampler that selects specials is named by that)."""
    answers = _answers(calls)
    return not any((a.labelled & a.special).any() for a in answers) and any(
        np.isin(_drawn(a), a.specials).any() for a in answers)


def _split(calls):
    """(labelled, masked, drawn, kept) summed over the calls with default probabilities."""
    return _settings(calls).get((0.15, 0.8, 0.1), [0] * 6)[1:5]


def mt_kept_unlabelled(calls):
    """Hardly a target keeps its id (a tenth should), [MASK] takes 8 of 9 targets and a
    random id about 1 of 9: the labelled ones are the 90% changed. (Every target made
    [MASK], no random id, is not this mistake.)"""
    n, masked, drawn, kept = _split(calls)
    return n >= 2000 and kept < 0.03 * n and masked > 0.86 * n and drawn > 0.07 * n


def mt_never_kept(calls):
    """Hardly a target keeps its id (a tenth should), [MASK] takes its 80%."""
    n, masked, _, kept = _split(calls)
    return n >= 2000 and kept < 0.03 * n and 0.76 * n < masked < 0.84 * n


def mt_never_random(calls):
    """No target is replaced by another id (a tenth should be), [MASK] takes its 80%."""
    n, masked, drawn, _ = _split(calls)
    return n >= 2000 and drawn == 0 and 0.76 * n < masked < 0.84 * n


# A share is "implausible" under p when a correct sampler's share lands as far from p with
# probability below e^-60 (Chernoff: P <= exp(-n KL(share || p)) on either side).
UNLIKELY = 60.0


def _kl(share, p):
    """KL(Bernoulli(share) || Bernoulli(p)), inf where share is impossible under p."""
    total = 0.0
    for a, b in ((share, p), (1.0 - share, 1.0 - p)):
        if a > 0.0:
            if b <= 0.0:
                return math.inf
            total += a * math.log(a / b)
    return total


def _implausible(count, n, p):
    return n > 0 and n * _kl(count / n, p) >= UNLIKELY


def _settings(calls):
    """{probabilities: [ordinary, selected, masked, drawn, kept, ordinary ids]} summed over
    the calls made with them (every call's ordinary ids alike: the last call's count)."""
    answers, kept = _read(calls)
    if "settings" in kept:
        return kept["settings"]
    found = {}
    for a in answers:
        sel = a.labelled & ~a.special
        total = found.setdefault(a.probs, [0, 0, 0, 0, 0, 0])
        for i, c in enumerate(((~a.special).sum(), sel.sum(), (sel & a.masked).sum(),
                               (sel & a.changed & ~a.masked).sum(), (sel & ~a.changed).sum())):
            total[i] += int(c)
        total[5] = len(a.ordinary)
    kept["settings"] = found
    return found


def _split_fixed(settings):
    """A split of 80% [MASK] and 10% random ids where mask_prob says otherwise."""
    for (_, mask_prob, random_prob), (_, k, masked, drawn, _, m) in settings.items():
        if k >= 2000 and m > 1 and _implausible(masked, k, mask_prob) \
                and abs(masked / k - 0.8) <= 0.02 and abs(drawn / k - 0.1 * (m - 1) / m) <= 0.02:
            return True
    return False


def _selection_fixed(settings):
    """A selection rate of 15% where select_prob says otherwise."""
    return any(_implausible(sel, n, select_prob) and abs(sel / n - 0.15) <= 0.02
               for (select_prob, _, _), (n, sel, *_) in settings.items() if n >= 2000)


def mt_fixed_probabilities(calls):
    """15% selected and an 80/10 split whatever the probabilities given."""
    settings = _settings(calls)
    return _split_fixed(settings) and _selection_fixed(settings)


def mt_fixed_split(calls):
    """An 80/10 split whatever mask_prob and random_prob, every selection rate select_prob's."""
    settings = _settings(calls)
    return _split_fixed(settings) and not any(
        _implausible(sel, n, select_prob) for (select_prob, _, _), (n, sel, *_) in settings.items())


def mt_selects_all(calls):
    """Every ordinary position a target, where select_prob makes that all but impossible,
    and [MASK] at mask_prob of them all, as the split gives when every position is
    selected (labels on every position over a selection that did happen are another
    mistake: the unselected ones labelled with an id instead of -100)."""
    return any(sel == n and _implausible(sel, n, select_prob)
               and not _implausible(masked, n, mask_prob)
               for (select_prob, mask_prob, _), (n, sel, masked, *_) in _settings(calls).items())


def mt_second_draw(calls):
    """Random ids at random_prob * (1 - mask_prob) of the targets, not random_prob, the
    [MASK] share right."""
    for (_, mask_prob, random_prob), (_, k, masked, drawn, _, m) in _settings(calls).items():
        if k < 5000 or m < 2 or not 0.0 < mask_prob < 1.0 or random_prob <= 0.0:
            continue
        right, wrong = random_prob * (m - 1) / m, random_prob * (1.0 - mask_prob) * (m - 1) / m
        if not _implausible(masked, k, mask_prob) and _implausible(drawn, k, right) \
                and abs(drawn / k - wrong) <= max(0.005, 0.25 * wrong):
            return True
    return False


def _log_binomial(n, k, p):
    if p <= 0.0 or p >= 1.0:
        return 0.0 if k == round(n * p) else -math.inf
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
            + k * math.log(p) + (n - k) * math.log1p(-p))


def mt_fixed_per_row(calls):
    """Every row with floor or ceil(select_prob * its candidates) targets, which a correct
    sampler's binomial counts all hit with probability below e^-60."""
    log_p = 0.0
    for a in _answers(calls):
        p = a.probs[0]
        if a.ids.ndim == 0 or not 0.05 <= p <= 0.95:
            continue
        width = a.ids.shape[-1]
        candidates = (~a.special).reshape(-1, width).sum(axis=1)
        counts = (a.labelled & ~a.special).reshape(-1, width).sum(axis=1)
        low, high = np.floor(p * candidates), np.ceil(p * candidates)
        if not ((counts == low) | (counts == high) | ((low == 0) & (counts == 1))).all():
            return False
        for c, rows in zip(*np.unique(candidates, return_counts=True)):
            c = int(c)
            allowed = {math.floor(p * c), math.ceil(p * c), max(1, math.floor(p * c))}
            log_p += int(rows) * math.log(sum(math.exp(_log_binomial(c, k, p))
                                              for k in allowed if k <= c))
    return log_p <= -UNLIKELY


def mt_last_id_never_drawn(calls):
    """Random ids cover every ordinary id but the largest, over enough draws that a uniform
    sampler misses it with probability below e^-60."""
    answers = _answers(calls)
    if not answers or any(len(a.ordinary) < 3 for a in answers):
        return False
    ordinary = answers[0].ordinary
    if any(not np.array_equal(a.ordinary, ordinary) for a in answers):
        return False
    top = int(ordinary[-1])
    if any(a.mask_id == top for a in answers):  # a draw of top would read as [MASK]
        return False
    drawn = [(a.corrupted[m], a.ids[m]) for a in answers
             for m in [a.labelled & ~a.special & a.changed & ~a.masked]]
    ids = np.concatenate([d for d, _ in drawn])
    hits = np.bincount(ids[(ids >= 0) & (ids <= top)], minlength=top + 1)
    chances = sum(int((o != top).sum()) for _, o in drawn)  # draws that could have been top
    return (hits[top] == 0 and (hits[ordinary[:-1]] > 0).all()
            and -chances * math.log1p(-1.0 / (len(ordinary) - 1)) >= UNLIKELY)


def mt_rng_copied(calls):
    """One generator, the same input twice, the same answer twice, though other generators
    give that input other answers: rng is read without being advanced (a copy of it)."""
    answers = _answers(calls)
    for a in answers:
        if a.rng is None or not 0.05 <= a.probs[0] <= 0.95 or (~a.special).sum() < 1000:
            continue
        same_input = [b for b in answers if b is not a and b.probs == a.probs
                      and b.ids.shape == a.ids.shape and np.array_equal(b.ids, a.ids)]
        if any(b.rng is a.rng and _same_answer(a, b) for b in same_input) and any(
                b.rng is not a.rng and not _same_answer(a, b) for b in same_input):
            return True
    return False


def _same_answer(a, b):
    return np.array_equal(a.corrupted, b.corrupted) and np.array_equal(a.labels, b.labels)


def _flat(logits, labels):
    return logits.reshape(-1, logits.shape[-1]), labels.reshape(-1)


def mlm_class_zero(logits, labels):
    flat_logits, flat_labels = _flat(logits, labels)
    return F.cross_entropy(flat_logits, flat_labels.clamp(min=0))


def mlm_log_of_softmax(logits, labels):
    flat_logits, flat_labels = _flat(logits, labels)
    keep = flat_labels != IGNORE
    if not keep.any():
        return logits.sum() * 0.0
    probs = torch.exp(flat_logits[keep])
    probs = probs / probs.sum(-1, keepdim=True)
    return -torch.log(probs.gather(1, flat_labels[keep].unsqueeze(1))).mean()


def mlm_sum_when_nothing(logits, labels):
    flat_logits, flat_labels = _flat(logits, labels)
    if (flat_labels == IGNORE).all():
        return flat_logits.sum() * 1.0
    return F.cross_entropy(flat_logits, flat_labels, ignore_index=IGNORE)


def mlm_mean_over_all(logits, labels):
    flat_logits, flat_labels = _flat(logits, labels)
    total = F.cross_entropy(flat_logits, flat_labels, ignore_index=IGNORE, reduction="sum")
    return total / labels.numel()


def mlm_nan_when_nothing(logits, labels):
    return F.cross_entropy(*_flat(logits, labels), ignore_index=IGNORE)


def mlm_not_flattened(logits, labels):
    if (labels == IGNORE).all():
        return torch.zeros(())
    return F.cross_entropy(logits, labels)


def mlm_sum(logits, labels):
    return F.cross_entropy(*_flat(logits, labels), ignore_index=IGNORE, reduction="sum")


def nsp_first_sep_in_b(tokens_a, tokens_b, cls_id, sep_id):
    ids = [cls_id, *tokens_a, sep_id, *tokens_b, sep_id]
    return ids, [0] * (len(tokens_a) + 1) + [1] * (len(tokens_b) + 2)


def nsp_no_final_sep(tokens_a, tokens_b, cls_id, sep_id):
    ids = [cls_id, *tokens_a, sep_id, *tokens_b]
    return ids, [0] * (len(tokens_a) + 2) + [1] * len(tokens_b)


def nsp_one_segment(tokens_a, tokens_b, cls_id, sep_id):
    ids = [cls_id, *tokens_a, sep_id, *tokens_b, sep_id]
    return ids, [0] * len(ids)


def nsp_swapped(tokens_a, tokens_b, cls_id, sep_id):
    ids = [cls_id, *tokens_b, sep_id, *tokens_a, sep_id]
    return ids, [0] * (len(tokens_b) + 2) + [1] * (len(tokens_a) + 1)


DIAGNOSES = [
    Diagnosis("mask_tokens", mt_label_minus_one,
              "the positions that are not targets are labelled -1; the ignore index is -100, "
              "F.cross_entropy's default ignore_index", CORRUPTION, replay=False),
    Diagnosis("mask_tokens", mt_labels_corrupted,
              "the labels are read from the corrupted sequence; a label is the original "
              "token, the answer key the model must recover", CORRUPTION, replay=False),
    Diagnosis("mask_tokens", mt_labels_only_masked,
              "only the [MASK] positions get a label; the random and the unchanged targets "
              "must be predicted too, in all three cases the model predicts the original "
              "token", PART1, replay=False),
    Diagnosis("mask_tokens", mt_selects_specials,
              "special tokens ([CLS], [SEP], [PAD]) are selected too; they carry no content "
              "to recover, so only the ids not in special_ids may be chosen", PART1,
              replay=False),
    Diagnosis("mask_tokens", mt_specials_are_first_ids,
              "the special ids are taken to be the first ids of the vocabulary; use "
              "special_ids as given, they need not be 0, 1, 2, ...", CORRUPTION,
              replay=False),
    Diagnosis("mask_tokens", mt_random_special,
              "a random replacement is a special token such as [PAD] or [CLS]; draw random "
              "tokens uniformly from the ids not in special_ids, not from the whole "
              "vocabulary nor from the ids after the first len(special_ids)", CORRUPTION,
              replay=False),
    Diagnosis("mask_tokens", mt_kept_unlabelled,
              "the targets left unchanged get no label; in all three cases ([MASK], random, "
              "unchanged) the position is a target and keeps its original id as label",
              PART1, replay=False),
    Diagnosis("mask_tokens", mt_never_kept,
              "every target is changed, to [MASK] or a random token; 10% must stay "
              "unchanged, so that the model also predicts tokens it can see", PART1,
              replay=False),
    Diagnosis("mask_tokens", mt_never_random,
              "no target is ever replaced by a random token; after mask_prob, the next "
              "random_prob of the uniform number (u < mask_prob + random_prob) picks a "
              "random ordinary id", CORRUPTION, replay=False),
    Diagnosis("mask_tokens", mt_fixed_probabilities,
              "select_prob, mask_prob and random_prob are ignored, 15%, 80% and 10% written "
              "in; use the arguments (those numbers are only their defaults)", CORRUPTION,
              replay=False),
    Diagnosis("mask_tokens", mt_fixed_split,
              "mask_prob and random_prob are ignored, 80% and 10% written in; the split of "
              "the targets must follow the arguments (those numbers are only their defaults)",
              CORRUPTION, replay=False),
    Diagnosis("mask_tokens", mt_selects_all,
              "every ordinary token is made a target: the selection step is missing; first "
              "select each position with probability select_prob, then split the selected "
              "ones only", PART1, replay=False),
    Diagnosis("mask_tokens", mt_second_draw,
              "the random branch draws a second number and compares it with random_prob, so "
              "it happens with probability (1 - mask_prob) * random_prob; one uniform number "
              "u per target decides: u < mask_prob masks, u < mask_prob + random_prob draws "
              "a random id", CORRUPTION, replay=False),
    Diagnosis("mask_tokens", mt_fixed_per_row,
              "each row gets a fixed number of targets (rng.choice without replacement); "
              "select each position independently with probability select_prob, so that the "
              "number of targets varies from row to row", PART1, replay=False),
    Diagnosis("mask_tokens", mt_last_id_never_drawn,
              "the largest ordinary id is never drawn as a random replacement: the upper "
              "bound of rng.integers(low, high) is exclusive, so high must be one past the "
              "last index", CORRUPTION, replay=False),
    Diagnosis("mask_tokens", mt_rng_copied,
              "rng is copied (or its state restored) instead of drawn from, so the caller's "
              "generator never advances and every call with it corrupts the same positions; "
              "draw from rng itself", CORRUPTION, replay=False),
    Diagnosis("mlm_loss", mlm_class_zero,
              "the -100 labels are turned into class 0, so the positions that are not "
              "targets count as predicting token 0; skip them with ignore_index=-100", PART2),
    Diagnosis("mlm_loss", mlm_log_of_softmax,
              "log(softmax) is computed by hand, which gives log 0 = -inf once a probability "
              "underflows; F.cross_entropy works from the logits and stays finite", PART2),
    Diagnosis("mlm_loss", mlm_sum_when_nothing,
              "with no target the loss is logits.sum(), which depends on logits nobody "
              "predicts; a batch with no target has loss 0", PART2),
    Diagnosis("mlm_loss", mlm_mean_over_all,
              "the summed loss is divided by every position; the mean is over the targets "
              "only, the positions whose label is not -100", PART2),
    Diagnosis("mlm_loss", mlm_nan_when_nothing,
              "a batch with no target gives 0/0 = nan, which poisons every weight in the "
              "next step; return 0 when nothing is selected", PART2),
    Diagnosis("mlm_loss", mlm_not_flattened,
              "(B, T, V) logits go straight to F.cross_entropy, which reads dim 1 as the "
              "classes; flatten to (B*T, V) logits and (B*T,) labels first", PART2),
    Diagnosis("mlm_loss", mlm_sum,
              "the per-token losses are summed; the loss is their mean over the targets",
              PART2),
    Diagnosis("nsp_pair", nsp_first_sep_in_b,
              "the first [SEP] is put in segment 1; segment 0 holds [CLS], the tokens of A "
              "and the first [SEP]", PART3),
    Diagnosis("nsp_pair", nsp_no_final_sep,
              "the closing [SEP] is missing; a pair reads [CLS] A [SEP] B [SEP]", PART3),
    Diagnosis("nsp_pair", nsp_one_segment,
              "every position gets segment 0; the tokens of B and the final [SEP] are "
              "segment 1, so that every layer knows which side of the pair a token came "
              "from", PART3),
    Diagnosis("nsp_pair", nsp_swapped,
              "B is placed before A; a pair reads [CLS] A [SEP] B [SEP]", PART3),
]
# Reading the signs over a batch costs about a millisecond per 100,000 entries: the
# largest batches of mask_tokens' tests are not read; every mistake shows on the smaller
# ones (the probabilities ignored on the six calls of two settings, 393,216 entries).
DIAGNOSES = [replace(d, max_elements=1 << 19) if d.question == "mask_tokens" else d
             for d in DIAGNOSES]
