"""Known mistakes of hw3_bert_pretraining, each explained for the student.

Each mistake is the stub written wrong, as students write it (the corpus's
buggy variants, tests/assignments/corpus/hw3_bert_pretraining/buggy/, make
them): the grader replays it, in the trusted process only, on the inputs of a
failing test and names it when the student's answers are its answers (see
autograder/engine/driving/diagnose.py). Sections are the master's headings.
Not declared: mask_tokens (its generator is a handle in the worker: no replay),
and the mistakes whose answers are the reference's (inputs edited in place, a
loss cut from its graph).
"""
import torch
import torch.nn.functional as F

from autograder.testing import Diagnosis

PART1 = "Part 1: masked language modelling"
PART2 = "Part 2: the loss counts the targets only"
PART3 = "Part 3: sentence pairs"
IGNORE = -100


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
