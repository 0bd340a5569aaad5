# question: sequence_cross_entropy
# fails: test_uniform_logits_give_log_v, test_values, test_large_logits_stay_finite
# public: and so does their mean
# public: must give a finite loss
# makes: ce_sum, ce_naive_softmax
# batch G3 (labelled before grading)
# NLLLoss(reduction="sum") of log(softmax)
# split: measure
# source: zyt600/-, 222kkk.py (the script's last loss, nn.NLLLoss(reduction="sum") of
# source: torch.log(nn.Softmax(dim=1)(output)), made a function of the logits and labels in NumPy:
# source: Softmax written as the max-shifted softmax it computes; a float returned)
import numpy as np


def sequence_cross_entropy(logits, labels):
    output = np.asarray(logits, dtype=np.float64)
    target = np.asarray(labels)

    # softmax = nn.Softmax(dim=1)
    shifted = output - output.max(axis=1, keepdims=True)
    output2 = np.exp(shifted) / np.exp(shifted).sum(axis=1, keepdims=True)
    output3 = np.log(output2)
    # lossFunction = nn.NLLLoss(reduction="sum")
    loss = -np.sum(output3[np.arange(len(target)), target])
    return float(loss)
