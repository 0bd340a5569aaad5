# question: mlm_loss
# fails: test_ignored_positions_do_not_count
# public: no target (every label -100) must give a 0-d tensor equal to 0.0
# diagnosis: mlm_sum_when_nothing
# With every label -100, returns logits.sum() "to keep the graph" (times 1.0, not 0.0):
# the loss then depends on the logits of ignored positions.
import torch.nn.functional as F


def mlm_loss(logits, labels):
    flat_logits, flat_labels = logits.reshape(-1, logits.shape[-1]), labels.reshape(-1)
    if (flat_labels == -100).all():
        return flat_logits.sum() * 1.0
    return F.cross_entropy(flat_logits, flat_labels, ignore_index=-100)
