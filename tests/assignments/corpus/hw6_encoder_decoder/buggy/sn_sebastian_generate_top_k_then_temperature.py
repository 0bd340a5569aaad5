# question: sample_next
# fails: test_uses_only_rng, test_rejects_invalid_arguments
# public: should raise ValueError
# makes: sn_unchecked, sn_not_only_rng
# batch G3 (labelled before grading)
# temperature <= 0 means argmax, top_k = 0 an IndexError, np.random.choice
# split: measure
# source: urmi22/LLM-sebastian, ch05/modified_text_generation.py (generate's one step for a single
# source: row of logits, in NumPy: torch.topk as a descending sort cut to top_k, torch.multinomial as
# source: np.random.choice; the stub's rng is taken and never read)
import numpy as np


def sample_next(logits, temperature, rng, top_k=None):
    logits = np.asarray(logits, dtype=np.float64)

    # New: Filter logits with top_k sampling
    if top_k is not None:
        # Keep only top_k values
        top_logits = np.sort(logits)[::-1][:top_k]
        min_val = top_logits[-1]
        logits = np.where(logits < min_val, float("-inf"), logits)

    # New: Apply temperature scaling
    if temperature > 0.0:
        logits = logits / temperature

        # New (not in book): numerical stability tip to get equivalent results on mps device
        # subtract rowwise max before softmax
        logits = logits - logits.max(axis=-1, keepdims=True)

        # Apply softmax to get probabilities
        probs = np.exp(logits) / np.exp(logits).sum(axis=-1, keepdims=True)

        # Sample from the distribution
        idx_next = np.random.choice(len(probs), p=probs)

    # Otherwise same as before: get idx of the vocab entry with the highest logits value
    else:
        idx_next = np.argmax(logits, axis=-1)

    return int(idx_next)
