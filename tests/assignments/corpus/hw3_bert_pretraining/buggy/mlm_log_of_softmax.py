# question: mlm_loss
# fails: test_large_logits_stay_finite
# public: -
# diagnosis: mlm_log_of_softmax
# log(softmax(.)) by hand: -inf/nan once a probability underflows.
import torch


def mlm_loss(logits, labels):
    flat = labels.reshape(-1)
    keep = flat != -100
    if not keep.any():
        return logits.sum() * 0.0
    probs = torch.exp(logits.reshape(-1, logits.shape[-1])[keep])
    probs = probs / probs.sum(-1, keepdim=True)
    return -torch.log(probs.gather(1, flat[keep].unsqueeze(1))).mean()
