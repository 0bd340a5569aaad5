# question: perplexity
# fails: test_values, test_ignored_positions, test_large_logits_stay_finite, test_integer_scores, test_rejects_nothing_to_score
# makes: perplexity_no_float_cast
# batch E
# also the mean of per-position perplexities, and no ignore_index (no diagnosis)
# split: measure
# source: SaudxInu/language-modeling-from-scratch, assignment1-basics/cs336_basics/nn/modules/perplexity.py
# source: (perplexity: the scores and labels made tensors; it takes no ignore_index)
import numpy as np
import torch


def perplexity(logits, labels, ignore_index=-100):
    predicted_logits = torch.as_tensor(np.asarray(logits))
    targets = torch.as_tensor(np.asarray(labels))
    x = predicted_logits - torch.max(predicted_logits, dim=-1, keepdim=True)[0]
    x = torch.log(torch.sum(torch.exp(x), dim=-1, keepdim=True)) - torch.gather(
        x, -1, targets.unsqueeze(1)
    )
    perplexity = torch.mean(torch.exp(torch.mean(x, dim=-1)))
    return perplexity
