"""Known mistakes of hw3_bert_pretraining, each explained for the student.

Each mistake is the stub written wrong, as students write it (the corpus's
buggy variants, tests/assignments/corpus/hw3_bert_pretraining/buggy/, make
them): the grader replays it, in the trusted process only, on the inputs of a
failing test and names it when the student's answers are its answers (see
autograder/engine/driving/diagnose.py). Sections are the master's headings.
mask_tokens takes a generator, a handle in the worker, and cannot be replayed:
its mistakes are signs read from the answers (Diagnosis.replay False), each a
rule no correct sampler breaks or a share none comes near. Not declared: the
mistakes whose answers are the reference's (inputs edited in place, a loss cut
from its graph), and samplers told apart only by how they use rng.
"""
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
    return input_ids, mask_id, special_ids, (select_prob, mask_prob, random_prob)


class _Answer:
    """One call of mask_tokens and its answer, as the test read it: where each
    position is special, labelled (label >= 0), changed, [MASK]."""

    def __init__(self, args, kwargs, answer):
        ids, mask_id, special_ids, self.probs = _bind(*args, **kwargs)
        self.ids = np.asarray(ids, dtype=np.int64)
        self.corrupted, self.labels = (np.asarray(a, dtype=np.int64) for a in answer)
        if self.corrupted.shape != self.ids.shape or self.labels.shape != self.ids.shape:
            raise ValueError("not the input's shape")
        self.specials = np.asarray(list(special_ids), dtype=np.int64)
        self.low = len(self.specials)  # "the specials are the first ids" draws from [low, V)
        self.special = np.isin(self.ids, self.specials)
        self.labelled = self.labels >= 0
        self.changed = self.corrupted != self.ids
        self.masked = self.corrupted == int(mask_id)
        self.default = self.probs == (0.15, 0.8, 0.1)


_last: list = [None, None]  # (the calls, their _Answers): every sign of one test reads the same


def _answers(calls):
    """The calls answered with a pair of arrays of the input's shape (read once per test:
    the signs of a failing test are asked in turn about the same calls)."""
    if _last[0] is not None and len(_last[0]) == len(calls) and all(
            a is b for a, b in zip(_last[0], calls)):
        return _last[1]
    found = []
    for args, kwargs, answer in calls:
        if isinstance(answer, tuple) and len(answer) == 2:
            try:
                found.append(_Answer(args, kwargs, answer))
            except (TypeError, ValueError):
                continue
    _last[:] = [calls, found]
    return found


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
    """Labels at special positions, the specials below len(special_ids) among them."""
    return any((a.labelled & a.special & (a.ids < a.low)).any() for a in _answers(calls))


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
    total = np.zeros(4, dtype=np.int64)
    for a in _answers(calls):
        if a.default:
            sel = a.labelled & ~a.special
            total += [sel.sum(), (sel & a.masked).sum(), (sel & a.changed & ~a.masked).sum(),
                      (sel & ~a.changed).sum()]
    return total


def mt_kept_unlabelled(calls):
    """Hardly a target keeps its id (a tenth should), and [MASK] takes 8 of 9 targets."""
    n, masked, _, kept = _split(calls)
    return n >= 2000 and kept < 0.03 * n and masked > 0.86 * n


def mt_never_kept(calls):
    """Hardly a target keeps its id (a tenth should), [MASK] takes its 80%."""
    n, masked, _, kept = _split(calls)
    return n >= 2000 and kept < 0.03 * n and 0.76 * n < masked < 0.84 * n


def mt_never_random(calls):
    """No target is replaced by another id (a tenth should be), [MASK] takes its 80%."""
    n, masked, drawn, _ = _split(calls)
    return n >= 2000 and drawn == 0 and 0.76 * n < masked < 0.84 * n


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
# Reading a sign over a batch costs about a millisecond per 60,000 entries: the largest
# batches of mask_tokens' tests are not read; every mistake shows on the smaller ones.
DIAGNOSES = [replace(d, max_elements=1 << 18) if d.question == "mask_tokens" else d
             for d in DIAGNOSES]
