# question: perplexity
# fails: test_values, test_ignored_positions, test_large_logits_stay_finite, test_integer_scores, test_rejects_nothing_to_score
# makes: perplexity_log_of_softmax, perplexity_no_float_cast
# batch G1 (labelled before grading)
# log2 of softmax + 1e-10 (capped, not -inf, yet the log of the probabilities); int8 scores make
# softmax raise; also ignore_index only honoured when >= 0, so -100 labels make scatter_ raise
# split: measure
# source: tomhosking/torchseq, torchseq/utils/perplexity.py (get_perplexity and its onehot: indices are the
# source: labels, the scores and labels made tensors, the answer a float)
import numpy as np
import torch


def onehot(indexes, N=None, ignore_index=None):
    """
    Creates a one-representation of indexes with N possible entries
    if N is not specified, it will suit the maximum index appearing.
    indexes is a long-tensor of indexes
    ignore_index will be zero in onehot representation
    """
    if N is None:
        N = indexes.max() + 1
    sz = list(indexes.size())
    output = indexes.new().byte().resize_(*sz, N).zero_()
    output.scatter_(-1, indexes.unsqueeze(-1), 1)
    if ignore_index is not None and ignore_index >= 0:
        output.masked_fill_(indexes.eq(ignore_index).unsqueeze(-1), 0)
    return output


def get_perplexity(logits, indices, vocab_size=None, ignore_index=None):
    seq_probs = torch.softmax(logits, dim=-1)
    seq_oh = onehot(indices, vocab_size, ignore_index)

    seq_entropy = torch.sum(torch.log2(seq_probs + 1e-10) * seq_oh, dim=-1)

    perplexity = torch.pow(2, -torch.sum(seq_entropy, dim=-1) / seq_oh.sum(dim=-1).sum(dim=-1))

    return perplexity


def perplexity(logits, labels, ignore_index=-100):
    logits = torch.as_tensor(np.asarray(logits))
    labels = torch.as_tensor(np.asarray(labels))
    return get_perplexity(logits, labels, logits.shape[-1], ignore_index).item()
