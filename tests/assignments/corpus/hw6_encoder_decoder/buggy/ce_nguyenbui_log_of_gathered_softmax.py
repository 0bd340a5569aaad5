# question: sequence_cross_entropy
# fails: test_large_logits_stay_finite
# public: must give a finite loss
# makes: ce_naive_softmax
# batch G3 (labelled before grading)
# -log of a (max-shifted) softmax: log 0 where it underflows
# split: measure
# source: nguyenbui45/Deep-learning-summary, codes/crossentropy.py (the script's softmax, gather and
# source: mean of -log made a function of the logits and labels, in NumPy: F.softmax written as the
# source: max-shifted softmax it computes, gather as the row-wise pick; a float returned)
import numpy as np


def sequence_cross_entropy(logits, labels):
    predicts = np.asarray(logits, dtype=np.float64)
    labels = np.asarray(labels)

    # Calculate the softmax of logits
    shifted = predicts - predicts.max(axis=1, keepdims=True)
    output_probs = np.exp(shifted) / np.exp(shifted).sum(axis=1, keepdims=True)

    # Gather the true class probability
    true_class_probs = np.take_along_axis(output_probs, labels.reshape(-1, 1), axis=1)
    # Calculate the loss
    loss = np.mean(-np.log(true_class_probs))
    return float(loss)
