# question: perplexity
# fails: test_ignored_positions, test_large_logits_stay_finite, test_rejects_nothing_to_score
# public: -
# makes: perplexity_log_of_softmax
# batch blind-H3 (labelled before grading)
# -log(max(1e-10, softmax)): the log of the probabilities (capped, not -inf); also
# ignore_index unused and no ValueError (no diagnosis)
# split: measure
# source: nicklhy/MemN2N, metric_factory.py (Perplexity(label, pred), pred being the network's softmax
# source: output: the logits put through a max-shifted float64 softmax first; the answer a float)
import numpy as np


def Perplexity(label, pred):
    label = label.T.reshape((-1,))
    loss = 0.
    for i in range(pred.shape[0]):
        loss += -np.log(max(1e-10, pred[i][int(label[i])]))
    return np.exp(loss / label.size)


def perplexity(logits, labels, ignore_index=-100):
    scores = np.asarray(logits, dtype=np.float64)
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    pred = e / e.sum(axis=1, keepdims=True)
    return float(Perplexity(np.asarray(labels), pred))
