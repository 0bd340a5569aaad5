# question: sample_next
# split: measure
# source: BjarniHaukur/ngram-llm-analysis, ngram_llm_analysis/utils/sample.py (sample_with_temp when top_k
# source: is None, top_k_sample with k = top_k otherwise, on the logits made a float64 tensor; the
# source: sampled id an int; the stub's rng is taken and never read)
import numpy as np
import torch
import torch.nn.functional as F


def sample_with_temp(logits: torch.Tensor, temperature: float = 1.0) -> torch.Tensor:
    p = F.softmax(logits / temperature, dim=-1)
    return torch.multinomial(p, 1).squeeze(-1)


def top_k_sample(logits: torch.Tensor, k: int = 50) -> torch.Tensor:
    p = F.softmax(logits, dim=-1)
    top_probs, top_indices = torch.topk(p, k)
    top_probs /= top_probs.sum()
    sampled_index = torch.multinomial(top_probs, 1)
    return top_indices[sampled_index].squeeze(-1)


def sample_next(logits, temperature, rng, top_k=None):
    logits = torch.as_tensor(np.asarray(logits, dtype=np.float64))
    if top_k is None:
        return int(sample_with_temp(logits, temperature))
    return int(top_k_sample(logits, top_k))
