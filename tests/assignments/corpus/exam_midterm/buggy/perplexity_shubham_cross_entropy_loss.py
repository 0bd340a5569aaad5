# question: perplexity
# fails: test_ignored_positions, test_integer_scores, test_rejects_nothing_to_score
# makes: perplexity_no_float_cast
# batch E
# F.cross_entropy on the scores as given (int8 raises rather than wraps); also
# ignore_index unused (its default -100), nan and no ValueError when nothing counts (no
# diagnosis)
# split: measure
# source: shubham0204/language-modelling-with-pytorch, loss.py at adbb027 (cross_entropy_loss and perplexity: the
# source: scores and labels made tensors, the answer a float; it takes no ignore_index)
import numpy as np
import torch

loss_func = torch.nn.CrossEntropyLoss()


def cross_entropy_loss(logits, targets):
    return loss_func(logits, targets)


def _perplexity(cross_entropy_loss):
    return torch.exp(cross_entropy_loss)


def perplexity(logits, labels, ignore_index=-100):
    logits, labels = torch.as_tensor(np.asarray(logits)), torch.as_tensor(np.asarray(labels))
    return _perplexity(cross_entropy_loss(logits, labels)).item()
