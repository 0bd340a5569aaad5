# question: mlm_loss
# fails: test_nothing_selected_is_zero
# public: not nan
# diagnosis: mlm_nan_when_nothing
# Plain F.cross_entropy: right whenever something is selected, nan when nothing is.
import torch.nn.functional as F


def mlm_loss(logits, labels):
    """Mistake: nan when no token is selected."""
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1))
