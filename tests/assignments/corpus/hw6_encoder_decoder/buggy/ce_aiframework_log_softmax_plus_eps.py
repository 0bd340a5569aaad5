# question: sequence_cross_entropy
# fails: test_uniform_logits_give_log_v, test_values, test_large_logits_stay_finite
# public: losses 0 and 1000, mean 500
# makes: -
# batch blind-H3 (labelled before grading)
# -log(softmax + 1e-9) of the max-shifted logits, in float32: capped near 20.7 where the
# softmax underflows, never -inf (no diagnosis, as ce_hm1_log_of_softmax_plus_eps)
# split: measure
# source: yjl-001/AiFramework, mytorch/nn/loss.py (cross_entropy_loss, with LogSoftmaxFunction.forward of
# source: mytorch/ops/advanced.py for logits.log_softmax(dim=1); xp is numpy, the Tensor's default float32
# source: kept; the answer a float)
import numpy as np

xp = np


def log_softmax(x, dim):
    x_max = xp.max(x, axis=dim, keepdims=True)
    shifted = x - x_max
    exp = xp.exp(shifted)
    sum_exp = xp.sum(exp, axis=dim, keepdims=True)
    softmax = exp / sum_exp
    log_softmax = xp.log(softmax + 1e-9)  # 加 epsilon 防止 log(0)
    return log_softmax


def cross_entropy_loss(logits, targets):
    log_probs = log_softmax(logits, dim=1)
    batch_size = targets.shape[0]
    loss = -log_probs[np.arange(batch_size), targets].mean()
    return loss


def sequence_cross_entropy(logits, labels):
    logits = xp.array(logits, dtype=xp.float32)  # Tensor(data) with its default dtype
    return float(cross_entropy_loss(logits, np.asarray(labels)))
