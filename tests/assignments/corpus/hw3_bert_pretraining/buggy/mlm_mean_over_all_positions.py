# question: mlm_loss
# fails: test_ignored_positions_do_not_count
# public: the mean over the 3 targets (labels -100 do not count)
# diagnosis: mlm_mean_over_all
# Divides by every position instead of the selected ones.
import torch.nn.functional as F


def mlm_loss(logits, labels):
    total = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1),
                            ignore_index=-100, reduction="sum")
    return total / labels.numel()
