# question: mlm_loss
# fails: test_ignored_positions_do_not_count
# public: labels -100 must not count
# diagnosis: mlm_class_zero
# -100 clamped to class 0: unselected positions count as predicting token 0.
import torch.nn.functional as F


def mlm_loss(logits, labels):
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1).clamp(min=0))
