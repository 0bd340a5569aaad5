# question: perplexity
# fails: test_ignored_positions, test_large_logits_stay_finite, test_integer_scores, test_rejects_nothing_to_score
# makes: perplexity_log_of_softmax, perplexity_no_float_cast
# batch E
# also -100 labels gathered, and no ValueError when nothing is scored
# source: mathijspieters/Natural-Language-Processing-2, Assignment2/metrics.py (eval_RNN, whose second
# source: answer is the perplexity: out and targets are the scores and labels made tensors, its mask
# source: the labels that are not ignore_index)
import numpy as np
import torch


def eval_RNN(out, targets, mask):
    """ Compute perplexity """
    #Collect the probs of the targets.
    out = torch.nn.functional.softmax(out, dim=-1)
    likelihood = out.gather(dim=-1, index=targets.unsqueeze(-1)).squeeze()
    likelihood = likelihood.log().sum(0)
    return -likelihood.mean(), (-likelihood.sum()/mask.sum()).exp()


def perplexity(logits, labels, ignore_index=-100):
    out, targets = torch.as_tensor(np.asarray(logits)), torch.as_tensor(np.asarray(labels))
    mask = targets != ignore_index
    return eval_RNN(out, targets, mask)[1]
