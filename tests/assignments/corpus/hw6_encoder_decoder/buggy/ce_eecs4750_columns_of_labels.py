# question: sequence_cross_entropy
# fails: test_values
# public: row t is scored against labels[t]
# makes: -
# x[:, y] sums whole columns of the shifted logits, not each row's label (no diagnosis)
# source: xs2445/CNN-PyCUDA-EECS4750-Project, utils/Lossfunctions.py (softmax_loss with the logits
# source: and labels as x and y; the stub returns its loss, not the gradient dx beside it)
import numpy as np


def softmax_loss(x, y):
    """
    Softmax loss function, vectorized version.
    y_prediction = argmax(softmax(x))

    :param x: (float) a tensor of shape (N, #classes)
    :param y: (int) ground truth label, a array of length N

    :return: loss - the loss function
             dx - the gradient wrt x
    """
    loss = 0.0
    num_train = x.shape[0]

    x = x - np.max(x, axis=1, keepdims=True)
    x_exp = np.exp(x)
    # loss -= np.sum(x[range(num_train), y])
    loss -= np.sum(x[:, y])
    loss += np.sum(np.log(np.sum(x_exp, axis=1)))

    loss /= num_train

    neg = np.zeros_like(x)
    neg[range(num_train), y] = -1

    pos = (x_exp.T / np.sum(x_exp, axis=1)).T

    dx = (neg + pos) / num_train

    return loss, dx


def sequence_cross_entropy(logits, labels):
    loss, dx = softmax_loss(np.asarray(logits, dtype=np.float64), np.asarray(labels))
    return float(loss)
