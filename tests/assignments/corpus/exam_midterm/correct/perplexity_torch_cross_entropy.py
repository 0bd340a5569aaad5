# torch's cross_entropy with ignore_index, on float64 tensors.
import numpy as np
import torch
import torch.nn.functional as F


def perplexity(logits, labels, ignore_index=-100):
    logits = torch.as_tensor(np.asarray(logits), dtype=torch.float64)
    labels = torch.as_tensor(np.asarray(labels), dtype=torch.long)
    if not (labels != ignore_index).any():
        raise ValueError("no position to score")
    loss = F.cross_entropy(logits, labels, ignore_index=ignore_index)
    return torch.exp(loss).item()
