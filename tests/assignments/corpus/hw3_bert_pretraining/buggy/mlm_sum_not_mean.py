# question: mlm_loss
# fails: test_matches_cross_entropy
# public: the mean over the 3 targets
# diagnosis: mlm_sum
# Sums the per-token losses instead of averaging them.
import torch.nn.functional as F


def mlm_loss(logits, labels):
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1),
                           reduction="sum")
