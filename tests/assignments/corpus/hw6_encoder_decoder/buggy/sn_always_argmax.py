# question: sample_next
# fails: test_temperature_distribution, test_top_k_distribution, test_top_k_beyond_vocabulary, test_uses_only_rng
# public: -
# ambiguous: sn_always_argmax
# Every logits vector its failing tests draw from has its largest logit at id 0: a
# greedy sampler's answers there are those of a stub that always returns 0.
import numpy as np
def sample_next(logits, temperature, rng, top_k=None):
    if temperature <= 0 or (top_k is not None and top_k < 1):
        raise ValueError("bad arguments")
    return int(np.argmax(logits))
