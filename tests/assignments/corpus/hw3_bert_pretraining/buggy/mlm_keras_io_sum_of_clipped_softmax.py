# question: mlm_loss
# fails: test_matches_cross_entropy, test_large_logits_stay_finite
# public: the mean over the 3 targets
# makes: mlm_sum
# batch G2 (labelled before grading)
# also -log of a softmax clipped to [1e-7, 1 - 1e-7], capped near 16.1 (no diagnosis)
# split: measure
# source: keras-team/keras-io, examples/nlp/masked_language_modeling.py (MaskedLanguageModel.compute_loss:
# source: the model's softmax output is softmax(logits); SparseCategoricalCrossentropy(reduction=None) on
# source: probabilities written as torch's, Keras's clip to [1e-7, 1 - 1e-7] included; sample_weight is 1
# source: where the label is not -100, and those positions' labels are read as 0 (weight 0) to index)
import torch


def mlm_loss(logits, labels):
    eps = 1e-7
    sample_weight = (labels != -100).to(logits.dtype)
    y = torch.where(labels != -100, labels, torch.zeros_like(labels))
    y_pred = torch.softmax(logits, dim=-1)
    y_pred = torch.clamp(y_pred, eps, 1 - eps)
    loss = -torch.log(torch.gather(y_pred, -1, y.unsqueeze(-1)).squeeze(-1))
    loss = loss * sample_weight
    return torch.sum(loss)
