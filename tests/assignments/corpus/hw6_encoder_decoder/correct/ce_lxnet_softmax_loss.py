# source: hurricanelx/LxNet, LxNet/Layers/Softmax.py (Softmax.loss with the logits and labels as x
# source: and y; the stub returns its loss, not the gradient dx beside it)
import numpy as np


class Softmax:
    def loss(self, x, y):
        shifted_logits = x - np.max(x, axis=1, keepdims=True)
        Z = np.sum(np.exp(shifted_logits), axis=1, keepdims=True)
        log_probs = shifted_logits - np.log(Z)
        probs = np.exp(log_probs)
        N = x.shape[0]
        loss = -np.sum(log_probs[np.arange(N), y]) / N
        dx = probs.copy()
        dx[np.arange(N), y] -= 1
        dx /= N
        return loss, dx


def sequence_cross_entropy(logits, labels):
    loss, dx = Softmax().loss(np.asarray(logits), np.asarray(labels))
    return float(loss)
