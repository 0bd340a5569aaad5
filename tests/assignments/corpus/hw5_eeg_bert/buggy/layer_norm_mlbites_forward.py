# question: layer_norm
# fails: test_values
# public: -
# makes: -
# batch blind-H3 (labelled before grading)
# moved from correct/ after grading: rejects any x that is not 2-D (ValueError), though
# the stub normalises the last axis of any shape (no declared mistake)
# split: measure
# source: taesiri/MLBites, db/layernorm_forward_backward_numpy/solution.py (layernorm_forward with
# source: gamma = ones and beta = zeros, its cache dropped: the stub has no scale or shift)
from __future__ import annotations

import numpy as np


def layernorm_forward(
    x: np.ndarray,
    gamma: np.ndarray,
    beta: np.ndarray,
    eps: float = 1e-5,
):
    if x.ndim != 2:
        raise ValueError(f"x must be 2D (N,D), got shape={x.shape}")
    n, d = x.shape
    if d == 0:
        raise ValueError("x must have D>0 features")

    gamma_in_shape = gamma.shape
    beta_in_shape = beta.shape

    gamma_2d = gamma.reshape(1, d) if gamma.ndim == 1 else gamma
    beta_2d = beta.reshape(1, d) if beta.ndim == 1 else beta

    if gamma_2d.shape != (1, d):
        raise ValueError(f"gamma must be (D,) or (1,D); got shape={gamma.shape}")
    if beta_2d.shape != (1, d):
        raise ValueError(f"beta must be (D,) or (1,D); got shape={beta.shape}")

    mu = np.mean(x, axis=1, keepdims=True)  # (N,1)
    var = np.var(x, axis=1, keepdims=True)  # (N,1)
    inv_std = 1.0 / np.sqrt(var + eps)  # (N,1)
    x_hat = (x - mu) * inv_std  # (N,D)

    y = x_hat * gamma_2d + beta_2d
    cache = (x_hat, inv_std, gamma_2d, gamma_in_shape, beta_in_shape)
    return y, cache


def layer_norm(x, eps=1e-5):
    x = np.asarray(x, dtype=np.float64)
    y, _ = layernorm_forward(x, np.ones(x.shape[-1]), np.zeros(x.shape[-1]), eps)
    return y
