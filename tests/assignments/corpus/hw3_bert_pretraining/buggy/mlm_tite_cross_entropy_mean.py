# question: mlm_loss
# fails: test_nothing_selected_is_zero
# public: not nan
# makes: mlm_nan_when_nothing
# batch E
# source: webis-de/tite, tite/loss/mlm.py (MLMCrossEntropy.forward as a function, its vocab_size the
# source: logits' last dimension)
import torch


def mlm_loss(logits, labels):
    vocab_size = logits.shape[-1]
    logits = logits.view(-1, vocab_size)
    labels = labels.view(-1)
    return torch.nn.functional.cross_entropy(logits, labels)
