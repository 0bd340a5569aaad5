# question: perplexity
# fails: test_values, test_ignored_positions, test_large_logits_stay_finite, test_integer_scores, test_rejects_nothing_to_score
# makes: perplexity_no_float_cast
# batch E
# torch.take on the flattened log-probabilities: every label indexes row 0's; no float cast;
# also no ignore_index, no ValueError (no diagnosis)
# split: measure
# source: shubham0204/language-modelling-with-pytorch, loss.py at 502a5e9 (sparse_crossentropy_with_logits
# source: and perplexity: the scores and labels made tensors, the answer a float; it takes no ignore_index)
import numpy as np
import torch

def sparse_crossentropy_with_logits(logits, targets):
    log_softmax_preds = -torch.nn.functional.log_softmax( logits , dim=-1 )
    return torch.take( log_softmax_preds , targets ).mean()

def _perplexity( cross_entropy_loss ):
    return torch.exp( cross_entropy_loss )


def perplexity(logits, labels, ignore_index=-100):
    logits, labels = torch.as_tensor(np.asarray(logits)), torch.as_tensor(np.asarray(labels))
    return _perplexity(sparse_crossentropy_with_logits(logits, labels)).item()
