# question: perplexity
# fails: test_ignored_positions, test_integer_scores, test_rejects_nothing_to_score
# makes: perplexity_no_float_cast
# batch E
# the shift subtracted in place in the scores' dtype; also no ignore_index (the -100
# labels gathered), no ValueError, the caller's array changed (no diagnosis)
# source: austrian-code-wizard/spring2024-assignment1-basics, cs336_basics/loss.py (cross_entropy and
# source: perplexity: the scores and labels made tensors, the answer a float; it takes no ignore_index)
import numpy as np
import torch


def cross_entropy(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    logits -= logits.max(-1, keepdim=True)[0]
    loss = -logits.gather(-1, targets.unsqueeze(-1)).squeeze() + torch.log(
        torch.exp(logits).sum(-1)
    )
    return loss.mean()


def _perplexity(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return torch.exp(cross_entropy(logits, targets))


def perplexity(logits, labels, ignore_index=-100):
    return _perplexity(torch.as_tensor(np.asarray(logits)), torch.as_tensor(np.asarray(labels))).item()
